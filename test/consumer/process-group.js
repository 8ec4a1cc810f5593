"use strict";
/**
 * Servers the consumer test starts and stops: `npx flowsmith emulator` and the platform hosts
 * (platforms.js). Each runs in its own process group (npx runs the CLI as a grandchild), is
 * ready once its output says so, and is stopped as a group (SIGTERM, then SIGKILL after 10 s).
 */
const { spawn } = require("node:child_process");

const READY_TIMEOUT_MS = 60_000;

/**
 * Starts `command` and resolves once `readyOf(stdout so far)` returns something other than
 * undefined: `{ ready, output(), exited(), waitForOutput(pattern, timeoutMs), stop() }`.
 * `output()` is stdout and stderr as read so far.
 */
async function startGroup(command, args, { cwd, env, name, readyOf }) {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let output = "";
  const listeners = new Set();
  const onData = (chunk, isStdout) => {
    if (isStdout) stdout += chunk;
    output += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", (chunk) => onData(chunk, true));
  child.stderr.on("data", (chunk) => onData(chunk, false));
  let ended = false;
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      ended = true;
      resolve(signal ?? code);
    }),
  );
  const waitFor = (test, timeoutMs, what) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = test();
        if (found !== undefined) finish(() => resolve(found));
      };
      const finish = (settle) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`${name}: ${what} within ${timeoutMs / 1000} s; its output:\n${output}`))),
        timeoutMs,
      );
      listeners.add(check);
      void exited.then((end) =>
        finish(() => reject(new Error(`${name} exited (${end}) before ${what}; its output:\n${output}`))),
      );
      check();
    });
  const stop = async () => {
    signalGroup(child, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
    child.stdout.destroy();
    child.stderr.destroy();
  };
  try {
    const ready = await waitFor(() => readyOf(stdout), READY_TIMEOUT_MS, "no ready line");
    return {
      ready,
      output: () => output,
      exited: () => ended,
      /** Resolves with the first match of `pattern` in the output, read so far or to come. */
      waitForOutput: (pattern, timeoutMs) =>
        waitFor(() => pattern.exec(output) ?? undefined, timeoutMs, `no output matching ${pattern}`),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * `webhook`: `{ port, secret, path? }` (path `/webhooks` unless given) of the receiver on loopback.
 * `given`: the emulator's arguments and environment, instead of quick phases and `webhook`'s URL and secret.
 */
async function withEmulator(dir, webhook, body, given) {
  const sendTo = webhook
    ? [
        "--webhook-url",
        `http://127.0.0.1:${webhook.port}${webhook.path ?? "/webhooks"}`,
        "--webhook-secret",
        webhook.secret,
      ]
    : [];
  const args = given ? given.args : ["--created-ms", "0", "--step-ms", "0", ...sendTo];
  const emulator = await startGroup("npx", ["--no-install", "flowsmith", "emulator", ...args], {
    cwd: dir,
    env: given ? given.env : process.env,
    name: "the emulator",
    readyOf: (stdout) => {
      const line = stdout.split("\n").find((candidate) => candidate.startsWith("{"));
      return line && stdout.includes("\n") ? JSON.parse(line) : undefined;
    },
  });
  try {
    await body(emulator.ready);
  } finally {
    await emulator.stop();
  }
}

module.exports = { startGroup, withEmulator };
