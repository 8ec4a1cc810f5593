"use strict";
/**
 * Benchmark 7, the parent side: bench/runtime-memory-client.js for flowsmith
 * and for the hand-written undici baseline, each in a fresh process (so the
 * memory is the tool's own), turned into rows: settled RSS and live heap
 * after the first 1 000 calls and after all of them.
 */
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");

const MB = 1024 * 1024;
/**
 * "Flat": the runtime may add at most this much to the baseline's RSS growth
 * (V8 sizes its heap up under load for both), and keep at most this much more
 * alive after a full GC.
 */
const EXTRA_RSS_GOAL_MB = 5;
const LIVE_GOAL_MB = 2;

async function benchRuntimeMemory(flow, { firstCalls, totalCalls }) {
  // The first reading after firstCalls, then four more evenly up to the total: the curve shows whether it levels off.
  const checkpoints = [
    firstCalls,
    ...[1, 2, 3, 4].map((quarter) => Math.round(firstCalls + ((totalCalls - firstCalls) * quarter) / 4)),
  ];
  const reports = {};
  for (const tool of ["flowsmith", "undici"]) {
    const settings = {
      tool,
      modulePath: flow.modulePath,
      environment: flow.environment,
      sessionsPath: flow.sessionsPath,
      body: flow.requestBody,
      checkpoints,
    };
    const script = require.resolve("./runtime-memory-client.js");
    reports[tool] = lastJsonLine((await runNodeOrThrow(["--expose-gc", script, JSON.stringify(settings)])).stdout);
  }
  const count = (n) => n.toLocaleString("en-US").replace(/,/g, " ");
  const growth = (tool, key) => {
    const readings = reports[tool].readings;
    return (readings[readings.length - 1][key] - readings[0][key]) / MB;
  };
  const span = (tool, key) => {
    const readings = reports[tool].readings;
    return `${mb(readings[0][key])} → ${mb(readings[readings.length - 1][key])} (${signed(growth(tool, key))})`;
  };
  const complete = reports.flowsmith.sessions === totalCalls;
  const row = (label, key, goal, met) => ({
    benchmark: `10. Runtime memory, createSession x ${count(totalCalls)}: ${label} after ${count(firstCalls)} → ${count(totalCalls)} vs raw undici`,
    flowsmith: span("flowsmith", key),
    baseline: `undici ${span("undici", key)}`,
    ratio: Number.NaN,
    goal,
    compared: false,
    met: complete && met,
  });
  return {
    rows: [
      row(
        "settled RSS",
        "rss",
        `growth <= undici's + ${EXTRA_RSS_GOAL_MB} MB`,
        growth("flowsmith", "rss") <= growth("undici", "rss") + EXTRA_RSS_GOAL_MB,
      ),
      row("live heap", "heapUsed", `growth <= ${LIVE_GOAL_MB} MB`, growth("flowsmith", "heapUsed") <= LIVE_GOAL_MB),
    ],
    details: ["flowsmith", "undici"].map(
      (tool) =>
        `Runtime memory, ${tool}: ${reports[tool].sessions} sessions, ${reports[tool].tokenRequests} token request(s); ` +
        `settled RSS / live heap (full GC before each reading) after ` +
        reports[tool].readings.map((r) => `${count(r.calls)} calls ${mb(r.rss)} / ${mb(r.heapUsed)}`).join(", ") +
        ".",
    ),
  };
}

function mb(bytes) {
  return `${(bytes / MB).toFixed(1)} MB`;
}

function signed(value) {
  return `${value >= 0 ? "+" : ""}${value.toFixed(1)} MB`;
}

module.exports = { benchRuntimeMemory };
