/**
 * The webhook queue while Redis fails, against a real redis-server each
 * test takes away in its own way: down when the backend starts, frozen
 * (SIGSTOP), out of memory, a job's data gone. The queue never hangs (its
 * worker starts and stops whatever Redis does), a delivery it cannot store
 * is answered 503 at once once the failure is known, each failure is said
 * once through onError with its own code, and whatever the sender retried
 * is handled once when Redis is back.
 */
import { expect } from "@jest/globals";
import { Redis } from "ioredis";
import { RedisStorageError, RedisUnavailableError } from "../../redis/index.js";
import { WebhookError } from "../../runtime/index.js";
import { startRedis, type RunningRedis } from "../support/redis-server.js";
import { waitFor } from "../support/wait-for.js";
import {
  redisCodes,
  send,
  sendUntilAccepted,
  settled,
  useQueueTestbed,
  type Instance,
} from "./support/queue-testbed.js";

const { instance, endedSession, opened } = useQueueTestbed();

/** A redis-server of the test's own, closed after it (after the instances that use it). */
async function redisFor(config: Record<string, string> = {}): Promise<RunningRedis> {
  // Persistence on, so that the only thing onError says is what the test does to Redis.
  const redis = await startRedis({ config: { appendonly: "yes", ...config } });
  opened.push(redis);
  return redis;
}

/** `promise`, or a failure naming what did not settle within `ms` (instead of a test that hangs). */
async function within<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not settle within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A delivery's answer, and how long it took. */
async function timedSend(target: Instance, sessionId: string, id?: string) {
  const startedAt = Date.now();
  const answer = await send(target.url, sessionId, id === undefined ? {} : { id });
  return { ...answer, ms: Date.now() - startedAt };
}

/** The error the handler refused a delivery with, and the queue's cause under it. */
function causes(target: Instance): [string | undefined, string | undefined][] {
  return target.refused.map(({ error }) => [
    (error as WebhookError).code,
    ((error as WebhookError).cause as { code?: string } | undefined)?.code,
  ]);
}

test("Redis down at start: startWorker settles at once and says so once; deliveries get 503 at once; when Redis starts, the worker starts by itself", async () => {
  const redis = await redisFor();
  await redis.stop();
  const enqueueTimeoutMs = 10_000;
  const a = await instance({ connection: redis.url, enqueueTimeoutMs });
  await within("startWorker with Redis down", a.queue.startWorker(), enqueueTimeoutMs);
  const sessionId = await endedSession();
  const during = [await timedSend(a, sessionId), await timedSend(a, sessionId)];
  expect(during.map(({ status }) => status)).toEqual([503, 503]);
  // Not after the whole enqueueTimeoutMs: the queue knows Redis is away.
  expect(during.every(({ ms }) => ms < enqueueTimeoutMs / 2)).toBe(true);
  expect(causes(a)).toEqual([
    ["WEBHOOK_QUEUE_UNAVAILABLE", "REDIS_UNAVAILABLE"],
    ["WEBHOOK_QUEUE_UNAVAILABLE", "REDIS_UNAVAILABLE"],
  ]);
  await redis.start();
  // The sender retries the first delivery until it is taken; the worker, started when Redis answered, handles it.
  await sendUntilAccepted(a.url, sessionId, during[0]!.id);
  await waitFor("onSessionEnded after Redis started", () => a.handled.length === 1);
  expect(a.handled[0]).toMatchObject({ sessionId, webhookId: during[0]!.id });
  expect(redisCodes(a)).toEqual(["REDIS_UNAVAILABLE"]);
  expect(a.reported[0]!.error).toBeInstanceOf(RedisUnavailableError);
}, 60_000);

test("Redis frozen (SIGSTOP): the first delivery waits enqueueTimeoutMs for its 503, the next are answered at once; said once; after SIGCONT each retried delivery is handled once", async () => {
  const redis = await redisFor();
  const enqueueTimeoutMs = 1_500;
  const a = await instance({ connection: redis.url, enqueueTimeoutMs });
  await a.queue.startWorker();
  const sessionIds = [await endedSession(), await endedSession(), await endedSession()];
  redis.pause();
  let during: Awaited<ReturnType<typeof timedSend>>[];
  try {
    during = [];
    for (const sessionId of sessionIds) during.push(await timedSend(a, sessionId));
  } finally {
    redis.resume();
  }
  expect(during.map(({ status }) => status)).toEqual([503, 503, 503]);
  expect(during[0]!.ms).toBeGreaterThanOrEqual(enqueueTimeoutMs);
  expect(during.slice(1).every(({ ms }) => ms < enqueueTimeoutMs)).toBe(true);
  expect(causes(a).map(([, cause]) => cause)).toEqual(["REDIS_UNAVAILABLE", "REDIS_UNAVAILABLE", "REDIS_UNAVAILABLE"]);
  // The first job may have been stored as Redis woke up, after its 503: the sender's retry is then a copy, dropped.
  for (const [index, sessionId] of sessionIds.entries()) await sendUntilAccepted(a.url, sessionId, during[index]!.id);
  await waitFor("every session handled", () => a.handled.length >= sessionIds.length);
  expect(await settled(a.queue)).toMatchObject({ completed: sessionIds.length, failed: 0 });
  expect(a.handled.map(({ sessionId }) => sessionId).sort()).toEqual([...sessionIds].sort());
  expect(redisCodes(a)).toEqual(["REDIS_UNAVAILABLE"]);
}, 60_000);

test("out of memory (noeviction at maxmemory): 503 at once with REDIS_OUT_OF_MEMORY, said once for every delivery it refuses; stored again once Redis has room", async () => {
  const redis = await redisFor();
  const a = await instance({ connection: redis.url });
  const filler = new Redis(redis.url);
  opened.push({ close: () => filler.quit() });
  const sessionId = await endedSession();
  // A neighbour's keys, then a maxmemory well below what Redis holds: every write is refused, whatever its buffers do meanwhile.
  const chunk = "x".repeat(64 * 1024);
  for (let index = 0; index < 40; index++) await filler.set(`filler:${index}`, chunk);
  await filler.config("SET", "maxmemory", "1mb");
  await expect(filler.set("one-more", "x")).rejects.toThrow(/^OOM /);
  const during = [await timedSend(a, sessionId), await timedSend(a, sessionId), await timedSend(a, sessionId)];
  expect(during.map(({ status }) => status)).toEqual([503, 503, 503]);
  expect(causes(a).map(([, cause]) => cause)).toEqual([
    "REDIS_OUT_OF_MEMORY",
    "REDIS_OUT_OF_MEMORY",
    "REDIS_OUT_OF_MEMORY",
  ]);
  expect(redisCodes(a)).toEqual(["REDIS_OUT_OF_MEMORY"]);
  expect(a.reported[0]!.error).toBeInstanceOf(RedisStorageError);
  expect((a.reported[0]!.error as Error).message).toMatch(
    /^flowsmith webhook queue: Redis refused to store \(out of memory: maxmemory reached\) \(OOM .+\); deliveries are answered 503 until Redis has room again/,
  );
  await filler.config("SET", "maxmemory", "0");
  await sendUntilAccepted(a.url, sessionId, during[0]!.id);
  await a.queue.startWorker();
  await waitFor("onSessionEnded once Redis had room", () => a.handled.length === 1);
}, 60_000);

test("a job whose data is gone (evicted, deleted): onError gets a RedisStorageError REDIS_KEY_MISSING per job, naming its job and webhook-id; the job stays in the failed set", async () => {
  const redis = await redisFor();
  const a = await instance({ connection: redis.url });
  const answers = [await send(a.url, await endedSession()), await send(a.url, await endedSession())];
  expect(answers.map(({ status }) => status)).toEqual([204, 204]);
  const jobs = await a.queue.queue.getWaiting();
  const remover = new Redis(redis.url);
  opened.push({ close: () => remover.quit() });
  // What eviction does: the job's hash is gone, its id still waits.
  for (const job of jobs) await remover.del(`flowsmith:${a.queue.queue.name}:${job.id ?? ""}`);
  await a.queue.startWorker();
  await waitFor(
    "both lost jobs reported",
    () => a.reported.filter(({ delivery }) => delivery !== undefined).length === 2,
  );
  const lost = a.reported.filter(({ delivery }) => delivery !== undefined);
  expect(lost.map(({ error }) => [(error as RedisStorageError).name, (error as RedisStorageError).code])).toEqual([
    ["RedisStorageError", "REDIS_KEY_MISSING"],
    ["RedisStorageError", "REDIS_KEY_MISSING"],
  ]);
  expect(lost.map(({ delivery }) => [delivery!.jobId, delivery!.webhookId, delivery!.sessionId]).sort()).toEqual(
    answers.map(({ id }) => [`webhook_${id}`, id, undefined]).sort(),
  );
  expect((lost[0]!.error as Error).message).toMatch(
    /^flowsmith webhook queue: job webhook_msg_\w+ has no data in Redis any more \(evicted, or deleted\)/,
  );
  expect(a.handled).toEqual([]);
  expect(await settled(a.queue)).toMatchObject({ failed: 2 });
});

describe("close() never waits on a Redis that is away", () => {
  test("while Redis is down", async () => {
    const redis = await redisFor();
    const a = await instance({ connection: redis.url });
    await a.queue.startWorker();
    await redis.stop();
    await waitFor("the outage to be noticed", () => redisCodes(a).includes("REDIS_UNAVAILABLE"));
    await within("close() with Redis down", a.queue.close(), 10_000);
  });

  test("just as Redis came back, its workers still reconnecting", async () => {
    const redis = await redisFor();
    const a = await instance({ connection: redis.url });
    await a.queue.startWorker();
    await redis.stop();
    await waitFor("the outage to be noticed", () => redisCodes(a).includes("REDIS_UNAVAILABLE"));
    await redis.start();
    await within("close() as Redis came back", a.queue.close(), 10_000);
  });
});
