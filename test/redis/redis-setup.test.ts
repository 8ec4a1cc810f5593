/**
 * What the webhook queue says about how Redis is set up, against a real
 * redis-server started in each setup of docs/many-instances.md's table:
 * what onError hears once when the queue connects (RedisSetupError: its
 * code, and whether the queue refuses), and what the setup then keeps
 * across a Redis restart and under memory pressure. Where the docs promise
 * nothing is lost or handled twice, a chaos run shows it; where the setup
 * allows a loss, onError has said so.
 */
import { expect } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { RedisSetupError, type RedisWebhookQueue } from "../../redis/index.js";
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

async function redisFor(config: Record<string, string>): Promise<RunningRedis> {
  const redis = await startRedis({ config });
  opened.push(redis);
  return redis;
}

/** What onError said about the setup: code and whether the queue refuses, in order. */
function findings(target: Instance): [string, boolean][] {
  return target.reported
    .filter(({ error }) => error instanceof RedisSetupError)
    .map(({ error }) => [(error as RedisSetupError).code, (error as RedisSetupError).refused]);
}

describe("what the queue says when it connects, per setup", () => {
  const setups: [string, Record<string, string>, boolean, [string, boolean][]][] = [
    ["noeviction with an append-only file: nothing", { appendonly: "yes" }, false, []],
    [
      "noeviction with RDB snapshots only: nothing (a restart loses what came after the last one, said then)",
      { save: "3600 1" },
      false,
      [],
    ],
    ["noeviction without persistence: a restart loses everything", {}, false, [["REDIS_NOT_PERSISTENT", false]]],
    [
      "allkeys-lru with allowEviction: taken, said",
      { appendonly: "yes", "maxmemory-policy": "allkeys-lru" },
      true,
      [["REDIS_EVICTION_POLICY", false]],
    ],
    [
      "volatile-lru with allowEviction: taken, said",
      { appendonly: "yes", "maxmemory-policy": "volatile-lru" },
      true,
      [["REDIS_EVICTION_POLICY", false]],
    ],
  ];
  test.each(setups)("%s", async (_name, config, allowEviction, said) => {
    const redis = await redisFor(config);
    const a = await instance({ connection: redis.url, allowEviction });
    await a.queue.startWorker();
    const sessionId = await endedSession();
    expect((await send(a.url, sessionId)).status).toBe(204);
    await waitFor("onSessionEnded", () => a.handled.length === 1);
    expect(findings(a)).toEqual(said);
    // Said once per queue object, whatever it does next.
    expect((await send(a.url, sessionId)).status).toBe(204);
    expect(findings(a)).toEqual(said);
  });

  test.each([["allkeys-lru"], ["volatile-ttl"]])(
    "%s without allowEviction: refused, once; startWorker rejects and every delivery is answered 503 at once",
    async (policy) => {
      const redis = await redisFor({ appendonly: "yes", "maxmemory-policy": policy });
      const enqueueTimeoutMs = 10_000;
      const a = await instance({ connection: redis.url, enqueueTimeoutMs });
      const refusal = await a.queue.startWorker().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(RedisSetupError);
      expect(refusal).toMatchObject({ code: "REDIS_EVICTION_POLICY", refused: true });
      expect((refusal as Error).message).toContain(`maxmemory-policy is ${policy}`);
      expect((refusal as Error).message).toContain("createWebhookQueue({ allowEviction: true })");
      const sessionId = await endedSession();
      const startedAt = Date.now();
      const answers = [await send(a.url, sessionId), await send(a.url, sessionId)];
      expect(answers.map(({ status }) => status)).toEqual([503, 503]);
      expect(Date.now() - startedAt).toBeLessThan(enqueueTimeoutMs);
      expect(a.refused.map(({ error }) => [(error as WebhookError).code, (error as WebhookError).cause])).toEqual([
        ["WEBHOOK_QUEUE_UNAVAILABLE", refusal],
        ["WEBHOOK_QUEUE_UNAVAILABLE", refusal],
      ]);
      expect(findings(a)).toEqual([["REDIS_EVICTION_POLICY", true]]);
      expect(await a.queue.queue.getJobCounts("waiting")).toEqual({ waiting: 0 });
    },
  );
});

describe("a Redis restart", () => {
  /** Deliveries stored and not yet handled (no worker runs), then Redis restarted: what is left, and what was said. */
  async function restartWithWaiting(config: Record<string, string>, count: number) {
    const redis = await redisFor(config);
    const a = await instance({ connection: redis.url });
    const sent = [];
    for (let index = 0; index < count; index++) {
      const sessionId = await endedSession();
      sent.push({ sessionId, ...(await send(a.url, sessionId)) });
    }
    expect(sent.map(({ status }) => status)).toEqual(sent.map(() => 204));
    const before = redisCodes(a).length;
    await redis.stop();
    await redis.start();
    // The queue reconnects and checks Redis again; a delivery taken then proves it did.
    const later = await endedSession();
    await sendUntilAccepted(a.url, later, `msg_${randomBytes(8).toString("hex")}`);
    return {
      a,
      sent,
      said: redisCodes(a)
        .slice(before)
        .filter((code) => code !== "REDIS_UNAVAILABLE"),
    };
  }

  test("without persistence: the deliveries waiting in it are gone, each answered 204, and onError says so (REDIS_RESTARTED)", async () => {
    const { a, said } = await restartWithWaiting({}, 5);
    expect(said).toEqual(["REDIS_RESTARTED"]);
    const restarted = a.reported.find(({ error }) => (error as RedisSetupError).code === "REDIS_RESTARTED")!
      .error as RedisSetupError;
    expect(restarted.message).toMatch(
      /^flowsmith webhook queue: Redis restarted without an append-only file: every delivery it held is gone, each already answered 204/,
    );
    // Only the delivery taken after the restart is there.
    expect(await a.queue.queue.getJobCounts("waiting")).toEqual({ waiting: 1 });
  }, 60_000);

  test("with an append-only file (appendfsync always): nothing lost, nothing handled twice, nothing said", async () => {
    const { a, sent, said } = await restartWithWaiting({ appendonly: "yes", appendfsync: "always" }, 20);
    expect(said).toEqual([]);
    expect(findings(a)).toEqual([]);
    // The sender's copies of every delivery, after the restart, are dropped: the jobs are still there.
    for (const { sessionId, id } of sent) expect((await send(a.url, sessionId, { id })).status).toBe(204);
    await a.queue.startWorker({ concurrency: 4 });
    expect(await settled(a.queue, 30_000)).toMatchObject({ completed: sent.length + 1, failed: 0 });
    const handled = a.handled.map(({ webhookId }) => webhookId);
    expect(new Set(handled).size).toBe(handled.length);
    expect(handled).toEqual(expect.arrayContaining(sent.map(({ id }) => id)));
  }, 60_000);
});

test("allkeys-lru with a small maxmemory, allowed: deliveries answered 204 are lost under memory pressure, as said before the first was taken; a lost job Redis still names is reported as such", async () => {
  const redis = await redisFor({ appendonly: "yes", "maxmemory-policy": "allkeys-lru", maxmemory: "4mb" });
  const a = await instance({ connection: redis.url, allowEviction: true });
  await waitFor("the queue to check Redis", () => findings(a).length > 0);
  const warnedAt = a.reported.length;
  expect(findings(a)).toEqual([["REDIS_EVICTION_POLICY", false]]);
  const sent = [];
  for (let index = 0; index < 30; index++) sent.push(await send(a.url, await endedSession()));
  expect(sent.every(({ status }) => status === 204)).toBe(true);
  // A neighbour's keys push Redis past maxmemory: it evicts, the queue's keys among others.
  const filler = new Redis(redis.url);
  opened.push({ close: () => filler.quit() });
  const chunk = "x".repeat(64 * 1024);
  for (let index = 0; index < 200; index++) await filler.set(`filler:${index}`, chunk);
  await filler.flushdb();
  await a.queue.startWorker({ concurrency: 4 });
  await settledOrEmptied(a.queue);
  const lost = a.reported.slice(warnedAt).filter(({ delivery }) => delivery !== undefined);
  for (const { error, delivery } of lost) {
    expect([(error as { code?: string }).code, delivery!.sessionId]).toEqual(["REDIS_KEY_MISSING", undefined]);
    expect(sent.map(({ id }) => id)).toContain(delivery!.webhookId);
  }
  // What this setup allows, and what the warning said: some were lost (most with the queue's own lists, without a trace).
  expect(a.handled.length + lost.length).toBeLessThan(sent.length);
}, 60_000);

/** Settled, or emptied by eviction (the queue's lists evicted with the rest). */
async function settledOrEmptied(queue: RedisWebhookQueue): Promise<void> {
  await waitFor(
    "the queue to settle",
    async () => {
      const counts = await queue.queue.getJobCounts("waiting", "active", "delayed");
      return counts.waiting === 0 && counts.active === 0 && counts.delayed === 0;
    },
    30_000,
  );
}
