/**
 * The web example's backend: the requests a team's own web app answers
 * around the service, on node:http with no framework.
 *
 *   GET  /                     the app's page: a form, and the signed-in subject
 *   POST /verify               createSession (generated client) with a signed `state`, 303 to playerUrl
 *   ...                        the user completes the flow in the player, which ends the session,
 *                              sends the webhook and 303s the browser to /return?state=...
 *   POST /webhooks/flowsmith   createWebhookHandler: signature verified, outcome read from the API
 *   GET  /return?state=...     verifyRedirectState, then the outcome: as the webhook recorded it, else from the API
 *   GET  /seen.json            what this backend saw (for the tests, and to watch it work)
 *
 * What it keeps lives in memory (Maps); a real app keeps it in its database.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createRedirectState,
  createWebhookHandler,
  decisionOf,
  RedirectStateError,
  RequestValidationError,
  stateFromReturnUrl,
  verifyRedirectState,
  type Client,
} from "@flowsmith/runtime";
import { amlScreening } from "../../generated/index.js";
import { homePage, outcomePage, problemPage, refusedPage, sendPage, type HomeForm, type Outcome } from "./pages.js";

export const RETURN_PATH = "/return";
export const WEBHOOK_PATH = "/webhooks/flowsmith";
/** How long the user has to come back from the player. */
export const STATE_TTL_MS = 30 * 60_000;

export interface AppOptions {
  /** A staging client: the AML screening flow is published to staging. */
  readonly client: Client<"staging">;
  /** This app's own origin, as the browser reaches it. */
  readonly url: string;
  /** Where playerUrl points (the page's CSP lets POST /verify's redirect lead there). */
  readonly playerOrigin: string;
  readonly stateSecret: Uint8Array;
  /** The same Standard Webhooks secret the sender signs with. */
  readonly webhookSecret: string;
  /** The clock of redirect states, in ms. */
  readonly now: () => number;
}

/** What /seen.json shows. */
export interface Seen {
  /** Deliveries handled: with a secret set, only verified ones get this far. */
  readonly webhooks: {
    readonly sessionId: string;
    readonly webhookId: string | undefined;
    readonly decision: string | undefined;
  }[];
  /** Deliveries refused (401 for a bad signature...) or failed after the answer, by code. */
  readonly deliveryErrors: { readonly status: number; readonly code: string | undefined }[];
}

export interface App {
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** Resolves once every webhook accepted has been processed. */
  readonly drain: () => Promise<void>;
}

export function createApp(options: AppOptions): App {
  const { client, url, now } = options;
  /** Which session a state's `data` (our own reference) stands for, and for whom. */
  const verifications = new Map<string, { readonly subjectId: string; readonly sessionId: string }>();
  /** Outcomes recorded by the webhook, by sessionId. */
  const ended = new Map<string, Outcome>();
  const seen: Seen = { webhooks: [], deliveryErrors: [] };
  const send = (res: ServerResponse, status: number, page: Parameters<typeof sendPage>[2]): void => {
    sendPage(res, status, page, options.playerOrigin);
  };

  const webhooks = createWebhookHandler({
    client,
    secret: options.webhookSecret,
    // Everything here was read from the API; the delivery only said which session ended.
    onSessionEnded: ({ sessionId, webhookId, session, decision, dataBlocks }) => {
      ended.set(sessionId, { sessionId, sessionStatus: session.sessionStatus, decision, dataBlocks, webhookId });
      seen.webhooks.push({ sessionId, webhookId, decision });
    },
    onError: (error, delivery) => {
      const code = (error as { code?: string }).code;
      seen.deliveryErrors.push({ status: delivery.status, code });
      console.error(`webhook delivery not handled: ${String(delivery.status)} ${code ?? String(error)}`);
    },
  });

  /**
   * A random subject per browser, in a cookie: it stands in for your app's
   * login (use your own user id; never personal data, docs/service.md 2.2).
   * SameSite=Lax, not Strict: the return from the player is a cross-site navigation.
   */
  function home(req: IncomingMessage, res: ServerResponse): void {
    const subjectId = subjectOf(req) ?? `user-${randomBytes(6).toString("hex")}`;
    res.setHeader("set-cookie", `subject=${subjectId}; Path=/; HttpOnly; SameSite=Lax`);
    send(res, 200, homePage(subjectId, amlScreening.spec.locales));
  }

  async function startVerification(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const subjectId = subjectOf(req);
    if (subjectId === undefined) {
      redirect(res, "/");
      return;
    }
    const fields = await readForm(req);
    if (fields === undefined) {
      send(res, 413, problemPage("Form too large", "The form was over 16 KiB."));
      return;
    }
    const form: HomeForm = {
      givenName: fields.get("givenName") ?? "",
      familyName: fields.get("familyName") ?? "",
      birthDate: fields.get("birthDate") ?? "",
      locale: fields.get("locale") ?? "en",
    };
    const locale = amlScreening.spec.locales.find((known) => known === form.locale) ?? "en";
    // The state names our own reference to this verification; the session id is known only once it exists.
    const reference = randomUUID();
    const state = await createRedirectState({
      secret: options.stateSecret,
      subjectId,
      ttlMs: STATE_TTL_MS,
      data: reference,
      now,
    });
    try {
      const session = await amlScreening.createSession(client, {
        input: { basicIdentity: { givenName: form.givenName, familyName: form.familyName, birthDate: form.birthDate } },
        metadata: { subjectId, locale },
        redirectUrl: `${url}${RETURN_PATH}`,
        state,
      });
      verifications.set(reference, { subjectId, sessionId: session.sessionContext.sessionId });
      redirect(res, session.playerUrl);
    } catch (error) {
      // The generated client checked the request against the flow before sending anything.
      if (!(error instanceof RequestValidationError)) throw error;
      send(
        res,
        400,
        homePage(
          subjectId,
          amlScreening.spec.locales,
          form,
          error.issues.map((issue) => `${issue.path}: ${issue.message}`),
        ),
      );
    }
  }

  async function returned(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const subjectId = subjectOf(req);
    if (subjectId === undefined) {
      send(res, 400, refusedPage("NOT_SIGNED_IN"));
      return;
    }
    let reference: string | undefined;
    try {
      // Checked against the user signed in now, never against anything in the URL.
      reference = (
        await verifyRedirectState({
          secret: options.stateSecret,
          subjectId,
          state: stateFromReturnUrl(req.url ?? ""),
          now,
        })
      ).data;
    } catch (error) {
      if (!(error instanceof RedirectStateError)) throw error;
      send(res, 400, refusedPage(error.code));
      return;
    }
    const verification = reference === undefined ? undefined : verifications.get(reference);
    if (verification === undefined) {
      // A genuine state this process does not know: it was restarted (the Maps are gone).
      send(res, 400, refusedPage("UNKNOWN_VERIFICATION"));
      return;
    }
    const outcome = ended.get(verification.sessionId) ?? (await outcomeFromApi(verification.sessionId));
    send(res, 200, outcomePage(outcome));
  }

  /** The browser can come back before the webhook: the API has the outcome already. */
  async function outcomeFromApi(sessionId: string): Promise<Outcome> {
    const session = await client.waitForOutcome(sessionId, { timeoutMs: 10_000, intervalMs: 250 });
    const dataBlocks = await client.getDataBlocks(sessionId);
    return {
      sessionId,
      sessionStatus: session.sessionStatus,
      decision: decisionOf(session),
      dataBlocks,
      webhookId: undefined,
    };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", url).pathname;
    const request = `${req.method ?? ""} ${path}`;
    if (path === WEBHOOK_PATH)
      await webhooks(req, res); // any method: the handler answers 405 to all but POST
    else if (request === "GET /") home(req, res);
    else if (request === "POST /verify") await startVerification(req, res);
    else if (request === `GET ${RETURN_PATH}`) await returned(req, res);
    else if (request === "GET /seen.json") sendJson(res, seen);
    else send(res, 404, problemPage("Not found", `Nothing at ${path}.`));
  }

  return {
    handle: (req, res) => {
      route(req, res).catch((error: unknown) => {
        console.error("web example:", error);
        if (!res.headersSent)
          send(res, 500, problemPage("Something went wrong", "The server failed; its log says why."));
        else res.destroy();
      });
    },
    drain: () => webhooks.drain(),
  };
}

function subjectOf(req: IncomingMessage): string | undefined {
  return /(?:^|;\s*)subject=(user-[0-9a-f]{12})(?:;|$)/.exec(req.headers.cookie ?? "")?.[1];
}

/** A form body; undefined past 16 KiB (read to its end, so the answer still reaches the browser, but not kept). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= 16_384) chunks.push(chunk);
  }
  return size <= 16_384 ? new URLSearchParams(Buffer.concat(chunks).toString("utf8")) : undefined;
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location }).end();
}

function sendJson(res: ServerResponse, value: unknown): void {
  res
    .writeHead(200, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify(value, null, 2));
}
