"use strict";
/** Benchmark 13, the parent side: one run of bench/webhook-queue-client.js, as rows against the inline handler. */
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");

async function benchWebhookQueue({ deliveries, warmup }) {
  const settings = { deliveries, warmup, workers: 3, workerConcurrency: 8 };
  const script = require.resolve("./webhook-queue-client.js");
  const report = lastJsonLine((await runNodeOrThrow([script, JSON.stringify(settings)])).stdout);
  const { inline, queue } = report;
  const ms = (value) => `${value.toFixed(1)} ms`;
  const title = `13. Webhooks c=16, ${deliveries} deliveries: Redis queue, ${report.workers} worker processes`;
  return {
    rows: [
      {
        benchmark: `${title}: deliveries per second vs inline`,
        flowsmith: `${queue.rate.toFixed(0)} deliveries/s`,
        baseline: `inline ${inline.rate.toFixed(0)} deliveries/s`,
        ratio: queue.rate / inline.rate,
        goal: "(for reference)",
        compared: true,
        met: null,
      },
      {
        benchmark: `${title}: delivery → onSessionEnded, median and p99`,
        flowsmith: `${ms(queue.medianMs)}, p99 ${ms(queue.p99Ms)}`,
        baseline: `inline ${ms(inline.medianMs)}, p99 ${ms(inline.p99Ms)}`,
        ratio: Number.NaN,
        goal: "(for reference)",
        compared: false,
        met: null,
      },
    ],
    details: [
      `Webhook queue (benchmark 13): added latency from delivery to onSessionEnded, queue minus inline: median ${ms(queue.medianMs - inline.medianMs)}, p99 ${ms(queue.p99Ms - inline.p99Ms)}; ` +
        `each worker process runs 8 jobs at once; the inline handler answers 204 before it reads the session, the queue's only once Redis has the job; ` +
        `deliveries answered 503 and retried as a sender does: queue ${queue.retried503}, inline ${inline.retried503}.`,
    ],
  };
}

module.exports = { benchWebhookQueue };
