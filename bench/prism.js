"use strict";
/**
 * Stoplight Prism's mock server (@stoplight/prism-cli), what users would
 * run instead of the emulator. It is not a devDependency (it would make
 * every `npm ci` pull some 180 packages for one benchmark row): the full run
 * installs it from the registry into .bench-tmp/prism/ once; the smoke run
 * uses it only when it is already there.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { REPO_ROOT } = require("./emulator-handle.js");
const { freePort } = require("../test/support/free-port.js");

const PRISM_DIR = path.join(REPO_ROOT, ".bench-tmp", "prism");
const PRISM_CLI = path.join(PRISM_DIR, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
const PRISM_PACKAGE = "@stoplight/prism-cli@5";
const START_TIMEOUT_MS = 60_000;

/** Resolves with a reason when Prism is not there and could not (or should not) be installed, else undefined. */
async function ensurePrismOrReason({ install }) {
  if (fs.existsSync(PRISM_CLI)) return undefined;
  if (!install) return `Prism is not installed in .bench-tmp/prism (the full run installs ${PRISM_PACKAGE} there)`;
  fs.mkdirSync(PRISM_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(PRISM_DIR, "package.json"),
    '{ "private": true, "description": "Prism for bench/prism-bench.js" }\n',
  );
  process.stdout.write(`Installing ${PRISM_PACKAGE} into .bench-tmp/prism ...\n`);
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ["npm", []];
  const args = [
    ...npm[1],
    "install",
    "--prefix",
    PRISM_DIR,
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    PRISM_PACKAGE,
  ];
  const { code, output } = await run(npm[0], args);
  if (code !== 0 || !fs.existsSync(PRISM_CLI))
    return `installing ${PRISM_PACKAGE} failed (exit ${code}): ${output.trim().split("\n").slice(-3).join(" / ")}`;
  return undefined;
}

/** `prism mock <description>` on a free loopback port; resolves once it says it is listening. */
async function startPrism(descriptionPath) {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM_CLI, "mock", descriptionPath, "-h", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Prism did not start within ${START_TIMEOUT_MS} ms:\n${output.slice(-500)}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk) => {
      output += chunk.toString();
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output.slice(-500)}`));
    });
  });
  // Prism logs every request; keep reading so its pipe never fills.
  child.stdout.resume();
  child.stderr.resume();
  child.removeAllListeners("exit");
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    close: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: PRISM_DIR, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", (error) => resolve({ code: -1, output: String(error.message) }));
    child.once("close", (code) => resolve({ code, output }));
  });
}

module.exports = { ensurePrismOrReason, startPrism };
