"use strict";
/**
 * Runs a command to its end for the consumer scripts that install other runtimes
 * (on-node-lines.js, on-runtimes.js): its output goes to ours, or with "pipe" is returned.
 */
const { spawn } = require("node:child_process");
const path = require("node:path");

/** `timeoutMs` bounds each command: an install that hangs is stopped there. `env` and `cwd` default to this process's. */
function commandRunner(timeoutMs) {
  return (command, args, env, stdout = "inherit", cwd = undefined) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, args, { env, cwd, stdio: ["ignore", stdout, "inherit"], timeout: timeoutMs });
      let output = "";
      child.stdout?.on("data", (chunk) => (output += chunk));
      child.on("error", reject);
      child.on("close", (code, signal) => {
        if (code === 0) resolve(output);
        else
          reject(new Error(`${path.basename(command)} ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}`));
      });
    });
}

module.exports = { commandRunner };
