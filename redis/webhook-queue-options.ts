/**
 * createWebhookQueue's options as the queue works with them: checked (a
 * JavaScript caller gets a ConfigurationError naming the option, not a
 * TypeError later), with every default in one place.
 */
import { ConfigurationError, WEBHOOK_DEFAULTS, type SessionEnded, type WebhookClient } from "@flowsmith/runtime";
import { isRecord } from "@flowsmith/runtime/internal/json";
import { redisTargetOrThrow, type CheckedTarget } from "./connection.js";
import type { FailedDelivery, WebhookQueueOptions } from "./webhook-queue.js";

export const WEBHOOK_QUEUE_DEFAULTS = {
  name: "flowsmith-webhooks",
  prefix: "flowsmith",
  attempts: 8,
  backoffMs: 1_000,
  dedupe: { ttlMs: 86_400_000 },
  keepFailedMs: 7 * 86_400_000,
  enqueueTimeoutMs: 5_000,
  lockDurationMs: 30_000,
  outcomeTimeoutMs: WEBHOOK_DEFAULTS.outcomeTimeoutMs,
  outcomePollIntervalMs: WEBHOOK_DEFAULTS.outcomePollIntervalMs,
} as const;

export interface ResolvedQueueOptions {
  readonly target: CheckedTarget;
  readonly client: WebhookClient;
  readonly onSessionEnded: (ended: SessionEnded) => void | Promise<void>;
  readonly onError: (error: unknown, delivery: FailedDelivery | undefined) => void | Promise<void>;
  readonly name: string;
  readonly prefix: string;
  readonly attempts: number;
  readonly backoffMs: number;
  readonly dedupe: { readonly ttlMs: number; readonly maxEntries: number | undefined };
  readonly keepFailedMs: number;
  readonly enqueueTimeoutMs: number;
  readonly lockDurationMs: number;
  readonly outcomeTimeoutMs: number;
  readonly outcomePollIntervalMs: number;
}

const WHERE = "createWebhookQueue";

export function resolveQueueOptionsOrThrow(given: WebhookQueueOptions | undefined): ResolvedQueueOptions {
  const options: Partial<WebhookQueueOptions> = given ?? {};
  const { client, onSessionEnded, onError } = options;
  if (
    !isRecord(client) ||
    typeof client.waitForOutcome !== "function" || typeof client.getDataBlocks !== "function" || typeof client.environment !== "string"
  ) {
    throw new ConfigurationError(`${WHERE}: client must be a client from createClient()`);
  }
  if (typeof onSessionEnded !== "function") throw new ConfigurationError(`${WHERE}: onSessionEnded must be a function`);
  if (onError !== undefined && typeof onError !== "function") throw new ConfigurationError(`${WHERE}: onError must be a function`);
  const D = WEBHOOK_QUEUE_DEFAULTS;
  return {
    target: redisTargetOrThrow(options.connection, `${WHERE}: connection`),
    client,
    onSessionEnded,
    onError: onError ?? logError,
    name: nameOrThrow("name", options.name ?? D.name),
    prefix: nameOrThrow("prefix", options.prefix ?? D.prefix),
    attempts: positiveOrThrow("attempts", options.attempts ?? D.attempts),
    backoffMs: positiveOrThrow("backoffMs", options.backoffMs ?? D.backoffMs),
    dedupe: {
      ttlMs: positiveOrThrow("dedupe.ttlMs", options.dedupe?.ttlMs ?? D.dedupe.ttlMs),
      maxEntries: options.dedupe?.maxEntries === undefined ? undefined : positiveOrThrow("dedupe.maxEntries", options.dedupe.maxEntries),
    },
    keepFailedMs: positiveOrThrow("keepFailedMs", options.keepFailedMs ?? D.keepFailedMs),
    enqueueTimeoutMs: positiveOrThrow("enqueueTimeoutMs", options.enqueueTimeoutMs ?? D.enqueueTimeoutMs),
    lockDurationMs: positiveOrThrow("lockDurationMs", options.lockDurationMs ?? D.lockDurationMs),
    outcomeTimeoutMs: positiveOrThrow("outcomeTimeoutMs", options.outcomeTimeoutMs ?? D.outcomeTimeoutMs),
    outcomePollIntervalMs: positiveOrThrow("outcomePollIntervalMs", options.outcomePollIntervalMs ?? D.outcomePollIntervalMs),
  };
}

function positiveOrThrow(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(`${WHERE}: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** BullMQ builds its keys as prefix:name:...; a ":" in either would read as another queue. */
function nameOrThrow(name: string, value: unknown): string {
  if (typeof value !== "string" || value === "" || value.includes(":")) {
    throw new ConfigurationError(`${WHERE}: ${name} must be a non-empty string without ":", got ${JSON.stringify(value)}`);
  }
  return value;
}

function logError(error: unknown, delivery: FailedDelivery | undefined): void {
  const detail = error instanceof Error ? `${error.name}${"code" in error ? ` ${String(error.code)}` : ""}: ${error.message}` : String(error);
  const about = delivery
    ? `session ${delivery.sessionId}${delivery.webhookId === undefined ? "" : `, webhook-id ${delivery.webhookId}`}, given up after ${delivery.attemptsMade} attempt(s), kept as failed job ${String(delivery.jobId)}`
    : "Redis";
  console.error(`flowsmith webhook queue (${about}): ${detail}`);
}
