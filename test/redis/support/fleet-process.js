"use strict";
/**
 * One process of the fleet in test/redis/fleet.test.ts, on the built packages
 * as a backend installs them (runtime/dist and redis/dist: `npm test` builds
 * before jest). Forked with IPC; its settings are argv[2] as JSON.
 *
 * - `backend`: a client on the Redis token store, a webhook handler with the
 *   Redis queue on a node:http server, and the queue's worker (started at
 *   once, or on the parent's "start-worker"). onSessionEnded tells the parent
 *   it has entered ({ entered }), takes `callbackMs` (default none), then
 *   writes one file per completion into doneDir (written whole, then renamed:
 *   a file there is a completed call); a `victim` never leaves its first one
 *   (the parent kills it there). "stop" shuts it down in the order
 *   docs/many-instances.md gives, after which it exits by itself.
 * - `calls`: a client on the Redis token store that makes `calls` concurrent
 *   calls when the parent says "go" (or at once), reports, and exits.
 */
const fs = require("node:fs");
const http = require("node:http");
const path = require("node:path");
const { createClient, createWebhookHandler } = require("@flowsmith/runtime");
const { createRedisTokenStore, createWebhookQueue } = require("@flowsmith/redis");

const settings = JSON.parse(process.argv[2]);

main().catch((error) => {
  process.stderr.write(`fleet-process: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});

async function main() {
  const tokenStore = createRedisTokenStore({
    redis: settings.redisUrl,
    keyPrefix: settings.keyPrefix,
    onError: () => undefined,
  });
  const client = createClient({
    ...settings.api,
    environment: "staging",
    userAgent: "flowsmith-fleet-test/1.0",
    tokenStore,
    pollIntervalMs: 20,
  });
  if (settings.mode === "calls") return calls(client, tokenStore);
  return backend(client, tokenStore);
}

async function calls(client, tokenStore) {
  if (settings.waitForGo) {
    const go = new Promise((resolve) => process.once("message", resolve));
    process.send({ ready: true });
    await go;
  }
  const outcomes = await Promise.allSettled(Array.from({ length: settings.calls }, () => client.listFlows()));
  const failed = outcomes.filter((outcome) => outcome.status === "rejected");
  process.send({
    done: { ok: outcomes.length - failed.length, failed: failed.map((outcome) => String(outcome.reason)) },
  });
  await client.close();
  await tokenStore.close();
  process.disconnect();
}

async function backend(client, tokenStore) {
  let completions = 0;
  let entries = 0;
  const queue = createWebhookQueue({
    connection: settings.redisUrl,
    client,
    name: settings.queueName,
    lockDurationMs: settings.lockDurationMs,
    backoffMs: 100,
    outcomePollIntervalMs: 20,
    onSessionEnded: async ({ sessionId }) => {
      entries += 1;
      process.send({ entered: sessionId });
      if (settings.victim && entries === 1) await new Promise(() => undefined);
      if (settings.callbackMs) await new Promise((resolve) => setTimeout(resolve, settings.callbackMs));
      completions += 1;
      const file = path.join(settings.doneDir, `${sessionId}.${process.pid}.${completions}.done`);
      fs.writeFileSync(`${file}.tmp`, sessionId);
      fs.renameSync(`${file}.tmp`, file);
    },
    onError: (error, delivery) => {
      process.stderr.write(
        `fleet-process ${process.pid}: ${delivery ? `session ${delivery.sessionId}` : "Redis"}: ${error && error.message}\n`,
      );
    },
  });
  // As every example does: a missing secret stops the process here, rather than take unsigned deliveries.
  if (!settings.secret) throw new Error("settings.secret is missing");
  const handler = createWebhookHandler({ client, secret: settings.secret, queue });
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const startWorker = () => queue.startWorker({ concurrency: settings.concurrency });
  if (settings.startWorker) await startWorker();
  process.on("message", (message) => {
    if (message === "start-worker") void startWorker().then(() => process.send({ workerStarted: true }));
    if (message === "stop") void stop();
  });
  process.send({ ready: { url: `http://127.0.0.1:${server.address().port}` } });

  // The order docs/many-instances.md gives: no new delivery, the worker stops (its jobs under way finish with the client still open), then the client, then the store.
  async function stop() {
    server.closeAllConnections();
    server.close();
    await queue.close();
    await client.close();
    await tokenStore.close();
    process.disconnect();
  }
}
