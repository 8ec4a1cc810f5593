"use strict";
/** Benchmark 6, the parent side: one run of bench/single-flight-client.js. */
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");

async function benchSingleFlight(flow, { calls }) {
  const settings = { modulePath: flow.modulePath, environment: flow.environment, body: flow.requestBody, calls };
  const script = require.resolve("./single-flight-client.js");
  const report = lastJsonLine((await runNodeOrThrow([script, JSON.stringify(settings)])).stdout);
  const failures = report.failed > 0 ? `, ${report.failed} calls failed (${report.firstFailure})` : "";
  return [
    {
      benchmark: `6. Token single-flight, ${calls} concurrent calls, cold client`,
      flowsmith: `${report.tokenRequests} token request(s), ${report.sessionRequests} sessions${failures}`,
      baseline: "-",
      ratio: Number.NaN,
      goal: "exactly 1 token request",
      compared: false,
      met: report.tokenRequests === 1 && report.failed === 0,
    },
  ];
}

module.exports = { benchSingleFlight };
