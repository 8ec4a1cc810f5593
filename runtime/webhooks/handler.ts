/**
 * createWebhookHandler: receives the service's session.ended webhook and
 * hands the backend what the API says about the session. Two fronts on one
 * core (core.ts): a `(req, res)` handler for node:http (and Express,
 * Fastify), and `handler.fetch`, `(request) => Promise<Response>`, for
 * Fetch-API servers. The reference does not say how deliveries are
 * authenticated (docs/service.md 6), so a delivery is only a hint: the
 * outcome and data blocks passed on are read from the API.
 * With a `queue` (queue.ts) it stores the delivery there instead of
 * processing it, and answers 2xx only once the queue has it.
 */
import { utf8Length } from "../bytes.js";
import { readDeliveryBodyOrThrow, readFetchBodyOrThrow, type WebhookRequest } from "./body.js";
import { WebhookCore, type Verdict } from "./core.js";
import { WebhookError } from "./errors.js";
import {
  resolveWebhookOptionsOrThrow,
  type QueuedWebhookHandlerOptions,
  type WebhookHandlerOptions,
} from "./options.js";

export type { WebhookRequest } from "./body.js";
export {
  WEBHOOK_DEFAULTS,
  type QueuedWebhookHandlerOptions,
  type SessionEnded,
  type WebhookClient,
  type WebhookDelivery,
  type WebhookHandlerOptions,
} from "./options.js";

/** What the handler does with node:http's ServerResponse (and Express's, Fastify's raw one): described by what it uses. */
export interface WebhookResponse {
  /** Whether an answer was started (then the handler writes none). */
  readonly headersSent: boolean;
  /** Whether the answer was ended. */
  readonly writableEnded: boolean;
  /** Starts the answer with its status and headers; `end` sends its text. */
  writeHead(
    status: number,
    headers?: Record<string, string | number>,
  ): {
    /** Ends the answer, with this text as its body. */
    end(text?: string): unknown;
  };
  /** Sets a header before the answer starts (`connection: close` after a 413). */
  setHeader(name: string, value: string): unknown;
  /** Called once the answer has been handed to the connection. */
  once(event: "finish", listener: () => void): unknown;
}

/**
 * What createWebhookHandler returns: a node:http handler `(req, res)`, with
 * `fetch` for Fetch-API servers and `drain()` for shutdown and tests.
 */
export interface WebhookHandler {
  /** node:http (Express, Fastify): answers the delivery, then processes it (with a queue: stores it there, then answers); never rejects. */
  (req: WebhookRequest, res: WebhookResponse): Promise<void>;
  /**
   * The same handler for Fetch-API servers (Bun.serve, Deno.serve, Hono,
   * Next.js route handlers): the same verification, de-duplication and
   * answers. Bound: pass `handler.fetch` as it is.
   */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Resolves when every accepted delivery has been processed (before shutting down; in tests). */
  drain(): Promise<void>;
}

/** After a 413 the connection is closed, once the answer had time to reach the sender. */
const LINGER_MS = 500;

/**
 * A webhook receiver for the service's `session.ended` deliveries: checks the
 * method, size, signature (Standard Webhooks, with a `secret`) and payload,
 * drops copies by `webhook-id`, answers 204 at once and then reads the
 * outcome through the client and calls `onSessionEnded` (or, with a
 * `queue`, stores the delivery there and answers once it is stored).
 * Without `secret` (and without `allowUnsigned: true`) it is a
 * ConfigurationError.
 */
export function createWebhookHandler(options: WebhookHandlerOptions | QueuedWebhookHandlerOptions): WebhookHandler {
  const core = new WebhookCore(resolveWebhookOptionsOrThrow(options));
  const handle = async (req: WebhookRequest, res: WebhookResponse): Promise<void> => {
    const verdict = await core.receive({
      method: req.method,
      headers: req.headers,
      readBody: (maxBytes) => readDeliveryBodyOrThrow(req, maxBytes),
    });
    if (verdict.error === undefined) answer(res, verdict.status);
    else refuse(req, res, verdict);
  };
  const fetch = async (request: Request): Promise<Response> => {
    const headers = Object.fromEntries(request.headers);
    const verdict = await core.receive({
      method: request.method,
      headers,
      readBody: (maxBytes) => readFetchBodyOrThrow(request, maxBytes),
    });
    return responseOf(verdict);
  };
  const handler = ((req: WebhookRequest, res: WebhookResponse) => handle(req, res)) as WebhookHandler & {
    fetch: WebhookHandler["fetch"];
  };
  Object.defineProperty(handler, "fetch", { value: fetch, enumerable: true });
  handler.drain = () => core.drain();
  return handler;
}

function answer(res: WebhookResponse, status: number, error?: unknown): void {
  if (res.headersSent || res.writableEnded) return;
  if (error === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = refusalText(error);
  res.writeHead(status, { "content-type": "application/json", "content-length": utf8Length(text) }).end(text);
}

/** Answers a refused delivery; a body cut short (413) is not waited for: the connection closes after the answer. */
function refuse(req: WebhookRequest, res: WebhookResponse, verdict: Verdict): void {
  if (verdict.status === 405) res.setHeader("allow", "POST");
  if (!req.complete && !res.headersSent) {
    res.setHeader("connection", "close");
    res.once("finish", () => {
      const timer: { unref?: () => void } | number = setTimeout(() => req.socket?.destroy(), LINGER_MS);
      // Node's timer would otherwise keep a process that is shutting down alive for LINGER_MS.
      if (typeof timer === "object") timer.unref?.();
    });
  }
  answer(res, verdict.status, verdict.error);
}

function responseOf(verdict: Verdict): Response {
  if (verdict.error === undefined) return new Response(null, { status: verdict.status });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (verdict.status === 405) headers.allow = "POST";
  return new Response(refusalText(verdict.error), { status: verdict.status, headers });
}

/** The refusal's JSON body: the WebhookError's code and message, never what an unexpected error says. */
function refusalText(error: unknown): string {
  const { code, message } =
    error instanceof WebhookError ? error : { code: "WEBHOOK_HANDLER_FAILED", message: "The webhook handler failed" };
  return JSON.stringify({ code, message });
}
