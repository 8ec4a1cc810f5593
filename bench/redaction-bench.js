"use strict";
/**
 * Benchmark 16, the parent side: bench/redaction-client.js timing a client's
 * Redactor on error bodies of growing length (realistic and hostile), beside
 * the naive scrub of the raw secret; the row is the growth of the time per
 * character from the middle length to the last, which linear time keeps flat.
 */
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");

/** Time per character may grow at most this much from the second length to the third: flat, as linear time is. */
const LINEAR_GOAL = 2;

async function benchRedaction(settings) {
  const script = require.resolve("./redaction-client.js");
  const report = lastJsonLine((await runNodeOrThrow([script, JSON.stringify(settings)])).stdout);
  const perChar = (runs, key) => runs.map((each) => (each[key] * 1e6) / each.length);
  const realistic = perChar(report.realistic, "ms");
  const hostile = perChar(report.hostile, "ms");
  const growth = Math.max(realistic[2] / realistic[1], hostile[2] / hostile[1]);
  const kib = (n) => `${(n / 1024).toLocaleString("en-US").replace(/,/g, " ")} KiB`;
  const ns = (values) => values.map((value) => value.toFixed(0)).join(" → ");
  return {
    rows: [
      {
        benchmark: `16. Redaction of an error body (client secret and 100 tokens of 1 KiB known): time per character at ${settings.lengths.map(kib).join(" → ")}`,
        flowsmith: `${ns(realistic)} ns per character (realistic JSON); ${ns(hostile)} (hostile escapes)`,
        baseline: `split/join of the raw secret alone (finds no piece, no encoding): ${report.realistic.map((each) => each.naiveMs.toFixed(3)).join(" → ")} ms per body`,
        ratio: growth,
        goal: `per-character time at ${kib(settings.lengths[2])} / at ${kib(settings.lengths[1])} <= ${LINEAR_GOAL} (linear)`,
        compared: false,
        met: growth <= LINEAR_GOAL && report.echoesScrubbed,
      },
    ],
    details: [
      `Redaction (medians of ${settings.rounds} rounds): the search for the client secret and 100 tokens of 1 KiB built in ${report.buildMs.toFixed(0)} ms CPU; ` +
        `the echoed pieces in the realistic body scrubbed: ${report.echoesScrubbed ? "yes" : "NO"}.`,
    ],
  };
}

module.exports = { benchRedaction };
