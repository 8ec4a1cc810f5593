"use strict";
/**
 * Benchmark 7, one tool in its own process: createSession calls at
 * concurrency 16 against the stub server (flowsmith: one client through the
 * generated module, validation on; undici: the hand-written baseline of
 * bench/undici-baseline.js), and this process's memory after a full GC at
 * each checkpoint (a count of calls done: 1 000, then on to the total). A
 * runtime that kept something per call (a token, a step, a listener, an
 * error) would grow with the count; V8 growing its young generation under
 * load raises both tools alike, which is why undici runs too.
 * Usage: node --expose-gc bench/runtime-memory-client.js '<json settings>'
 */
const { startStubServer } = require("./stub-server-handle.js");
const { loadFlowsmith } = require("./flowsmith-side.js");
const { createUndiciSender } = require("./undici-baseline.js");

const CONCURRENCY = 16;

main(JSON.parse(process.argv[2])).catch((error) => {
  process.stderr.write(`runtime-memory-client: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});

async function main(settings) {
  const server = await startStubServer();
  try {
    const { call, close } = await prepare(settings, server);
    const readings = [];
    let done = 0;
    for (const checkpoint of settings.checkpoints) {
      await runCalls(call, checkpoint - done);
      done = checkpoint;
      readings.push({ calls: done, ...settledMemory() });
    }
    const stats = await server.stats();
    process.stdout.write(
      `${JSON.stringify({ readings, sessions: stats.sessionRequests, tokenRequests: stats.tokenRequests })}\n`,
    );
    await close();
  } finally {
    await server.close();
  }
}

async function prepare(settings, server) {
  if (settings.tool === "undici") {
    const sender = await createUndiciSender({ ...server, sessionsPath: settings.sessionsPath });
    return { call: () => sender.send(settings.body), close: sender.close };
  }
  const flowsmith = loadFlowsmith(settings.modulePath);
  const client = flowsmith.createClient(server, settings.environment);
  return { call: () => flowsmith.createSession(client, settings.body), close: () => client.close() };
}

/** `count` calls, CONCURRENCY at a time; any failure ends the benchmark. */
async function runCalls(call, count) {
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started += 1;
      await call();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** RSS and live heap after full collections: what the process still holds, not garbage waiting for a GC. */
function settledMemory() {
  for (let i = 0; i < 3; i += 1) global.gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}
