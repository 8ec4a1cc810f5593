"use strict";
/**
 * Benchmark 15: Node cold start. A fresh process makes one token request and one
 * createSession against a loopback server (bench/cold-start-server.js), as a serverless
 * function does on its first request; its whole CPU time (bench/cold-start-client.js) with
 * flowsmith against openapi-fetch making the same two calls, and the Stainless SDK
 * (bench/stainless-sdk.js) making its own. Each round runs one process of each tool, in an
 * order that turns each round; each ratio is the median over rounds of the ratio within a
 * round (the processes of one round ran under the same load).
 */
const path = require("node:path");
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");
const { startColdStartServer } = require("./cold-start-server.js");
const { stainlessSdkOrReason, STAINLESS_SDK } = require("./stainless-sdk.js");
const { median, rotated } = require("./stats.js");

const NAME = "15. Node cold start, one token + one createSession: whole-process CPU";
const CLIENT = path.join(__dirname, "cold-start-client.js");
const GOAL = 1.25;

/** `flow`: the JSON flow of bench/run.js (its compiled module and request). */
async function benchColdStart(flow, { rounds }) {
  const stainless = await stainlessSdkOrReason();
  const peer = typeof stainless === "string" ? undefined : STAINLESS_SDK.name;
  const tools = ["flowsmith", "openapi-fetch", ...(peer ? [peer] : [])];
  const server = await startColdStartServer();
  try {
    const settings = {
      authUrl: server.authUrl,
      baseUrl: server.baseUrl,
      request: flow.requestBody,
      sessionsPath: flow.sessionsPath,
      modulePath: flow.modulePath,
      stainlessPath: peer ? stainless.modulePath : undefined,
    };
    // One unmeasured process each first: the files are in the OS's cache, as on a warm host.
    for (const tool of tools) await measure(tool, settings);
    const cpu = Object.fromEntries(tools.map((tool) => [tool, []]));
    const wall = Object.fromEntries(tools.map((tool) => [tool, []]));
    for (let round = 0; round < rounds; round += 1) {
      for (const tool of rotated(tools, round)) {
        const { cpuMs, wallMs } = await measure(tool, settings);
        cpu[tool].push(cpuMs);
        wall[tool].push(wallMs);
      }
    }
    const counts = server.counts();
    const runs = tools.length * (rounds + 1);
    if (counts.token !== runs || counts.session + counts.checkout !== runs || counts.refused !== 0) {
      throw new Error(
        `benchmark 15: ${runs} processes made ${JSON.stringify(counts)} requests, not one token request and one call each`,
      );
    }
    return report(tools, cpu, wall, rounds, typeof stainless === "string" ? stainless : undefined);
  } finally {
    await server.close();
  }
}

async function measure(tool, settings) {
  const { stdout } = await runNodeOrThrow([CLIENT, JSON.stringify({ ...settings, tool })]);
  return lastJsonLine(stdout);
}

function report(tools, cpu, wall, rounds, skipped) {
  const [, openapiFetch, peer] = tools;
  const within = cpu.flowsmith.map((ours, round) => ours / cpu[openapiFetch][round]);
  const ms = (tool) => `${median(cpu[tool]).toFixed(0)} ms CPU`;
  const rows = [
    {
      benchmark: `${NAME}: vs openapi-fetch`,
      flowsmith: ms("flowsmith"),
      baseline: `openapi-fetch ${ms(openapiFetch)}`,
      ratio: median(within),
      goal: `<= ${GOAL}`,
      compared: true,
      met: median(within) <= GOAL,
    },
  ];
  if (peer) {
    const peerWithin = cpu[peer].map((theirs, round) => theirs / cpu[openapiFetch][round]);
    rows.push({
      benchmark: `${NAME}: ${peer} (Stainless) vs openapi-fetch`,
      flowsmith: `${peer} ${ms(peer)}`,
      baseline: `openapi-fetch ${ms(openapiFetch)}`,
      ratio: median(peerWithin),
      goal: "(for reference)",
      compared: true,
      met: null,
    });
  }
  const details = [
    `Node cold start (${rounds} rounds, medians): whole-process CPU ${tools.map((tool) => `${tool} ${median(cpu[tool]).toFixed(1)} ms`).join(", ")}; ` +
      `wall time to the answer ${tools.map((tool) => `${tool} ${median(wall[tool]).toFixed(1)} ms`).join(", ")}; ` +
      `flowsmith / openapi-fetch within a round, middle half: ${middleHalf(within)}.` +
      (skipped ? ` The Stainless SDK was not measured: ${skipped}.` : ""),
  ];
  return { rows, details };
}

function middleHalf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const quarter = Math.floor(sorted.length / 4);
  return `${sorted[quarter].toFixed(2)}-${sorted[sorted.length - 1 - quarter].toFixed(2)}`;
}

module.exports = { benchColdStart };
