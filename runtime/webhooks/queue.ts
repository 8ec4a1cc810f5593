/**
 * The webhook queue seam (docs/many-instances.md): createWebhookHandler
 * with a `queue` verifies a delivery, hands it to the queue, and answers 2xx
 * only once the queue has stored it; workers of the queue, in any process,
 * then read the session (readSessionEnded, session-ended.ts) and call the
 * backend's callback, with retries. Without a queue the handler processes
 * each delivery itself, in its own process, after answering.
 * `@flowsmith/redis` has a queue on Redis (BullMQ).
 */
import type { SessionEndedEvent } from "./event.js";

/** A session.ended delivery, as the handler hands it over once it passed every check. */
export interface QueuedDelivery {
  /** The delivery's webhook-id: every retry of an event keeps it, so a queue stores an event once by it. */
  readonly webhookId: string | undefined;
  /**
   * true when its signature was verified against the handler's secret; false
   * with allowUnsigned. A queue keeps the two apart (their webhook-ids in
   * separate namespaces), so an unsigned delivery can never claim a signed
   * one's webhook-id and have it dropped as a copy.
   */
  readonly verified: boolean;
  /** The event as parsed: a queue stores its known fields only (SessionEndedEvent), never the rest of the body. */
  readonly event: SessionEndedEvent;
}

/**
 * Where a webhook handler with a `queue` stores accepted deliveries, so that
 * any process's workers handle them (`@flowsmith/redis`'s createWebhookQueue).
 */
export interface WebhookQueue {
  /**
   * Resolves once the delivery is stored durably (or was already: a
   * duplicate), and only then is the delivery answered 204. Rejects when it
   * cannot be stored, within a bounded time: the delivery is answered 503
   * and the sender retries it; a WebhookError it rejects with (a delivery
   * it will never store) is answered with that error's own status.
   */
  enqueue(delivery: QueuedDelivery): Promise<void>;
}
