"use strict";
/**
 * The Stainless-generated SDK benchmarks 14 and 15 set beside flowsmith: dodopayments, whose
 * scope is ours (a session created, its Standard Webhooks delivery checked; bench/analysis.md
 * says why this one). Not a devDependency (one benchmark's peer): installed from the registry
 * into .bench-tmp/peers/ once and kept; the Workers of benchmark 14 are written there too,
 * so that they resolve it (and resolve flowsmith and openapi-fetch from the repository).
 */
const path = require("node:path");
const { commandRunner } = require("../test/consumer/command-runner.js");
const { installPackages } = require("../test/consumer/edge-tools.js");
const { REPO_ROOT } = require("./workspace.js");

const PEERS_DIR = path.join(REPO_ROOT, ".bench-tmp", "peers");
const STAINLESS_SDK = { name: "dodopayments", version: "2.52.0" };

/** Resolves with `{ folder, modulePath }`, or a reason when the registry could not deliver it. */
async function stainlessSdkOrReason() {
  const spec = `${STAINLESS_SDK.name}@${STAINLESS_SDK.version}`;
  try {
    await installPackages(PEERS_DIR, [spec], commandRunner(600_000));
    return { folder: PEERS_DIR, modulePath: path.join(PEERS_DIR, "node_modules", STAINLESS_SDK.name) };
  } catch (error) {
    return `${spec} could not be installed from the registry into .bench-tmp/peers (${error.message})`;
  }
}

module.exports = { stainlessSdkOrReason, STAINLESS_SDK };
