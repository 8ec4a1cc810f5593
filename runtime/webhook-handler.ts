/**
 * createWebhookHandler: a `(req, res)` handler for node:http (and Express,
 * Fastify) that receives the service's session.ended webhook and hands the
 * backend what the API says about the session. The reference does not say
 * how deliveries are authenticated (docs/service.md 6), so a delivery is only
 * a hint: the outcome and data blocks passed on are read from the API.
 * With a `queue` (webhook-queue.ts) it stores the delivery there instead of
 * processing it, and answers 2xx only once the queue has it.
 */
import type { ServerResponse } from "node:http";
import type { Client } from "./client.js";
import { ConfigurationError } from "./errors.js";
import type { DataBlocks, SessionRecord } from "./resources.js";
import { ExpiringSet } from "./expiring-set.js";
import { isRecord } from "./json.js";
import { readDeliveryBodyOrThrow, type DeliveryBody, type WebhookRequest } from "./webhook-body.js";
import { WebhookError } from "./webhook-errors.js";
import { readSessionEnded } from "./session-ended.js";
import { parseSessionEndedEvent, parseWebhookJsonOrThrow, type Decision, type SessionEndedEvent } from "./webhook-event.js";
import type { WebhookQueue } from "./webhook-queue.js";
import { SignatureVerifier } from "./webhook-signature.js";

export type { WebhookRequest } from "./webhook-body.js";

/** What the handler needs of a client: createClient's result fits. */
export type WebhookClient = Pick<Client, "environment" | "waitForOutcome" | "getDataBlocks">;

/** What onSessionEnded receives: all of it read from the API, none of it from the delivery's body. */
export interface SessionEnded {
  readonly sessionId: string;
  /** The delivery's webhook-id (absent only without a secret, when the sender sent none). */
  readonly webhookId: string | undefined;
  /** GET session: sessionStatus, outcome, metadata (metadata.subjectId is your reference). */
  readonly session: SessionRecord;
  /** The outcome's decision; undefined when the outcome has a shape the runtime does not know (read `session.outcome`). */
  readonly decision: Decision | undefined;
  /** GET datablocks. */
  readonly dataBlocks: DataBlocks;
}

/** Which delivery an onError call is about. */
export interface WebhookDelivery {
  readonly webhookId: string | undefined;
  /** Known once the body was parsed. */
  readonly sessionId: string | undefined;
  /** The status the delivery was answered with: 2xx means accepted and then lost, so recover it yourself. */
  readonly status: number;
}

export interface WebhookHandlerOptions {
  /** Reads the outcome and data blocks; its environment must be the webhook's. */
  readonly client: WebhookClient;
  /** Called once per accepted session.ended delivery, after the answer. */
  readonly onSessionEnded: (ended: SessionEnded) => void | Promise<void>;
  /** With onSessionEnded, none: see QueuedWebhookHandlerOptions. */
  readonly queue?: undefined;
  /** Standard Webhooks secret(s) ("whsec_" + base64 of at least 32 random bytes); several while rotating. Without one, deliveries are not authenticated. */
  readonly secret?: string | readonly string[];
  /** Every delivery not handled: refused ones (4xx/5xx) and accepted ones whose API read or callback failed. Default: one line on console.error. */
  readonly onError?: (error: unknown, delivery: WebhookDelivery) => void | Promise<void>;
  /** Larger bodies get 413. Default 65536. */
  readonly maxBodyBytes?: number;
  /** Delivery ids remembered to drop duplicates. Default { maxEntries: 10000, ttlMs: 86400000 }. */
  readonly dedupe?: { readonly maxEntries?: number; readonly ttlMs?: number };
  /** Deliveries processed at once; beyond it 503 (the sender retries). Default 100. */
  readonly maxInFlight?: number;
  /** How long the API may take to show the outcome the webhook announced. Default 30000. */
  readonly outcomeTimeoutMs?: number;
  /** GET session interval while waiting for it. Default 1000. */
  readonly outcomePollIntervalMs?: number;
  /** Clock of the duplicate memory, in ms. Default Date.now. */
  readonly now?: () => number;
}

/** Deliveries handed to a queue, whose workers (in any process) call their own onSessionEnded. */
export interface QueuedWebhookHandlerOptions extends Omit<WebhookHandlerOptions, "onSessionEnded" | "queue"> {
  /** Where accepted deliveries go (`@flowsmith/redis`'s createWebhookQueue): answered 204 once it has them, 503 when it cannot take them. */
  readonly queue: WebhookQueue;
  /** The queue's workers call it, not the handler. */
  readonly onSessionEnded?: undefined;
}

export interface WebhookHandler {
  /** Answers the delivery, then processes it (with a queue: stores it there, then answers); never rejects. */
  (req: WebhookRequest, res: ServerResponse): Promise<void>;
  /** Resolves when every accepted delivery has been processed (before shutting down; in tests). */
  drain(): Promise<void>;
}

export const WEBHOOK_DEFAULTS = {
  maxBodyBytes: 65_536,
  dedupe: { maxEntries: 10_000, ttlMs: 86_400_000 },
  maxInFlight: 100,
  outcomeTimeoutMs: 30_000,
  outcomePollIntervalMs: 1_000,
} as const;

/** After a 413 the connection is closed, once the answer had time to reach the sender. */
const LINGER_MS = 500;

export function createWebhookHandler(options: WebhookHandlerOptions | QueuedWebhookHandlerOptions): WebhookHandler {
  const resolved = resolveOptionsOrThrow(options);
  const seen = new ExpiringSet(resolved.dedupe.maxEntries, resolved.dedupe.ttlMs, resolved.now);
  const pending = new Set<Promise<void>>();
  let processing = 0;

  const track = (work: Promise<void>): void => {
    const settled = work.finally(() => pending.delete(settled));
    pending.add(settled);
  };

  const report = async (error: unknown, delivery: WebhookDelivery): Promise<void> => {
    try {
      await resolved.onError(error, delivery);
    } catch (failure) {
      logError(failure, delivery, "onError threw");
    }
  };

  /** The API is the source of truth: the event only names the session. */
  const processDelivery = async (
    onSessionEnded: (ended: SessionEnded) => void | Promise<void>,
    event: SessionEndedEvent,
    webhookId: string | undefined,
  ): Promise<void> => {
    const { sessionId } = event.data;
    processing += 1;
    try {
      const wait = { timeoutMs: resolved.outcomeTimeoutMs, intervalMs: resolved.outcomePollIntervalMs };
      await onSessionEnded(await readSessionEnded(resolved.client, sessionId, webhookId, wait));
    } catch (error) {
      await report(error, { webhookId, sessionId, status: 204 });
    } finally {
      processing -= 1;
    }
  };

  const handle = async (req: WebhookRequest, res: ServerResponse): Promise<void> => {
    const webhookId = headerOf(req, "webhook-id");
    let sessionId: string | undefined;
    try {
      if (req.method !== "POST") throw methodNotAllowed(req.method);
      const body = await readDeliveryBodyOrThrow(req, resolved.maxBodyBytes);
      const payload = authenticPayloadOrThrow(body, req, resolved.verifier);
      // Standard Webhooks: a retry keeps its webhook-id, and a receiver acknowledges it again.
      if (webhookId !== undefined && seen.has(webhookId)) {
        answer(res, 204);
        return;
      }
      // The reference lists no event kinds; others may come, and acknowledging them stops retries.
      if (isOtherEvent(payload)) {
        answer(res, 204);
        return;
      }
      const event = parseSessionEndedEvent(payload);
      sessionId = event.data.sessionId;
      if (event.data.environment !== resolved.client.environment) throw environmentMismatch(event, resolved.client.environment);
      const { processor } = resolved;
      if ("queue" in processor) {
        // Remembered, and acknowledged, only once the queue has it: a 503 makes the sender retry.
        await enqueueOrThrow(processor.queue, { webhookId, event });
        if (webhookId !== undefined) seen.add(webhookId);
        answer(res, 204);
        return;
      }
      if (processing >= resolved.maxInFlight) throw busy(resolved.maxInFlight);
      if (webhookId !== undefined) seen.add(webhookId);
      answer(res, 204);
      track(processDelivery(processor.onSessionEnded, event, webhookId));
    } catch (error) {
      const status = error instanceof WebhookError ? error.status : 500;
      refuse(req, res, status, error);
      track(report(error, { webhookId, sessionId, status }));
    }
  };

  const handler = ((req: WebhookRequest, res: ServerResponse) => handle(req, res)) as WebhookHandler;
  handler.drain = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
  return handler;
}

/** The delivery's JSON, once the signature (when a secret is set) says it came from the secret's holder. */
function authenticPayloadOrThrow(body: DeliveryBody, req: WebhookRequest, verifier: SignatureVerifier | undefined): unknown {
  if (body.kind === "parsed") {
    if (verifier) {
      throw new WebhookError(
        "WEBHOOK_BODY_ALREADY_PARSED",
        "Webhook body already parsed by a framework, so the signed bytes are gone: give the handler the raw body " +
          '(Express: express.raw({ type: "application/json" }) on this route; Fastify: a parseAs: "buffer" content-type parser)',
        500,
      );
    }
    return body.value;
  }
  verifier?.verifyOrThrow(body.text, req.headers);
  return parseWebhookJsonOrThrow(body.text);
}

function isOtherEvent(payload: unknown): boolean {
  const type = typeof payload === "object" && payload !== null ? (payload as { type?: unknown }).type : undefined;
  return typeof type === "string" && type !== "session.ended";
}

function answer(res: ServerResponse, status: number, error?: unknown): void {
  if (res.headersSent || res.writableEnded) return;
  if (error === undefined) {
    res.writeHead(status).end();
    return;
  }
  const { code, message } = error instanceof WebhookError ? error : { code: "WEBHOOK_HANDLER_FAILED", message: "The webhook handler failed" };
  const text = JSON.stringify({ code, message });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}

/** Answers a refused delivery; a body cut short (413) is not waited for: the connection closes after the answer. */
function refuse(req: WebhookRequest, res: ServerResponse, status: number, error: unknown): void {
  if (status === 405) res.setHeader("allow", "POST");
  if (!req.complete && !res.headersSent) {
    res.setHeader("connection", "close");
    res.once("finish", () => setTimeout(() => req.socket.destroy(), LINGER_MS).unref());
  }
  answer(res, status, error);
}

function headerOf(req: WebhookRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function methodNotAllowed(method: string | undefined): WebhookError {
  return new WebhookError("WEBHOOK_METHOD_NOT_ALLOWED", `Webhook deliveries are POST requests, got ${method ?? "no method"}`, 405);
}

function environmentMismatch(event: SessionEndedEvent, environment: string): WebhookError {
  return new WebhookError(
    "WEBHOOK_ENVIRONMENT_MISMATCH",
    `Webhook for a ${event.data.environment} session reached a handler whose client is ${environment}: ` +
      "webhooks and API clients are per environment (docs/service.md 1); point this environment's webhook at a handler with its own client",
    400,
  );
}

function busy(maxInFlight: number): WebhookError {
  return new WebhookError("WEBHOOK_BUSY", `Webhook delivery deferred: ${maxInFlight} deliveries are being processed (maxInFlight); the sender retries`, 503);
}

async function enqueueOrThrow(queue: WebhookQueue, delivery: Parameters<WebhookQueue["enqueue"]>[0]): Promise<void> {
  try {
    await queue.enqueue(delivery);
  } catch (cause) {
    throw new WebhookError(
      "WEBHOOK_QUEUE_UNAVAILABLE",
      "Webhook delivery deferred: the queue could not store it (error.cause says why); answered 503, so the sender retries",
      503,
      { cause },
    );
  }
}

function logError(error: unknown, delivery: WebhookDelivery, what: string): void {
  const detail = error instanceof Error ? `${error.name}${"code" in error ? ` ${String(error.code)}` : ""}: ${error.message}` : String(error);
  const ids = [delivery.webhookId && `webhook-id ${delivery.webhookId}`, delivery.sessionId && `session ${delivery.sessionId}`].filter(Boolean);
  console.error(`flowsmith webhook (${[...ids, `answered ${delivery.status}`].join(", ")}): ${what}: ${detail}`);
}

interface ResolvedWebhookOptions {
  readonly client: WebhookClient;
  /** Who processes an accepted delivery: this process, or the queue's workers. */
  readonly processor: { readonly onSessionEnded: (ended: SessionEnded) => void | Promise<void> } | { readonly queue: WebhookQueue };
  readonly onError: NonNullable<WebhookHandlerOptions["onError"]>;
  readonly verifier: SignatureVerifier | undefined;
  readonly maxBodyBytes: number;
  readonly dedupe: { readonly maxEntries: number; readonly ttlMs: number };
  readonly maxInFlight: number;
  readonly outcomeTimeoutMs: number;
  readonly outcomePollIntervalMs: number;
  readonly now: () => number;
}

/** `given` as JavaScript callers may pass it: absent, or with any field missing or of the wrong kind. */
function resolveOptionsOrThrow(given: WebhookHandlerOptions | QueuedWebhookHandlerOptions | undefined): ResolvedWebhookOptions {
  const options: Partial<WebhookHandlerOptions | QueuedWebhookHandlerOptions> = given ?? {};
  const { client, onSessionEnded, queue, onError } = options;
  if (
    !isRecord(client) ||
    typeof client.waitForOutcome !== "function" || typeof client.getDataBlocks !== "function" || typeof client.environment !== "string"
  ) {
    throw new ConfigurationError("createWebhookHandler: client must be a client from createClient()");
  }
  const processor = processorOrThrow(onSessionEnded, queue);
  if (onError !== undefined && typeof onError !== "function") throw new ConfigurationError("createWebhookHandler: onError must be a function");
  if (options.now !== undefined && typeof options.now !== "function") throw new ConfigurationError("createWebhookHandler: now must be a function");
  return {
    client,
    processor,
    onError:
      onError ??
      ((error, delivery) => {
        logError(error, delivery, "not handled");
      }),
    verifier: options.secret === undefined ? undefined : new SignatureVerifier(options.secret),
    maxBodyBytes: positiveIntegerOrThrow("maxBodyBytes", options.maxBodyBytes ?? WEBHOOK_DEFAULTS.maxBodyBytes),
    dedupe: {
      maxEntries: positiveIntegerOrThrow("dedupe.maxEntries", options.dedupe?.maxEntries ?? WEBHOOK_DEFAULTS.dedupe.maxEntries),
      ttlMs: positiveIntegerOrThrow("dedupe.ttlMs", options.dedupe?.ttlMs ?? WEBHOOK_DEFAULTS.dedupe.ttlMs),
    },
    maxInFlight: positiveIntegerOrThrow("maxInFlight", options.maxInFlight ?? WEBHOOK_DEFAULTS.maxInFlight),
    outcomeTimeoutMs: positiveIntegerOrThrow("outcomeTimeoutMs", options.outcomeTimeoutMs ?? WEBHOOK_DEFAULTS.outcomeTimeoutMs),
    outcomePollIntervalMs: positiveIntegerOrThrow(
      "outcomePollIntervalMs",
      options.outcomePollIntervalMs ?? WEBHOOK_DEFAULTS.outcomePollIntervalMs,
    ),
    now: options.now ?? Date.now,
  };
}

function processorOrThrow(onSessionEnded: unknown, queue: unknown): ResolvedWebhookOptions["processor"] {
  if (onSessionEnded !== undefined && queue !== undefined) {
    throw new ConfigurationError("createWebhookHandler: give onSessionEnded or queue, not both (with a queue, its workers call their own onSessionEnded)");
  }
  if (queue !== undefined) {
    if (!isRecord(queue) || typeof queue.enqueue !== "function") throw new ConfigurationError("createWebhookHandler: queue must have an enqueue(delivery) method");
    return { queue: queue as unknown as WebhookQueue };
  }
  if (typeof onSessionEnded !== "function") throw new ConfigurationError("createWebhookHandler: onSessionEnded must be a function (or give a queue)");
  return { onSessionEnded: onSessionEnded as (ended: SessionEnded) => void | Promise<void> };
}

function positiveIntegerOrThrow(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(`createWebhookHandler: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
