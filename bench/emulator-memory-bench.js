"use strict";
/**
 * Benchmark 8: the emulator's memory under load. The emulator runs in its
 * own process; sessions of the JSON sample flow are created at full speed
 * (concurrency 16), and its RSS after a full GC is read after the first
 * `firstSessions` and after `totalSessions`. With maxSessions at its default
 * (10 000) the store stops growing there, so the two must stay within 50 MB.
 */
const {
  startEmulatorProcess,
  stagingToken,
  amlSessionsPath,
  AML_REQUEST,
  USER_AGENT,
} = require("./emulator-handle.js");
const { sessionLoad } = require("./session-load.js");

const MB = 1024 * 1024;
const GOAL_MB = 50;

async function benchEmulatorMemory({ firstSessions, totalSessions }) {
  const emulator = await startEmulatorProcess();
  try {
    const headers = {
      authorization: `Bearer ${await stagingToken(emulator)}`,
      "user-agent": USER_AGENT,
      "content-type": "application/json",
    };
    const load = sessionLoad({ origin: emulator.baseUrl, path: amlSessionsPath(), headers, body: AML_REQUEST });
    const atStart = await emulator.memory();
    await load.run({ count: firstSessions });
    const afterFirst = await emulator.memory();
    const rest = await load.run({ count: totalSessions - firstSessions });
    const afterAll = await emulator.memory();
    await load.close();
    const growthMb = (afterAll.rss - afterFirst.rss) / MB;
    const shown = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
    return {
      rows: [
        {
          benchmark: `8. Emulator RSS after ${totalSessions} sessions vs after ${firstSessions} (own process, c=16)`,
          flowsmith: `${shown(afterAll.rss)} (${growthMb >= 0 ? "+" : ""}${growthMb.toFixed(1)} MB)`,
          baseline: `${shown(afterFirst.rss)} after ${firstSessions}`,
          ratio: Number.NaN,
          goal: `<= +${GOAL_MB} MB`,
          compared: false,
          met: growthMb <= GOAL_MB,
        },
      ],
      details: [
        `Emulator memory (RSS after a full GC): ${shown(atStart.rss)} at start, ${shown(afterFirst.rss)} after ${firstSessions} sessions, ` +
          `${shown(afterAll.rss)} after ${totalSessions} (difference ${growthMb.toFixed(1)} MB); ` +
          `live JS heap ${shown(afterFirst.heapUsed)} and ${shown(afterAll.heapUsed)}; ` +
          `the last ${totalSessions - firstSessions} were created at ${((rest.completed / rest.elapsedMs) * 1000).toFixed(0)} sessions/s; ` +
          "the emulator keeps at most 10000 sessions (maxSessions), evicting the oldest.",
      ],
    };
  } finally {
    await emulator.close();
  }
}

module.exports = { benchEmulatorMemory };
