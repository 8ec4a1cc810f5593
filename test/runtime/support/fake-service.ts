/**
 * A small stand-in for the service on loopback: an auth host and an API host
 * (two listeners, as {auth_url} and {base_url} are different hosts) that
 * record every request and answer through handlers each test sets.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  /** The body, unless the handler consumed the stream itself (then empty). */
  readonly body: Buffer;
  /** Where the connection came from (a proxy's outbound address, or the client's). */
  readonly remoteAddress: string | undefined;
}

/** Return true when the handler reads the request body itself (streams, busboy). */
type Handler = (req: IncomingMessage, res: ServerResponse, recorded: Recorded) => unknown;

export interface FakeService {
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly authRequests: Recorded[];
  readonly apiRequests: Recorded[];
  onToken(handler: Handler): void;
  onApi(handler: Handler, options?: { streaming?: boolean }): void;
  close(): Promise<void>;
}

let tokenCounter = 0;

/** The default token endpoint: a fresh token per request, valid for a day. */
const issueToken: Handler = (_req, res) => {
  json(res, 200, { access_token: `token-${String(++tokenCounter)}`, expires_in: 86400, token_type: "Bearer" });
};

export async function startFakeService(prefix = ""): Promise<FakeService> {
  const authRequests: Recorded[] = [];
  const apiRequests: Recorded[] = [];
  let tokenHandler: Handler = issueToken;
  let apiHandler: Handler = (_req, res) => {
    json(res, 200, {});
  };
  let apiStreaming = false;

  const auth = createServer((req, res) => void record(req, res, authRequests, tokenHandler, false));
  const api = createServer((req, res) => void record(req, res, apiRequests, apiHandler, apiStreaming));
  const [authPort, apiPort] = await Promise.all([listen(auth), listen(api)]);
  return {
    baseUrl: `http://127.0.0.1:${String(apiPort)}${prefix}`,
    authUrl: `http://127.0.0.1:${String(authPort)}`,
    authRequests,
    apiRequests,
    onToken: (handler) => {
      tokenHandler = handler;
    },
    onApi: (handler, options = {}) => {
      apiHandler = handler;
      apiStreaming = options.streaming ?? false;
    },
    close: async () => {
      await Promise.all([stop(auth), stop(api)]);
    },
  };
}

async function record(
  req: IncomingMessage,
  res: ServerResponse,
  into: Recorded[],
  handler: Handler,
  streaming: boolean,
): Promise<void> {
  const body = streaming ? Buffer.alloc(0) : await readAll(req);
  const recorded = {
    method: req.method ?? "",
    url: req.url ?? "",
    headers: req.headers,
    body,
    remoteAddress: req.socket.remoteAddress,
  };
  into.push(recorded);
  try {
    await handler(req, res, recorded);
  } catch (error) {
    if (!res.headersSent) json(res, 500, { status: 500, code: "TEST_HANDLER_FAILED", message: String(error) });
  }
}

/**
 * The 201 body of docs/service.md 2.3 for a POST to
 * `…/api/v1/flows/<flowId>/<environment>/sessions`: the flow and environment
 * from the path, the subjectId the request carried.
 */
export function createdSession(url: string, subjectId: string | undefined, sessionId = "s-1"): Record<string, unknown> {
  const match = /\/api\/v1\/flows\/([^/]+)\/([^/]+)\/sessions$/.exec(url);
  if (!match) throw new Error(`not a create-session path: ${url}`);
  return {
    flowId: decodeURIComponent(match[1] ?? ""),
    environment: decodeURIComponent(match[2] ?? ""),
    flowVersion: 1,
    playerUrl: `https://player.example.test/start?token=player-${sessionId}`,
    sessionContext: { sessionId, sessionStatus: "CREATED", createdAt: "2026-01-01T00:00:00.000Z" },
    metadata: { subjectId: subjectId ?? "" },
  };
}

/** The subjectId of a JSON create-session body, when it has one. */
export function subjectIdOfJson(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { metadata?: { subjectId?: unknown } };
    return typeof parsed.metadata?.subjectId === "string" ? parsed.metadata.subjectId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For clients sharing a token store: the token answered late, so the other
 * clients find the lease held and wait for the store; and listFlows answered.
 */
export function slowTokenAndFlows(service: FakeService, token: string): void {
  service.onToken((_req, res) => {
    setTimeout(() => {
      json(res, 200, { access_token: token, expires_in: 3600, token_type: "Bearer" });
    }, 50);
  });
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "f" }]);
  });
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      resolve((server.address() as AddressInfo).port);
    }),
  );
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
}
