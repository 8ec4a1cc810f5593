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
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import {
  createWebhookQueue,
  RedisSetupError,
  RedisUnavailableError,
  type FailedDelivery,
  type RedisWebhookQueue,
  type WebhookQueueOptions,
} from "../../redis/index.js";
import {
  ConfigurationError,
  createWebhookHandler,
  WebhookError,
  type SessionEnded,
  type WebhookDelivery,
  type WebhookHandler,
} from "../../runtime/index.js";
import { startEmulatedSessions, type EmulatedSessions } from "../runtime/support/emulated-sessions.js";
import { deliver, eventBody, signed } from "../runtime/support/webhook-testbed.js";
import { startRedis, type RunningRedis } from "../support/redis-server.js";
import { closeStarted } from "../support/teardown.js";
import { waitFor } from "../support/wait-for.js";

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;

let redis: RunningRedis;
let sessions: EmulatedSessions;
const opened: { close(): Promise<unknown> }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  sessions = await startEmulatedSessions();
});
afterAll(() => closeStarted(sessions, redis));
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

interface Instance {
  readonly url: string;
  readonly queue: RedisWebhookQueue;
  readonly handler: WebhookHandler;
  readonly refused: { error: unknown; delivery: WebhookDelivery }[];
}

let queueNumber = 0;

/**
 * One instance of a backend: a queue object of its own on a queue shared by
 * `name`, and a handler on a node:http server (or, `fetch`, its Fetch-API
 * front under Hono).
 */
async function instance(name: string, options: Partial<WebhookQueueOptions>, front: "node:http" | "fetch" = "node:http"): Promise<Instance> {
  const queue = createWebhookQueue({
    connection: redis.url,
    client: sessions.client,
    onSessionEnded: () => undefined,
    onError: () => undefined,
    name,
    backoffMs: 20,
    outcomePollIntervalMs: 10,
    ...options,
  });
  opened.push(queue);
  const refused: Instance["refused"] = [];
  const handler = createWebhookHandler({ client: sessions.client, secret: SECRET, queue, onError: (error, delivery) => void refused.push({ error, delivery }) });
  const server = front === "fetch" ? await honoServer(handler) : await nodeServer(handler);
  opened.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, queue, handler, refused };
}

async function nodeServer(handler: WebhookHandler): Promise<Server> {
  const server: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

async function honoServer(handler: WebhookHandler): Promise<ServerType> {
  const app = new Hono();
  app.all("/webhooks", (c) => handler.fetch(c.req.raw));
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => {
      resolve(server);
    });
  });
}

/** A fresh queue name per test, and the callback's calls. */
function fixture() {
  const name = `webhooks-${++queueNumber}`;
  const handled: SessionEnded[] = [];
  return { name, handled, onSessionEnded: (ended: SessionEnded) => void handled.push(ended) };
}

async function send(url: string, sessionId: string, id = `msg_${randomBytes(8).toString("hex")}`) {
  const body = eventBody(sessionId);
  return { id, ...(await deliver(url, body, signed(body, { id, secret: SECRET }))) };
}

async function endedSession(): Promise<string> {
  const sessionId = await sessions.create("cust-queue");
  await sessions.end(sessionId, "ACCEPTED");
  return sessionId;
}

/** Nothing is left to run: every job of the queue has completed or failed. */
async function settled(queue: RedisWebhookQueue): Promise<Record<string, number>> {
  let counts: Record<string, number> = {};
  await waitFor("the queue to settle", async () => {
    counts = await queue.queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
    return counts.waiting === 0 && counts.active === 0 && counts.delayed === 0;
  });
  return counts;
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
  expect(handled[0]).toMatchObject({ sessionId, webhookId: answer.id, decision: "ACCEPTED", session: { metadata: { subjectId: "cust-queue" } } });
  expect(await settled(a.queue)).toMatchObject({ completed: 1, failed: 0 });
});

describe("a copy of a delivery (same webhook-id) sent to another instance is dropped", () => {
  test("while its job waits", async () => {
    const { name, handled, onSessionEnded } = fixture();
    const [a, b] = [await instance(name, { onSessionEnded }), await instance(name, { onSessionEnded })];
    const sessionId = await endedSession();
    const first = await send(a.url, sessionId);
    expect((await send(b.url, sessionId, first.id)).status).toBe(204);
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
    expect((await send(b.url, sessionId, first.id)).status).toBe(204);
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
    expect((await send(b.url, sessionId, first.id)).status).toBe(204);
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
  expect(failed).toMatchObject({ id: failures[0]!.delivery!.jobId, failedReason: "database down", data: { webhookId: answer.id } });
});

test("Redis unreachable: deliveries are answered 503 (never 2xx) and reported once; both recover when it is back", async () => {
  const { name, handled, onSessionEnded } = fixture();
  const outages: unknown[] = [];
  const a = await instance(name, { onSessionEnded, onError: (error) => {
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
  expect((reported[0] as Error).message).toMatch(/^flowsmith webhook queue: Redis is unreachable \(.+\); deliveries are answered 503 and workers wait until it is back$/);
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
  expect(a.refused.map(({ error, delivery }) => [(error as WebhookError).code, delivery.status])).toEqual([["WEBHOOK_QUEUE_UNAVAILABLE", 503]]);
  await waitFor("a 204 after Redis came back", async () => (await send(a.url, later)).status === 204);
  await waitFor("onSessionEnded after Redis came back", () => handled.length === 2);
  expect(handled.map((ended) => ended.sessionId)).toEqual([sessionId, later]);
});

describe("options", () => {
  test("a handler takes onSessionEnded or a queue, not both", async () => {
    const { name, onSessionEnded } = fixture();
    const { queue } = await instance(name, {});
    // @ts-expect-error -- a handler with a queue has no onSessionEnded of its own: the queue's workers call theirs.
    expect(() => createWebhookHandler({ client: sessions.client, secret: SECRET, queue, onSessionEnded })).toThrow(
      new ConfigurationError("createWebhookHandler: give onSessionEnded or queue, not both (with a queue, its workers call their own onSessionEnded)"),
    );
    expect(() => createWebhookHandler({ client: sessions.client, secret: SECRET, queue: {} as never })).toThrow(/queue must have an enqueue\(delivery\) method/);
  });

  test("startWorker takes a positive concurrency, once per queue object", async () => {
    const { name, onSessionEnded } = fixture();
    const { queue } = await instance(name, { onSessionEnded });
    await expect(queue.startWorker({ concurrency: 0 })).rejects.toThrow(new ConfigurationError("startWorker: concurrency must be a positive integer, got 0"));
    await queue.startWorker({ concurrency: 2 });
    await expect(queue.startWorker()).rejects.toThrow(/startWorker was already called: one worker per queue object/);
  });

  test.each([
    ["no connection", { connection: undefined }, /connection must be a redis:\/\/ or rediss:\/\/ URL or an ioredis client/],
    ["an http URL", { connection: "http://localhost:6379" }, /connection must be a redis:\/\/ or rediss:\/\/ URL/],
    ["no onSessionEnded", { onSessionEnded: undefined }, /onSessionEnded must be a function/],
    ["zero attempts", { attempts: 0 }, /attempts must be a positive integer, got 0/],
    ["a name with a colon", { name: "a:b" }, /name must be a non-empty string without ":"/],
  ])("%s is a ConfigurationError", (_name, options, message) => {
    const given = { connection: "redis://127.0.0.1:1", client: sessions.client, onSessionEnded: () => undefined, ...options } as WebhookQueueOptions;
    expect(() => createWebhookQueue(given)).toThrow(ConfigurationError);
    expect(() => createWebhookQueue(given)).toThrow(message);
  });
});
