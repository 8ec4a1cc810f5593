/**
 * What a job holds in Redis, and its id. Only what a worker needs: the
 * webhook-id, whether the delivery was verified, and the event's known
 * fields, each of a bounded length; a delivery's other fields never reach
 * Redis, so what an unsigned sender puts in a body is not kept for days.
 *
 * The job id is the webhook-id, so BullMQ drops a copy of a delivery while
 * its job exists; unverified deliveries (allowUnsigned) have ids of their
 * own namespace, so that one can never claim a verified delivery's id.
 */
import { createHash } from "node:crypto";
import { WebhookError, WebhookPayloadError, type QueuedDelivery, type SessionEndedEvent } from "@flowsmith/runtime";

export interface JobData {
  readonly webhookId: string | undefined;
  readonly verified: boolean;
  readonly event: SessionEndedEvent;
}

/**
 * The longest id or timestamp a job keeps. The service's ids and ISO 8601
 * timestamps are far shorter; a longer one is not an event this queue can
 * use, so it is refused (400) rather than stored.
 */
export const MAX_STORED_FIELD_LENGTH = 256;

/** The job's data for a delivery; a WebhookError (400, the sender does not retry it) for a field longer than a job keeps. */
export function jobDataOrThrow({ webhookId, verified, event }: QueuedDelivery): JobData {
  const { type, timestamp, data } = event;
  const { sessionId, flowId, environment, decision } = data;
  if (webhookId !== undefined && webhookId.length > MAX_STORED_FIELD_LENGTH) {
    throw new WebhookError(
      "INVALID_WEBHOOK_PAYLOAD",
      `Webhook delivery refused: its webhook-id is longer than ${MAX_STORED_FIELD_LENGTH} characters, more than the queue keeps`,
      400,
    );
  }
  for (const [path, value] of [
    ["timestamp", timestamp],
    ["data.sessionId", sessionId],
    ["data.flowId", flowId],
  ] as const) {
    if (value.length > MAX_STORED_FIELD_LENGTH)
      throw new WebhookPayloadError(
        path,
        `longer than ${MAX_STORED_FIELD_LENGTH} characters, more than the queue keeps`,
      );
  }
  return { webhookId, verified, event: { type, timestamp, data: { sessionId, flowId, environment, decision } } };
}

const VERIFIED = "webhook";
const UNVERIFIED = "unverified";

/**
 * BullMQ refuses ids that are integers or hold ":"; a webhook-id of letters,
 * digits, "_", "-" and "." is kept readable, any other hashed.
 */
export function jobIdOf(webhookId: string, verified: boolean): string {
  const namespace = verified ? VERIFIED : UNVERIFIED;
  return /^[\w.-]{1,128}$/.test(webhookId)
    ? `${namespace}_${webhookId}`
    : `${namespace}-sha256_${createHash("sha256").update(webhookId).digest("hex")}`;
}

/** The webhook-id a job id was made of, when it is readable there (for a job whose data is gone). */
export function webhookIdOfJobId(jobId: string | undefined): string | undefined {
  const match = jobId === undefined ? null : /^(?:webhook|unverified)_([\w.-]{1,128})$/.exec(jobId);
  return match?.[1];
}

/** A job's data as a worker reads it back; undefined when Redis no longer has it (evicted, deleted). */
export function storedJobDataOf(data: unknown): JobData | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { event } = data as { event?: unknown };
  return typeof event === "object" && event !== null ? (data as JobData) : undefined;
}
