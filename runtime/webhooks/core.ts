/**
 * What the webhook handler does with a delivery, whichever server it came
 * through (node:http or a Fetch-API server, handler.ts): read the
 * body, verify it, drop a duplicate, then hand the event on, and say which
 * status to answer. Handing on is one step (`handOn`): without a queue the
 * event is processed in this process after the answer; with one
 * (queue.ts) the delivery is answered only once the queue has it.
 */
import { ExpiringSet } from "./expiring-set.js";
import type { DeliveryBody } from "./body.js";
import { WebhookError } from "./errors.js";
import { readSessionEnded } from "./session-ended.js";
import { parseSessionEndedEvent, parseWebhookJsonOrThrow, type SessionEndedEvent } from "./event.js";
import {
  logWebhookError,
  type ResolvedWebhookOptions,
  type WebhookDelivery,
  type WebhookHandlerOptions,
} from "./options.js";
import type { QueuedDelivery, WebhookQueue } from "./queue.js";
import type { DeliveryHeaders, SignatureVerifier } from "./signature.js";

/** A delivery as a front hands it over. */
export interface IncomingDelivery {
  readonly method: string | undefined;
  /** Lower-case names. */
  readonly headers: DeliveryHeaders;
  /** Reads the body, refusing more than maxBytes (a WebhookError, 413). */
  readonly readBody: (maxBytes: number) => Promise<DeliveryBody>;
}

/** The answer to give: a status, and for a refusal the error its JSON body names. */
export interface Verdict {
  readonly status: number;
  readonly error?: unknown;
}

const ACCEPTED: Verdict = Object.freeze({ status: 204 });

export class WebhookCore {
  private readonly seen: ExpiringSet;
  private readonly pending = new Set<Promise<void>>();
  private processing = 0;

  constructor(private readonly options: ResolvedWebhookOptions) {
    this.seen = new ExpiringSet(options.dedupe.maxEntries, options.dedupe.ttlMs, options.now);
  }

  /** verify, de-duplicate, hand on; never rejects. */
  async receive(delivery: IncomingDelivery): Promise<Verdict> {
    const webhookId = headerOf(delivery.headers, "webhook-id");
    let sessionId: string | undefined;
    try {
      if (delivery.method !== "POST") throw methodNotAllowed(delivery.method);
      const body = await delivery.readBody(this.options.maxBodyBytes);
      const payload = await authenticPayloadOrThrow(body, delivery.headers, this.options.verifier);
      // Standard Webhooks: a retry keeps its webhook-id, and a receiver acknowledges it again.
      if (webhookId !== undefined && this.seen.has(this.seenKey(webhookId))) return ACCEPTED;
      // The reference lists no event kinds; others may come, and acknowledging them stops retries.
      if (isOtherEvent(payload)) return ACCEPTED;
      const event = parseSessionEndedEvent(payload);
      sessionId = event.data.sessionId;
      const environment = this.options.client.environment;
      if (event.data.environment !== environment) throw environmentMismatch(event, environment);
      await this.handOn(event, webhookId);
      return ACCEPTED;
    } catch (error) {
      const status = error instanceof WebhookError ? error.status : 500;
      this.track(this.report(error, { webhookId, sessionId, status }));
      return { status, error };
    }
  }

  /** Resolves when every accepted delivery has been processed. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * The event goes on, and its webhook-id is remembered; the delivery is
   * answered 2xx once this resolves. With a queue: once the queue has stored
   * it (a 503 WebhookError when it cannot, and then it is not remembered, so
   * the sender's retry is taken). Without: processed here, in the background,
   * once the sender has its 2xx (a 503 beyond maxInFlight).
   */
  private async handOn(event: SessionEndedEvent, webhookId: string | undefined): Promise<void> {
    const { processor, maxInFlight } = this.options;
    if ("queue" in processor) {
      await enqueueOrThrow(processor.queue, { webhookId, verified: this.options.verifier !== undefined, event });
      if (webhookId !== undefined) this.seen.add(this.seenKey(webhookId));
      return;
    }
    if (this.processing >= maxInFlight) throw busy(maxInFlight);
    // Before anything is awaited: a duplicate read meanwhile is dropped.
    if (webhookId !== undefined) this.seen.add(this.seenKey(webhookId));
    this.track(this.process(processor.onSessionEnded, event, webhookId));
  }

  /** The API is the source of truth: the event only names the session. */
  private async process(
    onSessionEnded: WebhookHandlerOptions["onSessionEnded"],
    event: SessionEndedEvent,
    webhookId: string | undefined,
  ): Promise<void> {
    const { sessionId } = event.data;
    const { client, outcomeTimeoutMs, outcomePollIntervalMs } = this.options;
    this.processing += 1;
    try {
      await onSessionEnded(
        await readSessionEnded(client, sessionId, webhookId, {
          timeoutMs: outcomeTimeoutMs,
          intervalMs: outcomePollIntervalMs,
        }),
      );
    } catch (error) {
      await this.report(error, { webhookId, sessionId, status: 204 });
    } finally {
      this.processing -= 1;
    }
  }

  /**
   * A webhook-id as remembered: an unsigned delivery's (allowUnsigned) in a
   * namespace of its own, so that it can never stand for a signed one's.
   */
  private seenKey(webhookId: string): string {
    return `${this.options.verifier === undefined ? "unverified" : "verified"}:${webhookId}`;
  }

  private track(work: Promise<void>): void {
    const settled = work.finally(() => this.pending.delete(settled));
    this.pending.add(settled);
  }

  private async report(error: unknown, delivery: WebhookDelivery): Promise<void> {
    const { onError, redactor } = this.options;
    try {
      await onError(redactor.error(error), delivery);
    } catch (failure) {
      logWebhookError(redactor.error(failure), delivery, "onError threw");
    }
  }
}

/** The delivery's JSON, once the signature (when a secret is set) says it came from the secret's holder. */
async function authenticPayloadOrThrow(
  body: DeliveryBody,
  headers: DeliveryHeaders,
  verifier: SignatureVerifier | undefined,
): Promise<unknown> {
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
  await verifier?.verifyOrThrow(body.text, headers);
  return parseWebhookJsonOrThrow(body.text);
}

function isOtherEvent(payload: unknown): boolean {
  const type = typeof payload === "object" && payload !== null ? (payload as { type?: unknown }).type : undefined;
  return typeof type === "string" && type !== "session.ended";
}

function headerOf(headers: DeliveryHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function methodNotAllowed(method: string | undefined): WebhookError {
  return new WebhookError(
    "WEBHOOK_METHOD_NOT_ALLOWED",
    `Webhook deliveries are POST requests, got ${method ?? "no method"}`,
    405,
  );
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
  return new WebhookError(
    "WEBHOOK_BUSY",
    `Webhook delivery deferred: ${maxInFlight} deliveries are being processed (maxInFlight); the sender retries`,
    503,
  );
}

async function enqueueOrThrow(queue: WebhookQueue, delivery: QueuedDelivery): Promise<void> {
  try {
    await queue.enqueue(delivery);
  } catch (cause) {
    // The queue will never store this delivery (a field longer than it keeps): the sender must not retry it.
    if (cause instanceof WebhookError) throw cause;
    throw new WebhookError(
      "WEBHOOK_QUEUE_UNAVAILABLE",
      "Webhook delivery deferred: the queue could not store it (error.cause says why); answered 503, so the sender retries",
      503,
      { cause },
    );
  }
}
