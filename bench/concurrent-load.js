"use strict";
/**
 * Load as the request benchmarks make it: `concurrency` calls kept in flight
 * for a while, counting what completes and the process's own CPU time; and
 * the spread of within-round ratios that their rows report.
 */
const { median, nowMs } = require("./stats.js");

/** Keeps `concurrency` calls in flight for durationMs: requests per second, and this process's CPU time per request. */
async function measure(call, durationMs, concurrency) {
  const cpuBefore = process.cpuUsage();
  const start = nowMs();
  const deadline = start + durationMs;
  let completed = 0;
  const worker = async () => {
    while (nowMs() < deadline) {
      await call();
      completed += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = nowMs() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { rate: completed / (elapsedMs / 1000), cpuMicros: (cpu.user + cpu.system) / completed };
}

/** The median and the quartiles of a list of ratios. */
function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
  return { median: median(values), p25: at(0.25), p75: at(0.75) };
}

module.exports = { measure, spread };
