"use strict";
/**
 * Benchmark 4b: why Node keeps its own transport. The runtime sends through
 * undici's dispatcher on Node and through the platform's fetch everywhere
 * else (runtime/exchange/transport.ts). This row runs the same JSON
 * createSession, with the flow's checks on, through both on the same Node:
 * bench/transport-client.mjs in a process of its own per slot, once as Node
 * gets the package and once with `--conditions=edge-light` (the Web
 * platform's build, Node's own fetch), in turns; the ratio is the median of
 * the within-round ratios of requests per second, fetch over undici. Below
 * 1, undici is the faster; the second transport is kept only while it is
 * (bench/analysis.md, "Two transports").
 */
const path = require("node:path");
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");
const { startStubServer } = require("./stub-server-handle.js");
const { median, rotated } = require("./stats.js");

const CLIENT = path.join(__dirname, "transport-client.mjs");
const TRANSPORTS = { undici: [], fetch: ["--conditions=edge-light"] };

async function benchTransports(flow, { rounds, durationMs, warmupMs }) {
  const server = await startStubServer();
  try {
    const { spec } = require(flow.modulePath);
    const settings = JSON.stringify({
      baseUrl: server.baseUrl,
      authUrl: server.authUrl,
      spec,
      body: flow.requestBody,
      concurrency: 16,
      durationMs,
      warmupMs,
    });
    const slots = { undici: [], fetch: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const transport of rotated(Object.keys(TRANSPORTS), round)) {
        const { stdout } = await runNodeOrThrow([...TRANSPORTS[transport], CLIENT, settings]);
        slots[transport].push(lastJsonLine(stdout));
      }
    }
    const ratio = median(slots.fetch.map((slot, round) => slot.rate / slots.undici[round].rate));
    const cpuRatio = median(slots.fetch.map((slot, round) => slot.cpuMicros / slots.undici[round].cpuMicros));
    const rate = (transport) => median(slots[transport].map((slot) => slot.rate));
    return {
      rows: [
        {
          benchmark: "4b. JSON createSession c=16 on Node, the Web platform's transport (fetch) vs Node's (undici)",
          flowsmith: `fetch ${rate("fetch").toFixed(0)} req/s`,
          baseline: `undici ${rate("undici").toFixed(0)} req/s`,
          ratio,
          goal: "(the reason for two transports)",
          compared: true,
          met: null,
        },
      ],
      details: [
        `Transports on Node (${rounds} rounds, medians): fetch ${rate("fetch").toFixed(0)} req/s, undici ${rate("undici").toFixed(0)} req/s; ` +
          `client CPU per request, fetch over undici: ${cpuRatio.toFixed(2)}.`,
      ],
    };
  } finally {
    await server.close();
  }
}

module.exports = { benchTransports };
