"use strict";
/**
 * Benchmark 6: 200 concurrent createSession calls on a cold client. The stub
 * server's token endpoint answers after a delay so the calls really overlap;
 * its counter says how many token requests arrived.
 * Usage: node bench/single-flight-client.js '<json settings>'
 */
const { startStubServer } = require("./stub-server-handle.js");
const { loadFlowsmith } = require("./flowsmith-side.js");

main(JSON.parse(process.argv[2])).catch((error) => {
  process.stderr.write(`single-flight-client: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});

async function main(settings) {
  const server = await startStubServer({ tokenDelayMs: 50 });
  try {
    const flowsmith = loadFlowsmith(settings.modulePath);
    const client = flowsmith.createClient(server, settings.environment);
    await server.reset();
    const calls = Array.from({ length: settings.calls }, () => flowsmith.createSession(client, settings.body));
    const outcomes = await Promise.allSettled(calls);
    const stats = await server.stats();
    const failed = outcomes.filter((outcome) => outcome.status === "rejected");
    const report = {
      calls: settings.calls,
      tokenRequests: stats.tokenRequests,
      sessionRequests: stats.sessionRequests,
      failed: failed.length,
      firstFailure: failed[0] ? String(failed[0].reason) : undefined,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    await client.close?.();
  } finally {
    await server.close();
  }
}
