"use strict";
/**
 * Benchmark 12, the client process: JSON createSession at concurrency 16
 * through the generated client, with the token in the client's memory (the
 * default store) and with the Redis token store (@flowsmith/redis, a real
 * redis-server started here). Each process keeps a local copy of the token,
 * so a call with a valid one should not reach Redis: the two should run at
 * the same rate. They take turns (either first, in turn), and the ratio is the
 * median of the within-round ratios, as in benchmark 4. Prints one JSON line.
 * Usage: node bench/token-store-client.js '<json settings>'
 */
const path = require("node:path");
const { startStubServer } = require("./stub-server-handle.js");
const { loadFlowsmith } = require("./flowsmith-side.js");
const { measure, spread } = require("./concurrent-load.js");
const { median } = require("./stats.js");
const { REPO_ROOT } = require("./workspace.js");
const { startRedis } = require("../test/support/redis-server.js");

const CONCURRENCY = 16;
const PHASES = ["in-memory token store", "Redis token store"];

main(JSON.parse(process.argv[2])).catch((error) => {
  process.stderr.write(`token-store-client: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});

async function main(settings) {
  const server = await startStubServer();
  const redis = await startRedis();
  try {
    const { createRedisTokenStore } = require(path.join(REPO_ROOT, "redis", "dist", "index.js"));
    const flowsmith = loadFlowsmith(settings.modulePath);
    const store = createRedisTokenStore({ redis: redis.url });
    const clients = {
      [PHASES[0]]: flowsmith.createClient(server, settings.environment),
      [PHASES[1]]: flowsmith.createClient(server, settings.environment, { tokenStore: store }),
    };
    const call = (phase) => () => flowsmith.createSession(clients[phase], settings.body);
    for (const phase of PHASES) await measure(call(phase), settings.warmupMs, CONCURRENCY);
    const rates = Object.fromEntries(PHASES.map((phase) => [phase, []]));
    for (let round = 0; round < settings.rounds; round += 1) {
      for (const phase of round % 2 === 0 ? PHASES : [...PHASES].reverse())
        rates[phase].push((await measure(call(phase), settings.durationMs, CONCURRENCY)).rate);
    }
    const stats = await server.stats();
    process.stdout.write(
      `${JSON.stringify({
        rates: Object.fromEntries(PHASES.map((phase) => [phase, median(rates[phase])])),
        ratio: spread(rates[PHASES[1]].map((rate, round) => rate / rates[PHASES[0]][round])),
        tokenRequests: stats.tokenRequests,
      })}\n`,
    );
    await Promise.all(Object.values(clients).map((client) => client.close()));
    await store.close();
  } finally {
    await redis.close();
    await server.close();
  }
}
