"use strict";
/**
 * Benchmark 4, the client process: JSON session creation at concurrency 16
 * over loopback through flowsmith's generated createSession, the fastest
 * hand-written undici client (bench/undici-baseline.js: a Pool for the origin,
 * parsed once), and openapi-fetch, each with the flow's request validation
 * on and off. The stub server runs in its own process (forked from here, so
 * its CPU can be sampled per phase). Prints one JSON report line.
 * Usage: node bench/throughput-client.js '<json settings>'
 */
const undici = require("undici");
const { createUndiciSender } = require("./undici-baseline.js");
const { startStubServer } = require("./stub-server-handle.js");
const { loadFlowsmith, loadRequestValidator, USER_AGENT } = require("./flowsmith-side.js");
const { median, nowMs, rotated } = require("./stats.js");

const CONCURRENCY = 16;

main(JSON.parse(process.argv[2])).catch((error) => {
  process.stderr.write(`throughput-client: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});

async function main(settings) {
  const server = await startStubServer();
  try {
    const { tools, close } = await prepareTools(settings, server);
    const phases = Object.keys(tools);
    const rates = Object.fromEntries(phases.map((phase) => [phase, []]));
    const serverCpu = Object.fromEntries(phases.map((phase) => [phase, []]));
    for (const phase of phases) await measure(tools[phase], settings.warmupMs);
    for (let round = 0; round < settings.rounds; round += 1) {
      // Rotating alone keeps the cyclic order, so each tool would always follow the same neighbour
      // (undici after flowsmith, one of them after the slow openapi-fetch); every other round runs backwards.
      const order = round % 2 === 0 ? phases : [...phases].reverse();
      for (const phase of rotated(order, Math.floor(round / 2))) {
        await server.reset();
        const { completed, elapsedMs } = await measure(tools[phase], settings.durationMs);
        const stats = await server.stats();
        rates[phase].push(completed / (elapsedMs / 1000));
        serverCpu[phase].push(stats.cpuShare);
      }
    }
    const summary = (table) => Object.fromEntries(phases.map((phase) => [phase, median(table[phase])]));
    process.stdout.write(`${JSON.stringify({ rates: summary(rates), serverCpuShare: summary(serverCpu) })}\n`);
    await close();
  } finally {
    await server.close();
  }
}

/** Each tool is a function that creates one session and throws unless it got a 201; close() ends flowsmith's client. */
async function prepareTools(settings, server) {
  const flowsmith = loadFlowsmith(settings.modulePath, settings.locales);
  const validate = loadRequestValidator(settings.modulePath, settings.document);
  const body = settings.body;
  const client = flowsmith.createClient(server, settings.environment);
  const token = await fetchToken(server.authUrl);
  const headers = { authorization: `Bearer ${token}`, "user-agent": USER_AGENT, "content-type": "application/json" };
  const { default: createFetchClient } = await import("openapi-fetch");
  const fetchClient = createFetchClient({ baseUrl: server.baseUrl, headers });
  const validated = (send) => (request) => {
    if (!validate(request)) throw new Error(`request invalid: ${JSON.stringify(validate.errors)}`);
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

async function fetchToken(authUrl) {
  const response = await undici.request(`${authUrl}/oidc/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": USER_AGENT },
    body: "grant_type=client_credentials&client_id=bench&client_secret=bench",
  });
  return (await response.body.json()).access_token;
}

/** Keeps CONCURRENCY calls in flight for durationMs; returns how many completed, and in how long. */
async function measure(call, durationMs) {
  const start = nowMs();
  const deadline = start + durationMs;
  let completed = 0;
  const worker = async () => {
    while (nowMs() < deadline) {
      await call();
      completed += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { completed, elapsedMs: nowMs() - start };
}
