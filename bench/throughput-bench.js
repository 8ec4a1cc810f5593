"use strict";
/**
 * Benchmark 4, the parent side: runs bench/throughput-client.js (which forks
 * its own stub server) and turns its paired ratios into rows: requests per
 * second against raw undici and openapi-fetch (the goals), and the client's
 * CPU time per request against raw undici (the same comparison, freed of
 * waiting on a shared machine).
 */
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");

async function benchThroughput(flow, { rounds, durationMs, warmupMs }) {
  const settings = {
    modulePath: flow.modulePath,
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
    const flowsmith = `flowsmith, validation ${validation}`;
    const undici = `undici, validation ${validation}`;
    const openapiFetch = `openapi-fetch, validation ${validation}`;
    const title = `4. JSON createSession c=16, validation ${validation}`;
    rows.push(
      rateRow(`${title}: vs raw undici (Pool)`, report, flowsmith, undici, 0.95),
      rateRow(`${title}: vs openapi-fetch`, report, flowsmith, openapiFetch, 3),
      cpuRow(`${title}: client CPU per request vs raw undici (Pool)`, report, flowsmith, undici),
    );
  }
  return { rows, details: details(report) };
}

function localesOf(document) {
  const metadata = document.components?.schemas?.Metadata;
  return metadata?.properties?.locale?.enum ?? ["en", "de", "fr", "pl", "it", "es"];
}

/** The ratio is the median of the within-round ratios, not the ratio of the medians shown beside it. */
function rateRow(benchmark, report, phase, baselinePhase, goal) {
  const rate = report.rates[phase];
  const value = report.paired[`${phase} / ${baselinePhase}`]?.rate.median ?? Number.NaN;
  return {
    benchmark,
    flowsmith: rate === undefined ? "n/a" : `${rate.toFixed(0)} req/s`,
    baseline: `${baselinePhase.split(",")[0]} ${report.rates[baselinePhase].toFixed(0)} req/s`,
    ratio: value,
    goal: `>= ${goal}`,
    compared: true,
    met: Number.isFinite(value) ? value >= goal : null,
  };
}

/** Their CPU time per request over flowsmith's: above 1 when flowsmith costs less. No goal of its own. */
function cpuRow(benchmark, report, phase, baselinePhase) {
  const micros = report.cpuMicrosPerRequest[phase];
  return {
    benchmark,
    flowsmith: micros === undefined ? "n/a" : `${micros.toFixed(1)} µs`,
    baseline: `${baselinePhase.split(",")[0]} ${report.cpuMicrosPerRequest[baselinePhase].toFixed(1)} µs`,
    ratio: report.paired[`${phase} / ${baselinePhase}`]?.cpu.median ?? Number.NaN,
    goal: "-",
    compared: true,
    met: null,
  };
}

function details(report) {
  const phases = Object.keys(report.rates);
  const list = (format) => phases.map((phase) => `${phase} ${format(phase)}`).join("; ");
  const quartiles = ({ p25, p75 }) => `${p25.toFixed(2)}-${p75.toFixed(2)}`;
  const pairs = Object.entries(report.paired)
    .filter(([pair]) => pair.includes("/ undici"))
    .map(([pair, { rate, cpu }]) => `${pair}: req/s ${quartiles(rate)}, CPU per request ${quartiles(cpu)}`);
  return [
    `Throughput, requests per second (median): ${list((phase) => report.rates[phase].toFixed(0))}.`,
    `Client CPU time per request (median): ${list((phase) => `${report.cpuMicrosPerRequest[phase].toFixed(1)} µs`)}.`,
    `Within-round ratios against raw undici, middle half of the rounds: ${pairs.join("; ")}.`,
    `Stub server CPU (share of one core) while serving: ${list((phase) => `${(report.serverCpuShare[phase] * 100).toFixed(0)}%`)}.`,
  ];
}

module.exports = { benchThroughput };
