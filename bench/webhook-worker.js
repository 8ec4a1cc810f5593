"use strict";
/**
 * Benchmark 13, one worker process: the webhook queue's worker on the built
 * @flowsmith/redis, reading each session from the stub server, and telling
 * the parent (IPC) when onSessionEnded ran, on a clock every process on the
 * machine shares. Usage: forked with '<json settings>'; "stop" ends it.
 */
const path = require("node:path");
const { performance } = require("node:perf_hooks");
const { REPO_ROOT } = require("./workspace.js");
const { USER_AGENT } = require("./flowsmith-side.js");

const settings = JSON.parse(process.argv[2]);

main().catch((error) => {
  process.stderr.write(`webhook-worker: ${error.stack ?? error}\n`);
  process.exit(1);
});

async function main() {
  const { createClient } = require(path.join(REPO_ROOT, "runtime", "dist", "index.js"));
  const { createWebhookQueue } = require(path.join(REPO_ROOT, "redis", "dist", "index.js"));
  const client = createClient({
    ...settings.api,
    environment: "staging",
    userAgent: USER_AGENT,
    clientId: "bench-client",
    clientSecret: "bench-secret",
  });
  const queue = createWebhookQueue({
    connection: settings.redisUrl,
    client,
    name: settings.queueName,
    onSessionEnded: ({ webhookId }) => {
      process.send({ ended: { webhookId, at: performance.timeOrigin + performance.now() } });
    },
    onError: (error, delivery) => {
      process.stderr.write(
        `webhook-worker ${process.pid}: ${delivery ? `delivery ${delivery.webhookId}` : "Redis"}: ${error.code ?? error.name}: ${error.message}\n`,
      );
    },
  });
  await queue.startWorker({ concurrency: settings.concurrency });
  process.on("message", async (message) => {
    if (message !== "stop") return;
    // The order docs/many-instances.md gives: the worker stops (its jobs under way finish with the client open), then the client.
    await queue.close();
    await client.close();
    process.disconnect();
  });
  process.send({ ready: true });
}
