"use strict";
/**
 * Benchmark 13, the client process: webhook deliveries, signed as the
 * service signs them, sent at concurrency 16 to a createWebhookHandler on
 * node:http, first processed inline (no queue: the handler reads the session
 * itself after answering), then through the Redis queue (@flowsmith/redis, a
 * real redis-server) with 3 worker processes (bench/webhook-worker.js). Each
 * delivery's latency runs from the moment it is sent to the moment
 * onSessionEnded runs, on performance.timeOrigin + now(), which every process
 * on the machine shares. A 503 (the queue could not store a delivery in
 * time, on a busy machine) is retried as a sender does, the same delivery
 * re-signed after a pause, and counted; any other answer but 204 fails the
 * run. Prints one JSON line.
 * Usage: node bench/webhook-queue-client.js '<json settings>'
 */
const { fork } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const http = require("node:http");
const path = require("node:path");
const { performance } = require("node:perf_hooks");
const { Webhook } = require("standardwebhooks");
const undici = require("undici");
const { startStubServer } = require("./stub-server-handle.js");
const { USER_AGENT } = require("./flowsmith-side.js");
const { median } = require("./stats.js");
const { REPO_ROOT } = require("./workspace.js");
const { startRedis } = require("../test/support/redis-server.js");

const CONCURRENCY = 16;
const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const QUEUE = "bench-webhooks";
/** A run that has not seen every callback after this has lost some: it fails rather than wait forever. */
const PATIENCE_MS = 120_000;
/** A sender's pause before it retries a delivery answered 503. */
const RETRY_DELAY_MS = 100;

const now = () => performance.timeOrigin + performance.now();

main(JSON.parse(process.argv[2])).catch((error) => {
  process.stderr.write(`webhook-queue-client: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});

async function main(settings) {
  const server = await startStubServer();
  // As docs/many-instances.md asks for its guarantees: an append-only file (and noeviction, the default here).
  const redis = await startRedis({ config: { appendonly: "yes" } });
  const runtime = require(path.join(REPO_ROOT, "runtime", "dist", "index.js"));
  const { createWebhookQueue } = require(path.join(REPO_ROOT, "redis", "dist", "index.js"));
  const api = { baseUrl: server.baseUrl, authUrl: server.authUrl };
  const client = runtime.createClient({
    ...api,
    environment: "staging",
    userAgent: USER_AGENT,
    clientId: "bench-client",
    clientSecret: "bench-secret",
  });
  const workers = [];
  try {
    const ended = new Map();
    const inline = runtime.createWebhookHandler({
      client,
      secret: SECRET,
      onSessionEnded: ({ webhookId }) => void ended.set(webhookId, now()),
    });
    const inlineResult = await run(inline, ended, settings);

    for (let i = 0; i < settings.workers; i += 1)
      workers.push(
        startWorker({ redisUrl: redis.url, api, queueName: QUEUE, concurrency: settings.workerConcurrency }, ended),
      );
    await Promise.all(workers.map((worker) => worker.ready));
    const queue = createWebhookQueue({
      connection: redis.url,
      client,
      name: QUEUE,
      onSessionEnded: () => undefined,
      onError: reportQueueError,
    });
    const queued = runtime.createWebhookHandler({ client, secret: SECRET, queue });
    try {
      const queueResult = await run(queued, ended, settings);
      process.stdout.write(
        `${JSON.stringify({ inline: inlineResult, queue: queueResult, workers: settings.workers })}\n`,
      );
    } finally {
      await queue.close();
    }
  } finally {
    // The workers before the client and Redis they use, as docs/many-instances.md orders a shutdown.
    await Promise.all(workers.map((worker) => worker.stop()));
    await client.close();
    await redis.close();
    await server.close();
  }
}

/** Warm-up deliveries, then the measured ones: their rate from first send to last callback, and the latency of each. */
async function run(handler, ended, { deliveries, warmup }) {
  const listener = http.createServer((req, res) => void handler(req, res));
  await new Promise((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const pool = new undici.Pool(`http://127.0.0.1:${listener.address().port}`);
  try {
    await sendAll(pool, warmup, "warm", ended);
    return await sendAll(pool, deliveries, "run", ended);
  } finally {
    await pool.close();
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  }
}

async function sendAll(pool, count, label, ended) {
  const sentAt = new Map();
  const ids = Array.from({ length: count }, (_, i) => `msg_${label}_${i}_${randomBytes(4).toString("hex")}`);
  let next = 0;
  let retried503 = 0;
  const signer = new Webhook(SECRET);
  const giveUpAt = Date.now() + PATIENCE_MS;
  const deliver = async (id) => {
    const body = JSON.stringify({
      type: "session.ended",
      timestamp: new Date().toISOString(),
      data: { sessionId: `s-${id}`, flowId: "bench-flow", environment: "staging", decision: "ACCEPTED" },
    });
    const at = new Date();
    const response = await pool.request({
      method: "POST",
      path: "/webhooks",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signer.sign(id, at, body),
      },
      body,
    });
    await response.body.dump();
    return response.statusCode;
  };
  const sender = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      // The latency runs from the first attempt, as the sender sees it.
      sentAt.set(id, now());
      for (let status = await deliver(id); status !== 204; status = await deliver(id)) {
        if (status !== 503 || Date.now() > giveUpAt) throw new Error(`delivery ${id} answered ${status}`);
        retried503 += 1;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
  };
  const first = now();
  await Promise.all(Array.from({ length: CONCURRENCY }, sender));
  while (ids.some((id) => !ended.has(id))) {
    if (Date.now() > giveUpAt)
      throw new Error(
        `${ids.filter((id) => !ended.has(id)).length} of ${count} deliveries never reached onSessionEnded`,
      );
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const latencies = ids.map((id) => ended.get(id) - sentAt.get(id)).sort((a, b) => a - b);
  const last = Math.max(...ids.map((id) => ended.get(id)));
  return {
    rate: count / ((last - first) / 1000),
    medianMs: median(latencies),
    p99Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))],
    retried503,
  };
}

/** The queue's onError, on stderr: a bench on a Redis set up otherwise than the docs ask says so, as an operator would see it. */
function reportQueueError(error, delivery) {
  process.stderr.write(
    `webhook-queue-client: ${delivery ? `delivery ${delivery.webhookId}` : "Redis"}: ${error.code ?? error.name}: ${error.message}\n`,
  );
}

function startWorker(settings, ended) {
  const child = fork(path.join(__dirname, "webhook-worker.js"), [JSON.stringify(settings)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.on("message", (message) => {
    if (message.ended) ended.set(message.ended.webhookId, message.ended.at);
  });
  return {
    ready: new Promise((resolve, reject) => {
      child.on("message", (message) => message.ready && resolve());
      void exited.then((code) => reject(new Error(`webhook worker exited (${code}) before it was ready`)));
    }),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.send("stop");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
