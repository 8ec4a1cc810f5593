/**
 * createWebhookQueue: the runtime's WebhookQueue (`createWebhookHandler({ queue })`)
 * on BullMQ, so that a delivery acknowledged by any instance is handled by
 * some worker of the fleet, as far as Redis keeps what it was given
 * (docs/many-instances.md has the table per setup):
 *
 * - the job holds the event's known fields only, and its id is the
 *   delivery's webhook-id (job-data.ts), so a second delivery of the same
 *   event while its job waits, runs, or has completed within the dedupe
 *   window is dropped by BullMQ itself;
 * - the handler answers 204 only once BullMQ has stored the job, and 503
 *   when it cannot: at once while Redis is known to be away or set up to
 *   lose jobs (queue-connection.ts, redis-setup.ts), so the sender retries;
 * - a worker reads the session through the API (readSessionEnded) and calls
 *   onSessionEnded; a failure is retried with exponential backoff, and after
 *   the last attempt the job stays in the failed set and reaches onError;
 * - a worker killed mid-job stops renewing its lock: BullMQ's stalled-job
 *   check, every quarter of lockDurationMs, hands the job to another worker.
 */
import type { ConnectionOptions, Job, JobsOptions, Queue, RedisOptions } from "bullmq";
import {
  ConfigurationError,
  parseSessionEndedEvent,
  readSessionEnded,
  type QueuedDelivery,
  type WebhookQueue,
} from "@flowsmith/runtime";
import {
  closeConnection,
  DISCONNECT_TIMEOUT_MS,
  MAX_RECONNECT_DELAY_MS,
  openConnection,
  reconnectDelayMs,
} from "./connection.js";
import { RedisStorageError } from "./errors.js";
import { jobDataOrThrow, jobIdOf, storedJobDataOf, webhookIdOfJobId, type JobData } from "./job-data.js";
import { Outage, type Consequences } from "./outage.js";
import { QueueConnection } from "./queue-connection.js";
import { QueueWorker } from "./queue-worker.js";
import {
  resolveQueueOptionsOrThrow,
  type FailedDelivery,
  type ResolvedQueueOptions,
  type WebhookQueueOptions,
} from "./webhook-queue-options.js";

/** A webhook queue on Redis (BullMQ): pass it as createWebhookHandler's `queue`, and start a worker in each process that handles deliveries. */
export interface RedisWebhookQueue extends WebhookQueue {
  /**
   * Starts this process's worker (once). Resolves when it takes jobs, or, if
   * Redis cannot be reached (said through onError), within enqueueTimeoutMs:
   * the worker then starts by itself once Redis answers. Rejects with a
   * RedisSetupError when Redis is set up in a way the queue refuses.
   */
  startWorker(options?: { readonly concurrency?: number }): Promise<void>;
  /** Stops the worker (it takes no new job; jobs under way finish), then closes the connections the queue opened. Call it before closing the client its workers use. */
  close(): Promise<void>;
  /** The BullMQ queue, to inspect (`getFailed()`, `getJobCounts()`) or retry jobs. */
  readonly queue: Queue<JobData>;
}

const JOB_NAME = "session.ended";
/** A job whose worker died this many times in a row is failed rather than handed on again (BullMQ's maxStalledCount). */
const MAX_STALLED = 3;
const WHAT = "flowsmith webhook queue";
const CONSEQUENCES: Consequences = {
  REDIS_UNAVAILABLE: "deliveries are answered 503 and workers wait until it is back",
  REDIS_OUT_OF_MEMORY:
    "deliveries are answered 503 until Redis has room again (raise maxmemory, or keep jobs for less time: dedupe.ttlMs, keepFailedMs)",
  REDIS_KEY_MISSING: "a delivery stored there may be lost, or handled again",
  REDIS_COMMAND_REFUSED: "deliveries are answered 503 until Redis takes the queue's commands again",
};

/**
 * A queue that stores each verified delivery in Redis before the handler
 * answers 204, and whose workers, in any process, read the session and call
 * `onSessionEnded`, dropping copies by webhook-id across the fleet and
 * retrying failures. It checks Redis's setup each time it connects and says
 * what the setup may lose through `onError` (docs/many-instances.md).
 */
export function createWebhookQueue(options: WebhookQueueOptions): RedisWebhookQueue {
  const resolved = resolveQueueOptionsOrThrow(options);
  const { Queue, UnrecoverableError, Worker } = loadBullMQ();
  const report = (error: unknown, delivery: FailedDelivery | undefined): void => {
    void Promise.resolve()
      .then(() => resolved.onError(error, delivery))
      .catch((failure: unknown) => {
        console.error(`${WHAT}: onError threw: ${failure instanceof Error ? failure.message : String(failure)}`);
      });
  };
  const outage = new Outage(WHAT, CONSEQUENCES, (error) => {
    report(error, undefined);
  });
  const target = resolved.target;
  // Its own connection refuses commands while Redis is down (no offline queue): enqueue fails at once and the delivery gets its 503.
  const redis = "url" in target ? openConnection(target.url, { enableOfflineQueue: false }) : target.client;
  let worker: QueueWorker<JobData> | undefined;
  const connection = new QueueConnection(redis, {
    allowEviction: resolved.allowEviction,
    outage,
    report: (finding) => {
      report(finding, undefined);
    },
    changed: (state) => worker?.follow(state),
  });
  const queue = new Queue<JobData>(resolved.name, { connection: redis, prefix: resolved.prefix });
  queue.on("error", (error) => void outage.failed(error));
  const jobOptions = jobOptionsOf(resolved);

  const enqueue = async (delivery: QueuedDelivery): Promise<void> => {
    const data = jobDataOrThrow(delivery);
    const deadline = Date.now() + resolved.enqueueTimeoutMs;
    await connection.usableOrThrow(resolved.enqueueTimeoutMs);
    const jobId = data.webhookId === undefined ? undefined : jobIdOf(data.webhookId, data.verified);
    try {
      // BullMQ adds a job whose id exists (waiting, running, completed or failed) as a no-op: the copy is dropped.
      await withinOrThrow(
        queue.add(JOB_NAME, data, { ...jobOptions, jobId }),
        Math.max(1, deadline - Date.now()),
        resolved.enqueueTimeoutMs,
      );
    } catch (error) {
      if (error instanceof NoAnswerError) connection.unresponsive(error);
      throw outage.failed(error);
    }
    outage.succeeded();
  };

  /** A cause BullMQ does not retry: the job goes to the failed set, and onError gets the cause itself. */
  const unrecoverable = (cause: unknown): Error => {
    const error = new UnrecoverableError(cause instanceof Error ? cause.message : String(cause));
    error.cause = cause;
    return error;
  };

  const processJob = async (job: Job<JobData>): Promise<void> => {
    const data = storedJobDataOf(job.data);
    if (data === undefined) throw unrecoverable(dataGone(job.id));
    let sessionId: string;
    try {
      sessionId = parseSessionEndedEvent(data.event).data.sessionId;
    } catch (error) {
      // Not an event the handler would have queued: retrying cannot help.
      throw unrecoverable(error);
    }
    const wait = { timeoutMs: resolved.outcomeTimeoutMs, intervalMs: resolved.outcomePollIntervalMs };
    await resolved.onSessionEnded(await readSessionEnded(resolved.client, sessionId, data.webhookId, wait));
  };

  const startWorker = async ({ concurrency = 1 }: { readonly concurrency?: number } = {}): Promise<void> => {
    if (worker)
      throw new ConfigurationError(
        "startWorker was already called: one worker per queue object (raise its concurrency instead)",
      );
    if (!Number.isSafeInteger(concurrency) || concurrency <= 0) {
      throw new ConfigurationError(`startWorker: concurrency must be a positive integer, got ${String(concurrency)}`);
    }
    const started = new QueueWorker<JobData>(
      Worker,
      resolved.name,
      processJob,
      {
        connection: workerConnection(target),
        prefix: resolved.prefix,
        concurrency,
        lockDuration: resolved.lockDurationMs,
        stalledInterval: stalledIntervalOf(resolved.lockDurationMs),
        maxStalledCount: MAX_STALLED,
        // BullMQ waits this long after a command failed for a lost connection; the connection itself is back within MAX_RECONNECT_DELAY_MS.
        runRetryDelay: MAX_RECONNECT_DELAY_MS,
      },
      (error) => void outage.failed(error),
    );
    worker = started;
    started.events.on("error", (error) => void outage.failed(error));
    started.events.on("completed", () => {
      outage.succeeded();
    });
    started.events.on("failed", (job, error) => {
      // Emitted after every attempt; only the last one moves the job to the failed set (finishedOn set).
      if (job?.finishedOn === undefined) return;
      const data = storedJobDataOf(job.data);
      const reported = error.name === "UnrecoverableError" && error.cause !== undefined ? error.cause : error;
      report(reported, {
        webhookId: data ? data.webhookId : webhookIdOfJobId(job.id),
        sessionId: data?.event.data.sessionId,
        jobId: job.id,
        attemptsMade: job.attemptsMade,
      });
    });
    const state = await connection.settled(resolved.enqueueTimeoutMs);
    if (state.kind === "refused") {
      worker = undefined;
      await started.stop(resolved.enqueueTimeoutMs);
      throw state.error;
    }
    started.follow(state);
  };

  return {
    enqueue,
    queue,
    startWorker,
    close: async () => {
      // The worker first: it takes no new job, and the jobs under way finish while their connections and client still work.
      await worker?.stop(resolved.enqueueTimeoutMs);
      await queue.close();
      connection.detach();
      if ("url" in target) await closeConnection(redis);
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

/**
 * How often workers look for jobs whose lock expired (BullMQ's
 * stalledInterval). A job is handed on at the first check after its lock
 * expired, so a killed worker's job is taken over at most lockDurationMs
 * plus this after the worker stopped; each check is one script in Redis.
 */
function stalledIntervalOf(lockDurationMs: number): number {
  return Math.max(1, Math.floor(lockDurationMs / 4));
}

function jobOptionsOf(resolved: ResolvedQueueOptions): JobsOptions {
  const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
  return {
    attempts: resolved.attempts,
    backoff: { type: "exponential", delay: resolved.backoffMs },
    removeOnComplete: {
      age: seconds(resolved.dedupe.ttlMs),
      ...(resolved.dedupe.maxEntries === undefined ? {} : { count: resolved.dedupe.maxEntries }),
    },
    removeOnFail: { age: seconds(resolved.keepFailedMs) },
    // The last attempt's stack is what an inspection needs; one per attempt would be kept as long as the job.
    stackTraceLimit: 1,
  };
}

/** Workers block on Redis (BullMQ's BZPOPMIN), so they never share the caller's client: BullMQ opens connections of the same settings and closes them. */
function workerConnection(target: ResolvedQueueOptions["target"]): ConnectionOptions {
  if ("url" in target)
    return { url: target.url, retryStrategy: reconnectDelayMs, disconnectTimeout: DISCONNECT_TIMEOUT_MS };
  const { retryStrategy, ...settings } = target.client.options;
  const copy: RedisOptions = {
    ...settings,
    retryStrategy: retryStrategy ?? reconnectDelayMs,
    maxRetriesPerRequest: null,
  };
  return copy;
}

function dataGone(jobId: string | undefined): RedisStorageError {
  const webhookId = webhookIdOfJobId(jobId);
  return new RedisStorageError(
    "REDIS_KEY_MISSING",
    `${WHAT}: job ${String(jobId)} has no data in Redis any more (evicted, or deleted), so its delivery` +
      `${webhookId === undefined ? "" : ` (webhook-id ${webhookId})`} cannot be handled; reconcile the sessions that ended meanwhile through the API`,
  );
}

/** Redis took no answer within the time a delivery may wait. */
class NoAnswerError extends Error {
  override readonly name = "NoAnswerError";
}

/** `promise`, or a NoAnswerError after `ms` (what is left of the delivery's `enqueueTimeoutMs`). */
function withinOrThrow<T>(promise: Promise<T>, ms: number, enqueueTimeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new NoAnswerError(`Redis did not store the job within enqueueTimeoutMs (${enqueueTimeoutMs} ms)`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}
