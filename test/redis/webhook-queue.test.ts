/**
 * createWebhookHandler({ queue }) with createWebhookQueue against a real
 * Redis and the emulator, over real HTTP: two handlers with queue objects of
 * their own stand for two instances (test/redis/fleet.test.ts runs real
 * processes and kills one). A delivery is answered 204 only once BullMQ has
 * it, a copy is dropped whether the job waits, runs or has completed,
 * failures are retried and the last one kept, and Redis going away gives
 * 503s, never a 2xx, until it is back.
 */
import { expect } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import {
  createWebhookQueue,
  RedisSetupError,
  RedisUnavailableError,
  type FailedDelivery,
  type WebhookQueueOptions,
} from "../../redis/index.js";
import { ConfigurationError, createWebhookHandler, WebhookError, type SessionEnded } from "../../runtime/index.js";
import { startRedis, type RunningRedis } from "../support/redis-server.js";
import { MAX_STORED_FIELD_LENGTH } from "../../redis/job-data.js";
import { eventBody } from "../runtime/support/webhook-testbed.js";
import { closeStarted } from "../support/teardown.js";
import { waitFor } from "../support/wait-for.js";
import {
  freshQueueName,
  SECRET,
  send,
  settled,
  useQueueTestbed,
  type InstanceOptions,
} from "./support/queue-testbed.js";

let redis: RunningRedis;
const { sessions, instance: open, endedSession } = useQueueTestbed();

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => closeStarted(redis));

/** One instance of a backend on a queue shared by `name`: a queue object of its own and a handler on its server. */
const instance = (
  name: string,
  options: Partial<InstanceOptions>,
  front: InstanceOptions["front"] = "node:http",
  unsigned = false,
) => open({ connection: redis.url, name, onError: () => undefined, ...options, front, unsigned });

/** A fresh queue name per test, and the callback's calls. */
function fixture() {
  const name = freshQueueName();
  const handled: SessionEnded[] = [];
  return { name, handled, onSessionEnded: (ended: SessionEnded) => void handled.push(ended) };
}

test("a delivery is answered 204 once the queue has it; a worker reads the session from the API and calls onSessionEnded", async () => {
  const { name, handled, onSessionEnded } = fixture();
  const a = await instance(name, { onSessionEnded });
  const sessionId = await endedSession();
  const answer = await send(a.url, sessionId);
  expect(answer.status).toBe(204);
  // Stored before the answer: the job waits in Redis, and no worker runs yet.
  expect(await a.queue.queue.getWaitingCount()).toBe(1);
  await a.queue.startWorker();
  await waitFor("onSessionEnded", () => handled.length === 1);
  expect(handled[0]).toMatchObject({
    sessionId,
    webhookId: answer.id,
    decision: "ACCEPTED",
    session: { metadata: { subjectId: "cust-queue" } },
  });
  expect(await settled(a.queue)).toMatchObject({ completed: 1, failed: 0 });
});

describe("a copy of a delivery (same webhook-id) sent to another instance is dropped", () => {
  test("while its job waits", async () => {
    const { name, handled, onSessionEnded } = fixture();
    const [a, b] = [await instance(name, { onSessionEnded }), await instance(name, { onSessionEnded })];
    const sessionId = await endedSession();
    const first = await send(a.url, sessionId);
    expect((await send(b.url, sessionId, { id: first.id })).status).toBe(204);
    expect(await a.queue.queue.getWaitingCount()).toBe(1);
    await Promise.all([a.queue.startWorker(), b.queue.startWorker()]);
    expect(await settled(a.queue)).toMatchObject({ completed: 1 });
    expect(handled.map((ended) => ended.sessionId)).toEqual([sessionId]);
  });

  test("while its job runs", async () => {
    const { name, handled } = fixture();
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const onSessionEnded = async (ended: SessionEnded) => {
      entered();
      await gate;
      handled.push(ended);
    };
    const [a, b] = [await instance(name, { onSessionEnded }), await instance(name, { onSessionEnded })];
    await Promise.all([a.queue.startWorker(), b.queue.startWorker()]);
    const sessionId = await endedSession();
    const first = await send(a.url, sessionId);
    await inside;
    expect((await send(b.url, sessionId, { id: first.id })).status).toBe(204);
    release();
    expect(await settled(a.queue)).toMatchObject({ completed: 1 });
    expect(handled.map((ended) => ended.sessionId)).toEqual([sessionId]);
  });

  test("after its job completed, within the dedupe window", async () => {
    const { name, handled, onSessionEnded } = fixture();
    const [a, b] = [await instance(name, { onSessionEnded }), await instance(name, { onSessionEnded })];
    await a.queue.startWorker();
    const sessionId = await endedSession();
    const first = await send(a.url, sessionId);
    await waitFor("onSessionEnded", () => handled.length === 1);
    expect((await send(b.url, sessionId, { id: first.id })).status).toBe(204);
    expect(await settled(a.queue)).toMatchObject({ completed: 1 });
    expect(handled).toHaveLength(1);
  });
});

test("a failing callback is retried with backoff, and succeeds once", async () => {
  const { name, handled } = fixture();
  let calls = 0;
  const onSessionEnded = (ended: SessionEnded) => {
    calls += 1;
    if (calls < 3) throw new Error(`database down (call ${calls})`);
    handled.push(ended);
  };
  const a = await instance(name, { onSessionEnded, attempts: 5 });
  await a.queue.startWorker();
  await send(a.url, await endedSession());
  expect(await settled(a.queue)).toMatchObject({ completed: 1, failed: 0 });
  expect([calls, handled.length]).toEqual([3, 1]);
});

test("after the last attempt the job stays in the failed set and reaches onError", async () => {
  const { name } = fixture();
  const failures: { error: unknown; delivery: FailedDelivery | undefined }[] = [];
  const a = await instance(name, {
    onSessionEnded: () => {
      throw new Error("database down");
    },
    // Redis's setup (no persistence here) is said with delivery undefined; this test is about deliveries.
    onError: (error, delivery) => {
      if (delivery) failures.push({ error, delivery });
    },
    attempts: 2,
  });
  await a.queue.startWorker();
  const sessionId = await endedSession();
  const answer = await send(a.url, sessionId);
  await waitFor("onError", () => failures.length === 1);
  expect(failures[0]!.error).toMatchObject({ message: "database down" });
  expect(failures[0]!.delivery).toMatchObject({ sessionId, webhookId: answer.id, attemptsMade: 2 });
  const [failed] = await a.queue.queue.getFailed();
  expect(failed).toMatchObject({
    id: failures[0]!.delivery!.jobId,
    failedReason: "database down",
    data: { webhookId: answer.id },
  });
});

test("Redis unreachable: deliveries are answered 503 (never 2xx) and reported once; both recover when it is back", async () => {
  const { name, handled, onSessionEnded } = fixture();
  const outages: unknown[] = [];
  const a = await instance(name, {
    onSessionEnded,
    onError: (error) => {
      if (!(error instanceof RedisSetupError)) outages.push(error);
    },
    enqueueTimeoutMs: 2_000,
  });
  await a.queue.startWorker();
  const sessionId = await endedSession();
  await redis.stop();
  let during: { status: number }[];
  let reported: unknown[];
  try {
    during = [await send(a.url, sessionId), await send(a.url, sessionId)];
    await waitFor("the outage to be reported", () => outages.length > 0);
    reported = [...outages];
  } finally {
    await redis.start();
  }
  expect(during.map((answer) => answer.status)).toEqual([503, 503]);
  expect(a.refused.map(({ error, delivery }) => [(error as WebhookError).code, delivery.status])).toEqual([
    ["WEBHOOK_QUEUE_UNAVAILABLE", 503],
    ["WEBHOOK_QUEUE_UNAVAILABLE", 503],
  ]);
  expect(reported).toHaveLength(1);
  expect(reported[0]).toBeInstanceOf(RedisUnavailableError);
  expect((reported[0] as Error).message).toMatch(
    /^flowsmith webhook queue: Redis is unreachable \(.+\); deliveries are answered 503 and workers wait until it is back$/,
  );
  // The sender retries until the queue takes it again; the worker, reconnected, handles it.
  await waitFor("a 204 after Redis came back", async () => (await send(a.url, sessionId)).status === 204);
  await waitFor("onSessionEnded after Redis came back", () => handled.length === 1);
  expect(handled[0]!.sessionId).toBe(sessionId);
});

test("the Fetch-API front (handler.fetch, under Hono) hands deliveries to the queue as the node:http one does: 204 once stored, 503 while Redis is away", async () => {
  const { name, handled, onSessionEnded } = fixture();
  const a = await instance(name, { onSessionEnded, enqueueTimeoutMs: 2_000 }, "fetch");
  const sessionId = await endedSession();
  expect((await send(a.url, sessionId)).status).toBe(204);
  // Stored before the answer: the job waits in Redis, and no worker runs yet.
  expect(await a.queue.queue.getWaitingCount()).toBe(1);
  await a.queue.startWorker();
  await waitFor("onSessionEnded", () => handled.length === 1);
  expect(await settled(a.queue)).toMatchObject({ completed: 1, failed: 0 });

  const later = await endedSession();
  await redis.stop();
  let during: { status: number };
  try {
    during = await send(a.url, later);
  } finally {
    await redis.start();
  }
  expect(during.status).toBe(503);
  expect(a.refused.map(({ error, delivery }) => [(error as WebhookError).code, delivery.status])).toEqual([
    ["WEBHOOK_QUEUE_UNAVAILABLE", 503],
  ]);
  await waitFor("a 204 after Redis came back", async () => (await send(a.url, later)).status === 204);
  await waitFor("onSessionEnded after Redis came back", () => handled.length === 2);
  expect(handled.map((ended) => ended.sessionId)).toEqual([sessionId, later]);
});

describe("what a job holds in Redis", () => {
  /** The job's hash as Redis holds it (data, opts, stacktrace, ...): what a delivery costs there. */
  async function storedHash(name: string, jobId: string): Promise<Record<string, string>> {
    const reader = new Redis(redis.url);
    try {
      return await reader.hgetall(`flowsmith:${name}:${jobId}`);
    } finally {
      reader.disconnect();
    }
  }

  test("the webhook-id and the event's known fields only: a delivery's other fields are never stored", async () => {
    const { name } = fixture();
    const a = await instance(name, { onSessionEnded: () => undefined }, "node:http", true);
    const sessionId = await endedSession();
    // Two pieces of 30 KB: the whole body stays under the handler's maxBodyBytes.
    const padding = "x".repeat(30_000);
    const event = JSON.parse(eventBody(sessionId)) as { data: Record<string, unknown> };
    const body = JSON.stringify({ ...event, padding, data: { ...event.data, extra: padding } });
    const answer = await send(a.url, sessionId, { unsigned: true, body });
    expect(answer.status).toBe(204);
    const [job] = await a.queue.queue.getWaiting();
    expect(job!.data).toEqual({
      webhookId: answer.id,
      verified: false,
      event: {
        type: "session.ended",
        timestamp: expect.any(String),
        data: { sessionId, flowId: "a41f0c6d-aml", environment: "staging", decision: "ACCEPTED" },
      },
    });
    const stored = await storedHash(name, job!.id!);
    expect(stored.data!.length).toBeLessThan(400);
    expect(Object.values(stored).join("")).not.toContain("xxxxxxxx");
  });

  test("a known field longer than a job keeps is refused with 400 (the sender does not retry it), not stored", async () => {
    const { name } = fixture();
    const a = await instance(name, { onSessionEnded: () => undefined });
    const answer = await send(a.url, "s".repeat(MAX_STORED_FIELD_LENGTH + 1));
    expect([answer.status, answer.json.code, answer.json.message]).toEqual([
      400,
      "INVALID_WEBHOOK_PAYLOAD",
      expect.stringContaining("data.sessionId"),
    ]);
    expect(await a.queue.queue.getJobCounts("waiting")).toEqual({ waiting: 0 });
  });

  test("a failed job keeps the last attempt's stack trace, not one per attempt", async () => {
    const { name } = fixture();
    const a = await instance(name, { onSessionEnded: () => Promise.reject(new Error("database down")), attempts: 3 });
    await a.queue.startWorker();
    await send(a.url, await endedSession());
    expect(await settled(a.queue)).toMatchObject({ failed: 1 });
    const [failed] = await a.queue.queue.getFailed();
    expect([failed!.attemptsMade, failed!.stacktrace?.length]).toEqual([3, 1]);
  });

  test("an unsigned delivery cannot claim a signed one's webhook-id: both are stored, and the signed one is handled under its id", async () => {
    const { name, handled, onSessionEnded } = fixture();
    const open = await instance(name, { onSessionEnded }, "node:http", true);
    const signedInstance = await instance(name, { onSessionEnded });
    const sessionId = await endedSession();
    // The forger knows the real delivery's webhook-id and sends first, unsigned, to a handler that takes unsigned deliveries.
    const id = `msg_${randomBytes(8).toString("hex")}`;
    expect((await send(open.url, sessionId, { id, unsigned: true })).status).toBe(204);
    expect((await send(signedInstance.url, sessionId, { id })).status).toBe(204);
    expect(
      (await signedInstance.queue.queue.getWaiting()).map((job) => [job.id ?? "", job.data.verified]).sort(),
    ).toEqual([
      [`unverified_${id}`, false],
      [`webhook_${id}`, true],
    ]);
    await signedInstance.queue.startWorker();
    expect(await settled(signedInstance.queue)).toMatchObject({ completed: 2 });
    expect(handled.map((ended) => [ended.sessionId, ended.webhookId])).toEqual([
      [sessionId, id],
      [sessionId, id],
    ]);
  });
});

describe("options", () => {
  test("a handler takes onSessionEnded or a queue, not both", async () => {
    const { name, onSessionEnded } = fixture();
    const { queue } = await instance(name, {});
    // @ts-expect-error -- a handler with a queue has no onSessionEnded of its own: the queue's workers call theirs.
    expect(() => createWebhookHandler({ client: sessions().client, secret: SECRET, queue, onSessionEnded })).toThrow(
      new ConfigurationError(
        "createWebhookHandler: give onSessionEnded or queue, not both (with a queue, its workers call their own onSessionEnded)",
      ),
    );
    expect(() => createWebhookHandler({ client: sessions().client, secret: SECRET, queue: {} as never })).toThrow(
      /queue must have an enqueue\(delivery\) method/,
    );
  });

  test("startWorker takes a positive concurrency, once per queue object", async () => {
    const { name, onSessionEnded } = fixture();
    const { queue } = await instance(name, { onSessionEnded });
    await expect(queue.startWorker({ concurrency: 0 })).rejects.toThrow(
      new ConfigurationError("startWorker: concurrency must be a positive integer, got 0"),
    );
    await queue.startWorker({ concurrency: 2 });
    await expect(queue.startWorker()).rejects.toThrow(/startWorker was already called: one worker per queue object/);
  });

  test.each([
    [
      "no connection",
      { connection: undefined },
      /connection must be a redis:\/\/ or rediss:\/\/ URL or an ioredis client/,
    ],
    ["an http URL", { connection: "http://localhost:6379" }, /connection must be a redis:\/\/ or rediss:\/\/ URL/],
    ["no onSessionEnded", { onSessionEnded: undefined }, /onSessionEnded must be a function/],
    ["zero attempts", { attempts: 0 }, /attempts must be a positive integer, got 0/],
    ["a name with a colon", { name: "a:b" }, /name must be a non-empty string without ":"/],
  ])("%s is a ConfigurationError", (_name, options, message) => {
    const given = {
      connection: "redis://127.0.0.1:1",
      client: sessions().client,
      onSessionEnded: () => undefined,
      ...options,
    } as WebhookQueueOptions;
    expect(() => createWebhookQueue(given)).toThrow(ConfigurationError);
    expect(() => createWebhookQueue(given)).toThrow(message);
  });
});
