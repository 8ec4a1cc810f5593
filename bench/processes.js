"use strict";
/** Child processes for the benchmarks: each compared tool runs in its own process, timed from spawn to exit. */
const { spawn } = require("node:child_process");
const { nowMs } = require("./stats.js");

/** Runs a node script; resolves with wall time, exit code and output. Never rejects on a non-zero exit. */
function runNode(args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const start = nowMs();
    const child = spawn(process.execPath, args, { cwd, env: env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    const stdout = [];
    const stderr = [];
    child.stdout.on("data", (chunk) => stdout.push(chunk));
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    child.once("error", reject);
    child.once("close", (code) => {
      resolve({
        ms: nowMs() - start,
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
  });
}

/** Like runNode, but a non-zero exit is an error that carries the child's output. */
async function runNodeOrThrow(args, options) {
  const result = await runNode(args, options);
  if (result.code !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`\`node ${args.join(" ")}\` exited with ${result.code}:\n${output}`);
  }
  return result;
}

/** The last line of stdout that parses as JSON: how measuring children report back. */
function lastJsonLine(stdout) {
  const lines = stdout.trim().split("\n").reverse();
  for (const line of lines) {
    try {
      return JSON.parse(line);
    } catch {
      // Not the report line; keep looking.
    }
  }
  throw new Error(`no JSON report in child output:\n${stdout.slice(-500)}`);
}

module.exports = { runNode, runNodeOrThrow, lastJsonLine };
