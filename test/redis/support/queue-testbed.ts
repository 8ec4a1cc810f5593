/**
 * The webhook queue's test bed: the emulator as the API, and "instances" of
 * a backend, each a createWebhookQueue of its own and a createWebhookHandler
 * on a node:http server (or, `front: "fetch"`, its Fetch-API front under
 * Hono) on loopback, against a real redis-server the test chose (a setup of
 * its own: eviction, persistence, frozen). `useQueueTestbed()` registers its
 * jest hooks; what an instance opened is closed after each test.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import {
  createWebhookQueue,
  type FailedDelivery,
  type RedisWebhookQueue,
  type WebhookQueueOptions,
} from "../../../redis/index.js";
import {
  createWebhookHandler,
  type SessionEnded,
  type WebhookDelivery,
  type WebhookHandler,
} from "../../../runtime/index.js";
import { startEmulatedSessions, type EmulatedSessions } from "../../runtime/support/emulated-sessions.js";
import { deliver, eventBody, signed } from "../../runtime/support/webhook-testbed.js";
import { closeStarted } from "../../support/teardown.js";
import { waitFor } from "../../support/wait-for.js";

export const SECRET = `whsec_${randomBytes(32).toString("base64")}`;

export interface Instance {
  readonly url: string;
  readonly queue: RedisWebhookQueue;
  readonly handler: WebhookHandler;
  /** What the handler's onError heard: refused deliveries. */
  readonly refused: { error: unknown; delivery: WebhookDelivery }[];
  /** What the queue's onError heard: Redis (delivery undefined) and deliveries given up on. */
  readonly reported: { error: unknown; delivery: FailedDelivery | undefined }[];
  /** What this instance's worker handed to onSessionEnded (unless the test gave its own). */
  readonly handled: SessionEnded[];
}

export interface InstanceOptions extends Partial<WebhookQueueOptions> {
  /** Where the queue keeps its jobs: the test's redis-server. */
  readonly connection: WebhookQueueOptions["connection"];
  /** The handler takes unsigned deliveries (allowUnsigned) instead of SECRET's. */
  readonly unsigned?: boolean;
  readonly front?: "node:http" | "fetch";
}

export interface QueueTestbed {
  /** The emulated API (after beforeAll). */
  readonly sessions: () => EmulatedSessions;
  readonly instance: (options: InstanceOptions) => Promise<Instance>;
  /** A session ended ACCEPTED through the API. */
  readonly endedSession: (subjectId?: string) => Promise<string>;
  /** Closed after the test, after what the instances opened (first opened, last closed). */
  readonly opened: { close(): Promise<unknown> }[];
}

let queueNumber = 0;

/** A queue name no other test uses. */
export function freshQueueName(): string {
  return `webhooks-${process.pid}-${++queueNumber}`;
}

export function useQueueTestbed(): QueueTestbed {
  let sessions: EmulatedSessions | undefined;
  const opened: { close(): Promise<unknown> }[] = [];
  beforeAll(async () => {
    sessions = await startEmulatedSessions();
  });
  afterEach(async () => {
    for (const resource of opened.splice(0).reverse()) await resource.close();
  });
  afterAll(() => closeStarted(sessions));
  const emulated = (): EmulatedSessions => {
    if (!sessions) throw new Error("the emulated sessions start in beforeAll");
    return sessions;
  };

  const instance = async ({
    unsigned = false,
    front = "node:http",
    ...options
  }: InstanceOptions): Promise<Instance> => {
    const handled: SessionEnded[] = [];
    const reported: Instance["reported"] = [];
    const queue = createWebhookQueue({
      client: emulated().client,
      onSessionEnded: (ended) => void handled.push(ended),
      onError: (error, delivery) => void reported.push({ error, delivery }),
      name: freshQueueName(),
      backoffMs: 20,
      outcomePollIntervalMs: 10,
      ...options,
    });
    opened.push(queue);
    const refused: Instance["refused"] = [];
    const onError = (error: unknown, delivery: WebhookDelivery): void => void refused.push({ error, delivery });
    const handler = unsigned
      ? createWebhookHandler({ client: emulated().client, allowUnsigned: true, queue, onError })
      : createWebhookHandler({ client: emulated().client, secret: SECRET, queue, onError });
    const server = front === "fetch" ? await honoServer(handler) : await nodeServer(handler);
    opened.push({ close: () => new Promise((resolve) => server.close(resolve)) });
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
      queue,
      handler,
      refused,
      reported,
      handled,
    };
  };

  return {
    sessions: emulated,
    instance,
    endedSession: async (subjectId = "cust-queue") => {
      const sessionId = await emulated().create(subjectId);
      await emulated().end(sessionId, "ACCEPTED");
      return sessionId;
    },
    opened,
  };
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

/** One delivery of a session's event, signed with SECRET (or unsigned), with this webhook-id or a new one. */
export async function send(
  url: string,
  sessionId: string,
  options: { id?: string; unsigned?: boolean; body?: string } = {},
) {
  const id = options.id ?? `msg_${randomBytes(8).toString("hex")}`;
  const body = options.body ?? eventBody(sessionId);
  const headers = options.unsigned
    ? { "content-type": "application/json", "webhook-id": id }
    : signed(body, { id, secret: SECRET });
  return { id, ...(await deliver(url, body, headers)) };
}

/**
 * As a sender does: the same delivery (same webhook-id) again after each
 * answer that is not a 2xx, until one is, at most `attempts` times; the
 * statuses seen, the last one a 2xx.
 */
export async function sendUntilAccepted(
  url: string,
  sessionId: string,
  id: string,
  { attempts = 100, delayMs = 50 } = {},
): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const { status } = await send(url, sessionId, { id });
    statuses.push(status);
    if (status >= 200 && status < 300) return statuses;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  throw new Error(`delivery ${id} was not accepted in ${attempts} attempts: ${statuses.join(", ")}`);
}

/** Nothing is left to run: every job of the queue has completed or failed. */
export async function settled(queue: RedisWebhookQueue, limitMs?: number): Promise<Record<string, number>> {
  let counts: Record<string, number> = {};
  await waitFor(
    "the queue to settle",
    async () => {
      counts = await queue.queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
      return counts.waiting === 0 && counts.active === 0 && counts.delayed === 0;
    },
    limitMs,
  );
  return counts;
}

/** The codes of what the queue's onError heard about Redis itself (delivery undefined), in order. */
export function redisCodes(instance: Instance): string[] {
  return instance.reported
    .filter(({ delivery }) => delivery === undefined)
    .map(({ error }) => (error as { code?: string }).code ?? String(error));
}
