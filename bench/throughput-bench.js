"use strict";
/**
 * Benchmark 4, the parent side: runs bench/throughput-client.js (which forks
 * its own stub server) and turns its medians into ratio rows.
 */
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");
const { ratio } = require("./stats.js");

async function benchThroughput(flow, { rounds, durationMs, warmupMs }) {
  const settings = {
    modulePath: flow.modulePath,
    document: flow.document,
    locales: localesOf(flow.document),
    body: flow.requestBody,
    environment: flow.environment,
    sessionsPath: flow.sessionsPath,
    rounds,
    durationMs,
    warmupMs,
  };
  const script = require.resolve("./throughput-client.js");
  const report = lastJsonLine((await runNodeOrThrow([script, JSON.stringify(settings)])).stdout);
  const rows = [];
  for (const validation of ["off", "on"]) {
    const flowsmith = report.rates[`flowsmith, validation ${validation}`];
    rows.push(
      row(`4. JSON createSession c=16, validation ${validation}: vs raw undici (Pool)`, flowsmith, report, `undici, validation ${validation}`, 0.95),
      row(`4. JSON createSession c=16, validation ${validation}: vs openapi-fetch`, flowsmith, report, `openapi-fetch, validation ${validation}`, 3),
    );
  }
  return { rows, serverCpuShare: report.serverCpuShare, rates: report.rates };
}

function localesOf(document) {
  const metadata = document.components?.schemas?.Metadata;
  return metadata?.properties?.locale?.enum ?? ["en", "de", "fr", "pl", "it", "es"];
}

function row(benchmark, flowsmithRate, report, baselinePhase, goal) {
  const baselineRate = report.rates[baselinePhase];
  const value = ratio(flowsmithRate, baselineRate);
  return {
    benchmark,
    flowsmith: flowsmithRate === undefined ? "n/a" : `${flowsmithRate.toFixed(0)} req/s`,
    baseline: `${baselinePhase.split(",")[0]} ${baselineRate.toFixed(0)} req/s`,
    ratio: value,
    goal: `>= ${goal}`,
    compared: true,
    met: Number.isFinite(value) ? value >= goal : null,
  };
}

module.exports = { benchThroughput };
