"use strict";
/** Benchmark 12, the parent side: one run of bench/token-store-client.js, as a row against the in-memory store. */
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");

const GOAL = 0.95;

async function benchTokenStore(flow, { rounds, durationMs, warmupMs }) {
  const settings = {
    modulePath: flow.modulePath,
    environment: flow.environment,
    body: flow.requestBody,
    rounds,
    durationMs,
    warmupMs,
  };
  const script = require.resolve("./token-store-client.js");
  const report = lastJsonLine((await runNodeOrThrow([script, JSON.stringify(settings)])).stdout);
  const memory = report.rates["in-memory token store"];
  const redis = report.rates["Redis token store"];
  const quartiles = `${report.ratio.p25.toFixed(2)}-${report.ratio.p75.toFixed(2)}`;
  return {
    rows: [
      {
        benchmark: "12. JSON createSession c=16: Redis token store vs in-memory",
        flowsmith: `${redis.toFixed(0)} req/s`,
        baseline: `in-memory ${memory.toFixed(0)} req/s`,
        ratio: report.ratio.median,
        goal: `>= ${GOAL}`,
        compared: true,
        met: Number.isFinite(report.ratio.median) ? report.ratio.median >= GOAL : null,
      },
    ],
    details: [
      `Token stores (benchmark 12): ${report.tokenRequests} token request(s) in all; within-round ratios Redis / in-memory, middle half of the rounds: ${quartiles}.`,
    ],
  };
}

module.exports = { benchTokenStore };
