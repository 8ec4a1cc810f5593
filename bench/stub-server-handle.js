"use strict";
/** Starts bench/stub-server.js in its own process and talks to it over IPC. */
const { fork } = require("node:child_process");
const path = require("node:path");

function startStubServer({ tokenDelayMs = 0 } = {}) {
  const child = fork(path.join(__dirname, "stub-server.js"), [], {
    env: { ...process.env, BENCH_TOKEN_DELAY_MS: String(tokenDelayMs) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiters = [];
  child.on("message", (message) => {
    if (message.stats) waiters.shift()?.(message.stats);
  });
  const ask = (command) =>
    new Promise((resolve) => {
      waiters.push(resolve);
      child.send(command);
    });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`stub server exited early (${code})`)));
    child.once("message", (message) => {
      if (!message.ready) return reject(new Error("stub server did not report ready"));
      resolve({
        ...message.ready,
        pid: child.pid,
        /** Zeroes the counters and the CPU baseline. */
        reset: () => ask("reset"),
        /** Counters and CPU time since the last reset. */
        stats: () => ask("stats"),
        close: () =>
          new Promise((done) => {
            child.removeAllListeners("exit");
            child.once("exit", () => done());
            child.disconnect();
          }),
      });
    });
  });
}

module.exports = { startStubServer };
