/**
 * createWebhookQueue: the runtime's WebhookQueue (`createWebhookHandler({ queue })`)
 * on BullMQ, so that a delivery acknowledged by any instance is handled by
 * some worker of the fleet once, and never lost (docs/many-instances.md):
 *
 * - the job id is the delivery's webhook-id, so a second delivery of the
 *   same event (the sender's retry, a copy sent to another instance) while
 *   its job waits, runs, or has completed within the dedupe window is
 *   dropped by BullMQ itself;
 * - the handler answers 204 only once BullMQ has stored the job, and 503
 *   when it cannot (Redis unreachable), so the sender retries;
 * - a worker reads the session through the API (readSessionEnded) and calls
 *   onSessionEnded; a failure is retried with exponential backoff, and after
 *   the last attempt the job stays in the failed set (inspect it through
 *   `queue`) and reaches onError;
 * - a worker killed mid-job stops renewing its lock: BullMQ's stalled-job
 *   check hands the job to another worker.
 */
import { createHash } from "node:crypto";
import type { ConnectionOptions, Job, JobsOptions, Queue, RedisOptions, Worker } from "bullmq";
import {
  ConfigurationError,
  parseSessionEndedEvent,
  readSessionEnded,
  type QueuedDelivery,
  type SessionEnded,
  type WebhookClient,
  type WebhookQueue,
} from "@flowsmith/runtime";
import { isDisconnected, reconnectDelayMs, type RedisTarget } from "./connection.js";
import { Outage } from "./outage.js";
import { resolveQueueOptionsOrThrow, type ResolvedQueueOptions } from "./webhook-queue-options.js";

export { WEBHOOK_QUEUE_DEFAULTS } from "./webhook-queue-options.js";

export interface WebhookQueueOptions {
  /** A `redis://` or `rediss://` URL (the queue opens its connections, and close() ends them), or your ioredis client (left open; workers open copies of it). */
  readonly connection: RedisTarget;
  /** Reads the session and data blocks in the workers; its environment is the webhooks'. */
  readonly client: WebhookClient;
  /** Called by a worker for each event, once it has the session from the API. Make it idempotent by sessionId (docs/many-instances.md). */
  readonly onSessionEnded: (ended: SessionEnded) => void | Promise<void>;
  /**
   * A delivery given up on after its last attempt (`delivery` says which; the
   * job stays in the failed set), or Redis unreachable (`delivery` undefined;
   * once per outage). Default: one line on console.error.
   */
  readonly onError?: (error: unknown, delivery: FailedDelivery | undefined) => void | Promise<void>;
  /** The BullMQ queue's name. Default "flowsmith-webhooks". */
  readonly name?: string;
  /** BullMQ's key prefix. Default "flowsmith". */
  readonly prefix?: string;
  /** Attempts per delivery, the first included. Default 8. */
  readonly attempts?: number;
  /** Exponential backoff: attempt n+1 waits backoffMs * 2^(n-1). Default 1000 (1 s, 2 s, 4 s, ... about 2 minutes in all). */
  readonly backoffMs?: number;
  /** How long a completed delivery's job is kept, so a copy of it is dropped. Default { ttlMs: 86400000 } (24 h); maxEntries bounds the count too (default none). */
  readonly dedupe?: { readonly ttlMs?: number; readonly maxEntries?: number };
  /** How long a failed job stays to be inspected (and keeps dropping copies). Default 604800000 (7 days). */
  readonly keepFailedMs?: number;
  /** enqueue rejects (and the handler answers 503) when Redis has not stored the job within this. Default 5000. */
  readonly enqueueTimeoutMs?: number;
  /** A worker that has not renewed a job's lock for this long (killed, frozen) loses the job to another. Default 30000. */
  readonly lockDurationMs?: number;
  /** How long the API may take to show the outcome a webhook announced, per attempt. Default 30000. */
  readonly outcomeTimeoutMs?: number;
  /** GET session interval meanwhile. Default 1000. */
  readonly outcomePollIntervalMs?: number;
}

/** Which delivery onError is about. */
export interface FailedDelivery {
  readonly webhookId: string | undefined;
  readonly sessionId: string;
  /** The BullMQ job (in the failed set): `queue.getJob(jobId)`, then `job.retry()` to try again. */
  readonly jobId: string | undefined;
  readonly attemptsMade: number;
}

export interface RedisWebhookQueue extends WebhookQueue {
  /** Starts this process's worker (once); resolves when it is connected and taking jobs. */
  startWorker(options?: { readonly concurrency?: number }): Promise<void>;
  /** Stops the worker (jobs under way finish first) and closes the connections the queue opened. */
  close(): Promise<void>;
  /** The BullMQ queue, to inspect (`getFailed()`, `getJobCounts()`) or retry jobs. */
  readonly queue: Queue<JobData>;
}

/** What a job holds: the delivery, as the handler verified it. Never a token or a secret. */
interface JobData {
  readonly webhookId: string | undefined;
  readonly event: unknown;
}

const JOB_NAME = "session.ended";
/** A job whose worker died this many times in a row is failed rather than handed on again (BullMQ's maxStalledCount). */
const MAX_STALLED = 3;

export function createWebhookQueue(options: WebhookQueueOptions): RedisWebhookQueue {
  const resolved = resolveQueueOptionsOrThrow(options);
  const { Queue, UnrecoverableError, Worker } = loadBullMQ();
  const report = (error: unknown, delivery: FailedDelivery | undefined): void => {
    void Promise.resolve()
      .then(() => resolved.onError(error, delivery))
      .catch((failure: unknown) => {
        console.error(`flowsmith webhook queue: onError threw: ${failure instanceof Error ? failure.message : String(failure)}`);
      });
  };
  const outage = new Outage("flowsmith webhook queue", "deliveries are answered 503 and workers wait until it is back", (error) => {
    report(error, undefined);
  });
  const target = resolved.target;
  const queue = new Queue<JobData>(resolved.name, {
    // Its own connection refuses commands while Redis is down (no offline queue): enqueue fails at once and the delivery gets its 503.
    connection: "url" in target ? { url: target.url, enableOfflineQueue: false, retryStrategy: reconnectDelayMs } : target.client,
    prefix: resolved.prefix,
  });
  queue.on("error", (error) => void outage.failed(error));
  const jobOptions = jobOptionsOf(resolved);
  let worker: Worker<JobData> | undefined;

  const enqueue = async ({ webhookId, event }: QueuedDelivery): Promise<void> => {
    if ("client" in target && isDisconnected(target.client)) throw outage.failed(new Error(`the connection is ${target.client.status}`));
    const jobId = webhookId === undefined ? undefined : jobIdOf(webhookId);
    try {
      // BullMQ adds a job whose id exists (waiting, running, completed or failed) as a no-op: the copy is dropped.
      await withinOrThrow(queue.add(JOB_NAME, { webhookId, event }, { ...jobOptions, jobId }), resolved.enqueueTimeoutMs);
    } catch (error) {
      throw outage.failed(error);
    }
    outage.succeeded();
  };

  const processJob = async (job: Job<JobData>): Promise<void> => {
    const { webhookId, event } = job.data;
    let sessionId: string;
    try {
      sessionId = parseSessionEndedEvent(event).data.sessionId;
    } catch (error) {
      // Not an event the handler would have queued: retrying cannot help.
      throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
    }
    const wait = { timeoutMs: resolved.outcomeTimeoutMs, intervalMs: resolved.outcomePollIntervalMs };
    await resolved.onSessionEnded(await readSessionEnded(resolved.client, sessionId, webhookId, wait));
  };

  return {
    enqueue,
    queue,
    startWorker: async ({ concurrency = 1 } = {}) => {
      if (worker) throw new ConfigurationError("startWorker was already called: one worker per queue object (raise its concurrency instead)");
      if (!Number.isSafeInteger(concurrency) || concurrency <= 0) {
        throw new ConfigurationError(`startWorker: concurrency must be a positive integer, got ${String(concurrency)}`);
      }
      worker = new Worker<JobData>(resolved.name, processJob, {
        connection: workerConnection(target),
        prefix: resolved.prefix,
        concurrency,
        lockDuration: resolved.lockDurationMs,
        stalledInterval: resolved.lockDurationMs,
        maxStalledCount: MAX_STALLED,
      });
      worker.on("error", (error) => void outage.failed(error));
      worker.on("completed", () => {
        outage.succeeded();
      });
      worker.on("failed", (job, error) => {
        // Emitted after every attempt; only the last one moves the job to the failed set (finishedOn set).
        if (job?.finishedOn === undefined) return;
        report(error, { webhookId: job.data.webhookId, sessionId: sessionIdOf(job.data.event), jobId: job.id, attemptsMade: job.attemptsMade });
      });
      await worker.waitUntilReady();
    },
    close: async () => {
      await worker?.close();
      await queue.close();
    },
  };
}

/**
 * BullMQ, loaded by the first createWebhookQueue: a process that only shares
 * tokens (a serverless function's cold start) does not load it, and it takes
 * longer to load than ioredis and the runtime together.
 */
function loadBullMQ(): typeof import("bullmq") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, as said above
  return require("bullmq") as typeof import("bullmq");
}

/** BullMQ refuses ids that are integers or hold ":"; a webhook-id of letters, digits, "_", "-" and "." is kept readable. */
function jobIdOf(webhookId: string): string {
  return /^[\w.-]{1,128}$/.test(webhookId) ? `webhook_${webhookId}` : `webhook-sha256_${createHash("sha256").update(webhookId).digest("hex")}`;
}

function jobOptionsOf(resolved: ResolvedQueueOptions): JobsOptions {
  const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
  return {
    attempts: resolved.attempts,
    backoff: { type: "exponential", delay: resolved.backoffMs },
    removeOnComplete: { age: seconds(resolved.dedupe.ttlMs), ...(resolved.dedupe.maxEntries === undefined ? {} : { count: resolved.dedupe.maxEntries }) },
    removeOnFail: { age: seconds(resolved.keepFailedMs) },
  };
}

/** Workers block on Redis (BullMQ's BZPOPMIN), so they never share the caller's client: BullMQ opens connections of the same settings and closes them. */
function workerConnection(target: ResolvedQueueOptions["target"]): ConnectionOptions {
  if ("url" in target) return { url: target.url, retryStrategy: reconnectDelayMs };
  const { retryStrategy, ...settings } = target.client.options;
  const copy: RedisOptions = { ...settings, retryStrategy: retryStrategy ?? reconnectDelayMs, maxRetriesPerRequest: null };
  return copy;
}

function withinOrThrow<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`Redis did not store the job within ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

function sessionIdOf(event: unknown): string {
  const data = typeof event === "object" && event !== null ? (event as { data?: { sessionId?: unknown } }).data : undefined;
  return typeof data?.sessionId === "string" ? data.sessionId : "(unknown)";
}
