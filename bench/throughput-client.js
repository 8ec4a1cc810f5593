"use strict";
/**
 * Benchmark 4, the client process: JSON session creation at concurrency 16
 * over loopback through flowsmith's generated createSession, the fastest
 * hand-written undici client (bench/undici-baseline.js: a Pool for the origin,
 * parsed once), and openapi-fetch, each with the flow's request validation
 * on and off. The stub server runs in its own process (forked from here, so
 * its CPU can be sampled per phase). Prints one JSON report line.
 *
 * On a small shared machine the load from other work changes from one second
 * to the next, and a tool's rate moved by 2x between runs. So the tools take
 * short turns (slots), each flowsmith phase right beside its undici baseline
 * (either first, in turn), and each comparison is the median over rounds of
 * the ratio within a round: tools compared under the same load. Besides
 * requests per second, each slot records the client's own CPU time per
 * request (process.cpuUsage), which waiting on the server or on other
 * processes does not inflate.
 * Usage: node bench/throughput-client.js '<json settings>'
 */
const { createUndiciSender, fetchToken } = require("./undici-baseline.js");
const { startStubServer } = require("./stub-server-handle.js");
const { loadFlowsmith, loadRequestValidator, USER_AGENT } = require("./flowsmith-side.js");
const { measure, spread } = require("./concurrent-load.js");
const { median } = require("./stats.js");

const CONCURRENCY = 16;

/** Phases that run side by side in each round: flowsmith, its undici baseline, openapi-fetch. */
const GROUPS = ["off", "on"].map((validation) => [
  `flowsmith, validation ${validation}`,
  `undici, validation ${validation}`,
  `openapi-fetch, validation ${validation}`,
]);

main(JSON.parse(process.argv[2])).catch((error) => {
  process.stderr.write(`throughput-client: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});

async function main(settings) {
  const server = await startStubServer();
  try {
    const { tools, close } = await prepareTools(settings, server);
    const phases = GROUPS.flat().filter((phase) => tools[phase]);
    const slots = Object.fromEntries(phases.map((phase) => [phase, []]));
    for (const phase of phases) await measure(tools[phase], settings.warmupMs, CONCURRENCY);
    for (let round = 0; round < settings.rounds; round += 1) {
      for (const phase of orderOfRound(round).filter((name) => tools[name])) {
        await server.reset();
        const slot = await measure(tools[phase], settings.durationMs, CONCURRENCY);
        const stats = await server.stats();
        slots[phase].push({ ...slot, serverCpuShare: stats.cpuShare });
      }
    }
    process.stdout.write(`${JSON.stringify(summarize(phases, slots))}\n`);
    await close();
  } finally {
    await server.close();
  }
}

/**
 * The groups swap places every round and the phases in a group turn round
 * every other round: flowsmith and its baseline stay neighbours, and each
 * goes first as often as the other.
 */
function orderOfRound(round) {
  const groups = round % 2 === 0 ? GROUPS : [...GROUPS].reverse();
  const backwards = Math.floor(round / 2) % 2 === 1;
  return groups.flatMap((group) => (backwards ? [...group].reverse() : group));
}

/** Medians per phase, and for each pair the median (and quartiles) of the within-round ratios. */
function summarize(phases, slots) {
  const perPhase = (pick) => Object.fromEntries(phases.map((phase) => [phase, median(slots[phase].map(pick))]));
  const paired = {};
  for (const phase of phases.filter((name) => name.startsWith("flowsmith"))) {
    for (const other of phases.filter((name) => !name.startsWith("flowsmith") && name.endsWith(phase.split(",")[1]))) {
      const rounds = slots[phase].map((slot, round) => ({ mine: slot, theirs: slots[other][round] }));
      paired[`${phase} / ${other}`] = {
        // Higher is better for flowsmith in both: its rate over theirs, their CPU per request over its.
        rate: spread(rounds.map(({ mine, theirs }) => mine.rate / theirs.rate)),
        cpu: spread(rounds.map(({ mine, theirs }) => theirs.cpuMicros / mine.cpuMicros)),
      };
    }
  }
  return {
    rates: perPhase((slot) => slot.rate),
    cpuMicrosPerRequest: perPhase((slot) => slot.cpuMicros),
    serverCpuShare: perPhase((slot) => slot.serverCpuShare),
    paired,
  };
}

/** Each tool is a function that creates one session and throws unless it got a 201; close() ends flowsmith's client. */
async function prepareTools(settings, server) {
  const flowsmith = loadFlowsmith(settings.modulePath, settings.locales);
  const issuesOf = loadRequestValidator(settings.modulePath);
  const body = settings.body;
  const client = flowsmith.createClient(server, settings.environment);
  const token = await fetchToken(server.authUrl);
  const headers = { authorization: `Bearer ${token}`, "user-agent": USER_AGENT, "content-type": "application/json" };
  const { default: createFetchClient } = await import("openapi-fetch");
  const fetchClient = createFetchClient({ baseUrl: server.baseUrl, headers });
  const validated = (send) => (request) => {
    const issues = issuesOf(request);
    if (issues.length > 0) throw new Error(`request invalid: ${JSON.stringify(issues)}`);
    return send(request);
  };
  const undiciSender = await createUndiciSender({ ...server, sessionsPath: settings.sessionsPath });
  const viaUndici = undiciSender.send;
  const viaOpenapiFetch = async (request) => {
    const { data, response } = await fetchClient.POST(settings.sessionsPath, { body: request });
    if (response.status !== 201) throw new Error(`openapi-fetch: status ${response.status}`);
    return data;
  };
  const tools = {
    "flowsmith, validation on": () => flowsmith.createSession(client, body),
    "undici, validation on": () => validated(viaUndici)(body),
    "openapi-fetch, validation on": () => validated(viaOpenapiFetch)(body),
    "undici, validation off": () => viaUndici(body),
    "openapi-fetch, validation off": () => viaOpenapiFetch(body),
  };
  if (flowsmith.createSessionUnvalidated) {
    tools["flowsmith, validation off"] = () => flowsmith.createSessionUnvalidated(client, body);
  }
  return { tools, close: async () => Promise.all([client.close?.(), undiciSender.close()]) };
}
