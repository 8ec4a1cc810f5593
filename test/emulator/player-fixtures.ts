/**
 * What the player tests share (HTTP here, the browser in test/browser):
 * a flow whose title and description are markup, creating a JSON session
 * with the player's inputs, and reading the hidden fields of a page.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FlowModel } from "../../generator/model/types.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { AML_ID, aml, bearer, call } from "./fixtures.js";

export const SCRIPT_PAYLOAD = `<script>alert("xss-script")</script>`;
export const IMG_PAYLOAD = `"><img src=x onerror="alert('xss-img')">`;

export const HOSTILE_ID = "b7-hostile";
/** The aml flow with markup in every text the page shows from the description. */
export const hostile: FlowModel = {
  ...aml,
  name: "hostile",
  id: HOSTILE_ID,
  path: `/api/v1/flows/${HOSTILE_ID}/staging/sessions`,
  title: `Hostile ${SCRIPT_PAYLOAD}`,
  description: `Described ${IMG_PAYLOAD}`,
};

export interface PlayerSessionInput {
  readonly flowId?: string;
  readonly subjectId?: string;
  readonly locale?: string;
  readonly redirectUrl?: string;
  readonly state?: string;
}

export interface PlayerSession {
  readonly sessionId: string;
  readonly playerUrl: string;
}

export async function createPlayerSession(
  emulator: RunningEmulator,
  token: string,
  input: PlayerSessionInput = {},
): Promise<PlayerSession> {
  const { flowId = AML_ID, subjectId = "cust-1", locale, redirectUrl, state } = input;
  const answer = await call(`${emulator.baseUrl}/api/v1/flows/${flowId}/staging/sessions`, {
    method: "POST",
    headers: bearer(token, { "content-type": "application/json" }),
    body: JSON.stringify({
      input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
      metadata: { subjectId, ...(locale ? { locale } : {}) },
      ...(redirectUrl !== undefined ? { redirectUrl } : {}),
      ...(state !== undefined ? { state } : {}),
    }),
  });
  if (answer.status !== 201) throw new Error(`session not created: ${answer.status} ${answer.text}`);
  return { sessionId: answer.json.sessionContext.sessionId, playerUrl: answer.json.playerUrl };
}

/** The first capture of `pattern` in a page's source. */
function attributeOf(page: string, pattern: RegExp): string | undefined {
  return pattern.exec(page)?.[1];
}

export const ticketOf = (page: string): string | undefined => attributeOf(page, /name="ticket" value="([^"]*)"/);
export const stateOf = (page: string): string | undefined =>
  attributeOf(page, /data-testid="player" data-state="([^"]*)"/);
export const attemptsOf = (page: string): string | undefined => attributeOf(page, /data-testid="attempts-left">(\d+)</);

/** A loopback server that records each request and answers a small page. */
export interface Recorder {
  readonly server: Server;
  readonly url: string;
  readonly requests: { readonly url: string; readonly headers: IncomingMessage["headers"]; readonly body: string }[];
  close(): Promise<void>;
}

export async function startRecorder(host = "127.0.0.1", status = 200): Promise<Recorder> {
  const requests: Recorder["requests"] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      requests.push({ url: req.url ?? "", headers: req.headers, body });
      const page = `<!doctype html><title>back</title><p id="landed">back at ${req.url?.replace(/[<>&"]/g, "") ?? ""}</p>`;
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(page);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
