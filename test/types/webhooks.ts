/**
 * Type-level tests of the webhook handler, waitForOutcome and the redirect
 * state helpers. Compiled by `tsc -p tsconfig.json` and by
 * test/generator/emit-type-tests.test.ts; never run. Each `@ts-expect-error`
 * must meet an error.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  createRedirectState,
  createWebhookHandler,
  parseSessionEndedEvent,
  RedirectStateError,
  stateFromReturnUrl,
  verifyRedirectState,
  webhookSecretProblem,
  type Client,
  type Decision,
  type RedirectStateErrorCode,
  type SessionEnded,
  type SessionRecord,
  type WebhookErrorCode,
} from "../../runtime/index.js";

declare const staging: Client<"staging">;
declare const live: Client<"live">;

// The handler is a node:http request listener.
const handler = createWebhookHandler({
  client: staging,
  secret: "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  onSessionEnded: () => undefined,
});
// eslint-disable-next-line @typescript-eslint/no-misused-promises -- the point: it fits where node:http takes a listener (it never rejects)
createServer(handler);
export const listener: (req: IncomingMessage, res: ServerResponse) => Promise<void> = handler;
export const drained: Promise<void> = handler.drain();

// Express-shaped requests (a body already attached) fit; so does a client of either environment.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Express types req.body as any: the shape under test
declare const expressRequest: IncomingMessage & { body: any; params: Record<string, string> };
declare const res: ServerResponse;
void handler(expressRequest, res);
createWebhookHandler({
  client: live,
  secret: "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  onSessionEnded: async () => {},
});

// A secret, or an opt-out by name: an unset environment variable (string | undefined) is neither.
declare const fromEnvironment: string | undefined;
// @ts-expect-error no secret and no opt-out: deliveries would be taken unsigned without a word
createWebhookHandler({ client: staging, onSessionEnded: () => undefined });
// @ts-expect-error an environment variable may be unset: check it at start (then it is a string)
createWebhookHandler({ client: staging, secret: fromEnvironment, onSessionEnded: () => undefined });
// @ts-expect-error a secret given as undefined is still none
createWebhookHandler({ client: staging, secret: undefined, onSessionEnded: () => undefined });
if (fromEnvironment)
  createWebhookHandler({ client: staging, secret: fromEnvironment, onSessionEnded: () => undefined });
createWebhookHandler({ client: staging, allowUnsigned: true, onSessionEnded: () => undefined });
// @ts-expect-error the opt-out is true by name, not a flag that may be false
createWebhookHandler({ client: staging, allowUnsigned: false, onSessionEnded: () => undefined });
declare const unsignedFlag: boolean;
// @ts-expect-error nor a boolean computed somewhere: a secret, or allowUnsigned: true
createWebhookHandler({ client: staging, allowUnsigned: unsignedFlag, onSessionEnded: () => undefined });
// @ts-expect-error a secret and the opt-out contradict each other
createWebhookHandler({
  client: staging,
  secret: "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  allowUnsigned: true,
  onSessionEnded: () => undefined,
});

// What the callback receives is what the API said.
createWebhookHandler({
  client: staging,
  allowUnsigned: true,
  onSessionEnded: (ended: SessionEnded) => {
    const subject: string = ended.session.metadata.subjectId;
    const decision: Decision | undefined = ended.decision;
    // @ts-expect-error the decision may be unknown (an outcome of another shape): narrow it first
    const certain: Decision = ended.decision;
    // @ts-expect-error nothing of the delivery's body is passed on
    void ended.event;
    void [subject, decision, certain];
  },
  onError: (error: unknown, delivery) => {
    const status: number = delivery.status;
    const id: string | undefined = delivery.webhookId;
    void [error, status, id];
  },
});

// @ts-expect-error onSessionEnded is required
createWebhookHandler({ client: staging });
// @ts-expect-error a client is required
createWebhookHandler({ onSessionEnded: () => undefined });
// @ts-expect-error the secret is a string (or several), not bytes
createWebhookHandler({ client: staging, onSessionEnded: () => undefined, secret: new Uint8Array(32) });
// @ts-expect-error unknown options are typos
createWebhookHandler({ client: staging, onSessionEnded: () => undefined, maxBody: 10 });

// A secret from configuration, checked at startup: what is wrong with it, or undefined.
export const secretProblem: string | undefined = webhookSecretProblem(process.env["WEBHOOK_SECRET"]);
// @ts-expect-error a fit secret has no problem: the answer may be undefined
export const alwaysProblem: string = webhookSecretProblem("whsec_...");

// The parser's result is the typed event.
const event = parseSessionEndedEvent("{}");
export const eventDecision: "ACCEPTED" | "REJECTED" = event.data.decision;
export const eventEnvironment: "staging" | "live" = event.data.environment;
// @ts-expect-error the event is read-only
event.data.decision = "ACCEPTED";

export const codes: WebhookErrorCode[] = ["WEBHOOK_SIGNATURE_INVALID", "WEBHOOK_BODY_TOO_LARGE"];
// @ts-expect-error not a webhook error code
export const badCode: WebhookErrorCode = "SIGNATURE_BAD";

// waitForOutcome
export const outcome: Promise<SessionRecord> = staging.waitForOutcome("s-1", {
  timeoutMs: 1_000,
  intervalMs: 100,
  signal: AbortSignal.timeout(5),
});
// @ts-expect-error the session id is a string
void staging.waitForOutcome(42);
// @ts-expect-error unknown options are typos
void staging.waitForOutcome("s-1", { timeout: 1_000 });

// Redirect state: asynchronous (Web Crypto's HMAC, the same on every platform).
export async function redirectState(): Promise<[Date, string | undefined]> {
  const state: string = await createRedirectState({
    secret: "x".repeat(32),
    subjectId: "cust-42",
    ttlMs: 600_000,
    data: "/back",
  });
  const verified = await verifyRedirectState({
    secret: ["old".repeat(11), "new".repeat(11)],
    subjectId: "cust-42",
    state,
  });
  const expiresAt: Date = verified.expiresAt;
  const data: string | undefined = verified.data;
  // @ts-expect-error a promise, not the state: await it
  const notAwaited: string = createRedirectState({ secret: "x".repeat(32), subjectId: "cust-42", ttlMs: 600_000 });
  const pending = verifyRedirectState({ secret: "x".repeat(32), subjectId: "cust-42", state });
  // @ts-expect-error a promise, not the verified state: await it
  void pending.expiresAt;
  void [notAwaited, await pending];
  return [expiresAt, data];
}
export const fromUrl: string =
  stateFromReturnUrl(new URL("https://app.example/return?state=x")) + stateFromReturnUrl("/return?state=x");
// @ts-expect-error a state is bound to a subject: subjectId is required
void verifyRedirectState({ secret: "x".repeat(32), state: "s" });
// @ts-expect-error ttlMs is required: every state expires
void createRedirectState({ secret: "x".repeat(32), subjectId: "cust-42" });
// @ts-expect-error the URL is a string or a URL
stateFromReturnUrl({ url: "/return" });

export function codeOf(error: unknown): RedirectStateErrorCode | undefined {
  return error instanceof RedirectStateError ? error.code : undefined;
}
// @ts-expect-error not a redirect state code
export const badStateCode: RedirectStateErrorCode = "EXPIRED";
