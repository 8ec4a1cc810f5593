/**
 * createWebhookQueue's options as the queue works with them: checked (a
 * JavaScript caller gets a ConfigurationError naming the option, not a
 * TypeError later), with every default in one place.
 */
import { ConfigurationError, WEBHOOK_DEFAULTS, type SessionEnded, type WebhookClient } from "@flowsmith/runtime";
import { isRecord } from "@flowsmith/runtime/internal/json";
import { redisTargetOrThrow, type CheckedTarget, type RedisTarget } from "./connection.js";

/** createWebhookQueue's options; every default is in WEBHOOK_QUEUE_DEFAULTS. */
export interface WebhookQueueOptions {
  /** A `redis://` or `rediss://` URL (the queue opens its connections, and close() ends them), or your ioredis client (left open; workers open copies of it). */
  readonly connection: RedisTarget;
  /** Reads the session and data blocks in the workers; its environment is the webhooks'. */
  readonly client: WebhookClient;
  /** Called by a worker for each event, once it has the session from the API. Make it idempotent by sessionId (docs/many-instances.md). */
  readonly onSessionEnded: (ended: SessionEnded) => void | Promise<void>;
  /**
   * A delivery given up on after its last attempt, or whose job's data Redis
   * no longer has (`delivery` says which; the job stays in the failed set);
   * Redis failing (`delivery` undefined; a RedisUnavailableError or
   * RedisStorageError, once per outage and kind); how Redis is set up
   * (`delivery` undefined; a RedisSetupError, once each time the queue
   * connects). Default: one line on console.error.
   */
  readonly onError?: (error: unknown, delivery: FailedDelivery | undefined) => void | Promise<void>;
  /**
   * Take deliveries although Redis's maxmemory-policy lets it evict keys:
   * deliveries answered 204 may then be lost, and copies of handled ones
   * handled again, with nothing more said than the RedisSetupError at
   * connect. Default false: the queue refuses (503, and startWorker rejects).
   */
  readonly allowEviction?: boolean;
  /** The BullMQ queue's name. Default "flowsmith-webhooks". */
  readonly name?: string;
  /** BullMQ's key prefix. Default "flowsmith". */
  readonly prefix?: string;
  /** Attempts per delivery, the first included. Default 8. */
  readonly attempts?: number;
  /** Exponential backoff: attempt n+1 waits backoffMs * 2^(n-1). Default 1000 (1 s, 2 s, 4 s, ... about 2 minutes in all). */
  readonly backoffMs?: number;
  /** How long a completed delivery's job is kept, so a copy of it is dropped. Default { ttlMs: 86400000 } (24 h); maxEntries bounds the count too (default none). */
  readonly dedupe?: {
    /** How long, in ms. Default 86400000 (24 h). */
    readonly ttlMs?: number;
    /** At most this many completed jobs kept. Default: no bound but the time. */
    readonly maxEntries?: number;
  };
  /** How long a failed job stays to be inspected (and keeps dropping copies). Default 604800000 (7 days). */
  readonly keepFailedMs?: number;
  /** enqueue rejects (and the handler answers 503) when Redis has not stored the job within this; while Redis is known to be away, at once. Default 5000. */
  readonly enqueueTimeoutMs?: number;
  /**
   * A worker that has not renewed a job's lock for this long (killed,
   * frozen) loses the job to another, which takes it within a quarter of
   * this after the lock expired. Default 30000.
   */
  readonly lockDurationMs?: number;
  /** How long the API may take to show the outcome a webhook announced, per attempt. Default 30000. */
  readonly outcomeTimeoutMs?: number;
  /** GET session interval meanwhile. Default 1000. */
  readonly outcomePollIntervalMs?: number;
}

/** Which delivery onError is about. */
export interface FailedDelivery {
  /** undefined when the sender sent none, or when the job's data is gone and its id was a hash of a long webhook-id. */
  readonly webhookId: string | undefined;
  /** undefined when the job's data is gone (a RedisStorageError, REDIS_KEY_MISSING). */
  readonly sessionId: string | undefined;
  /** The BullMQ job (in the failed set): `queue.getJob(jobId)`, then `job.retry()` to try again. */
  readonly jobId: string | undefined;
  /** How many attempts were made, the first included. */
  readonly attemptsMade: number;
}

/** createWebhookQueue's defaults, by option name. */
export const WEBHOOK_QUEUE_DEFAULTS = {
  /** `name`. */
  name: "flowsmith-webhooks",
  /** `prefix`. */
  prefix: "flowsmith",
  /** `attempts`. */
  attempts: 8,
  /** `backoffMs`. */
  backoffMs: 1_000,
  /** `dedupe`. */
  dedupe: {
    /** `dedupe.ttlMs`. */
    ttlMs: 86_400_000,
  },
  /** `keepFailedMs`. */
  keepFailedMs: 7 * 86_400_000,
  /** `enqueueTimeoutMs`. */
  enqueueTimeoutMs: 5_000,
  /** `lockDurationMs`. */
  lockDurationMs: 30_000,
  /** `outcomeTimeoutMs`: the webhook handler's own default. */
  outcomeTimeoutMs: WEBHOOK_DEFAULTS.outcomeTimeoutMs,
  /** `outcomePollIntervalMs`: the webhook handler's own default. */
  outcomePollIntervalMs: WEBHOOK_DEFAULTS.outcomePollIntervalMs,
} as const;

export interface ResolvedQueueOptions {
  readonly target: CheckedTarget;
  readonly client: WebhookClient;
  readonly onSessionEnded: (ended: SessionEnded) => void | Promise<void>;
  readonly onError: (error: unknown, delivery: FailedDelivery | undefined) => void | Promise<void>;
  readonly allowEviction: boolean;
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
    typeof client.waitForOutcome !== "function" ||
    typeof client.getDataBlocks !== "function" ||
    typeof client.environment !== "string"
  ) {
    throw new ConfigurationError(`${WHERE}: client must be a client from createClient()`);
  }
  if (typeof onSessionEnded !== "function") throw new ConfigurationError(`${WHERE}: onSessionEnded must be a function`);
  if (onError !== undefined && typeof onError !== "function")
    throw new ConfigurationError(`${WHERE}: onError must be a function`);
  if (options.allowEviction !== undefined && typeof options.allowEviction !== "boolean") {
    throw new ConfigurationError(`${WHERE}: allowEviction must be true, false or left out`);
  }
  const D = WEBHOOK_QUEUE_DEFAULTS;
  return {
    target: redisTargetOrThrow(options.connection, `${WHERE}: connection`),
    client,
    onSessionEnded,
    onError: onError ?? logError,
    allowEviction: options.allowEviction ?? false,
    name: nameOrThrow("name", options.name ?? D.name),
    prefix: nameOrThrow("prefix", options.prefix ?? D.prefix),
    attempts: positiveOrThrow("attempts", options.attempts ?? D.attempts),
    backoffMs: positiveOrThrow("backoffMs", options.backoffMs ?? D.backoffMs),
    dedupe: {
      ttlMs: positiveOrThrow("dedupe.ttlMs", options.dedupe?.ttlMs ?? D.dedupe.ttlMs),
      maxEntries:
        options.dedupe?.maxEntries === undefined
          ? undefined
          : positiveOrThrow("dedupe.maxEntries", options.dedupe.maxEntries),
    },
    keepFailedMs: positiveOrThrow("keepFailedMs", options.keepFailedMs ?? D.keepFailedMs),
    enqueueTimeoutMs: positiveOrThrow("enqueueTimeoutMs", options.enqueueTimeoutMs ?? D.enqueueTimeoutMs),
    lockDurationMs: positiveOrThrow("lockDurationMs", options.lockDurationMs ?? D.lockDurationMs),
    outcomeTimeoutMs: positiveOrThrow("outcomeTimeoutMs", options.outcomeTimeoutMs ?? D.outcomeTimeoutMs),
    outcomePollIntervalMs: positiveOrThrow(
      "outcomePollIntervalMs",
      options.outcomePollIntervalMs ?? D.outcomePollIntervalMs,
    ),
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
    throw new ConfigurationError(
      `${WHERE}: ${name} must be a non-empty string without ":", got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function logError(error: unknown, delivery: FailedDelivery | undefined): void {
  const detail =
    error instanceof Error
      ? `${error.name}${"code" in error ? ` ${String(error.code)}` : ""}: ${error.message}`
      : String(error);
  const about = delivery
    ? `session ${delivery.sessionId ?? "unknown: the job's data is gone"}${delivery.webhookId === undefined ? "" : `, webhook-id ${delivery.webhookId}`}, given up after ${delivery.attemptsMade} attempt(s), kept as failed job ${String(delivery.jobId)}`
    : "Redis";
  console.error(`flowsmith webhook queue (${about}): ${detail}`);
}
