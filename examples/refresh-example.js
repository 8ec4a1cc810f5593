#!/usr/bin/env node
"use strict";
/**
 * `npm run example:refresh`: a flow moves to a new version on the service,
 * and the team learns what changed before anything ships. Offline, against
 * the emulator, with the built CLI run as a user runs it:
 *
 *   1. the emulator publishes version 1 of the sample flow "Signing";
 *   2. `flowsmith flows` lists it, `flowsmith add` adds it by id (snapshot
 *      flows/signing.json), `flowsmith codegen` generates its client;
 *   3. the emulator restarts publishing version 2 (examples/flows/signing-v2.yaml,
 *      made by hand); `codegen --check` still passes (it reads the snapshot,
 *      never the network);
 *   4. `codegen --refresh` fetches version 2, stores it, regenerates, and
 *      prints each change, breaking or compatible.
 *
 * Everything happens in a temporary folder, removed at the end. Exits
 * non-zero when a step does not do what it should.
 */
const { spawn } = require("node:child_process");
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.join(__dirname, "..");
const { startEmulator } = requireBuilt("dist/emulator/index.js");
const FLOW_ID = "6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13";

async function main() {
  const project = mkdtempSync(path.join(os.tmpdir(), "flowsmith-refresh-example-"));
  let emulator;
  try {
    log(`project folder: ${project} (no codegen.config.json yet)`);
    emulator = await publish(project, "v1", path.join(root, "flows/signing.yaml"));
    await flowsmith(project, emulator, ["flows", "--environment", "staging"], 0);
    await flowsmith(project, emulator, ["add", FLOW_ID, "--environment", "staging"], 0);
    await flowsmith(project, emulator, ["codegen"], 0);
    expect(
      readFileSync(path.join(project, "flows/signing.json"), "utf8").includes('"x-flow-version": 1'),
      "the snapshot holds version 1",
    );

    await emulator.close();
    emulator = await publish(project, "v2", path.join(root, "examples/flows/signing-v2.yaml"));
    log("the service now publishes version 2; the snapshot still says version 1, so nothing changes until a refresh:");
    await flowsmith(project, emulator, ["codegen", "--check"], 0);
    const refreshed = await flowsmith(project, emulator, ["codegen", "--refresh"], 0);
    expect(/v1 → v2: \d+ breaking, \d+ compatible/.test(refreshed), "codegen --refresh printed the change report");
    expect(
      readFileSync(path.join(project, "flows/signing.json"), "utf8").includes('"x-flow-version": 2'),
      "the snapshot holds version 2",
    );
    log("done: commit flows/signing.json and generated/, then fix what tsc reports");
  } finally {
    if (emulator) await emulator.close();
    rmSync(project, { recursive: true, force: true });
  }
}

/** The emulator serving one description (read through a config of its own, as `flowsmith emulator` does). */
async function publish(project, label, description) {
  const config = path.join(project, `emulator-${label}.config.json`);
  writeFileSync(
    config,
    JSON.stringify({ outputDir: `emulator-${label}`, flows: [{ name: "signing", source: { file: description } }] }),
  );
  const emulator = await startEmulator({ configPath: config });
  log(`emulator publishes ${path.relative(root, description)}: API ${emulator.baseUrl}, auth ${emulator.authUrl}`);
  rmSync(config);
  return emulator;
}

/** The built CLI, in the project folder, pointed at the emulator by the environment variables a team would set. */
async function flowsmith(project, emulator, args, wantCode) {
  log(`$ npx flowsmith ${args.join(" ")}`);
  // Not spawnSync: the emulator runs in this process and must keep answering.
  const child = spawn(process.execPath, [path.join(root, "bin/flowsmith.js"), ...args], {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      FLOWSMITH_BASE_URL: emulator.baseUrl,
      FLOWSMITH_AUTH_URL: emulator.authUrl,
      FLOWSMITH_STAGING_CLIENT_ID: emulator.clients.staging.clientId,
      FLOWSMITH_STAGING_CLIENT_SECRET: emulator.clients.staging.clientSecret,
    },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const status = await new Promise((resolve) => child.on("close", resolve));
  process.stdout.write(output.replace(/^(?=.)/gm, "    "));
  expect(status === wantCode, `exit code ${status}, expected ${wantCode}`);
  return output;
}

function expect(condition, what) {
  if (!condition) throw new Error(`example failed: ${what}`);
}

function log(line) {
  process.stdout.write(`${line}\n`);
}

function requireBuilt(relative) {
  try {
    return require(path.join(root, relative));
  } catch (error) {
    throw new Error(`${relative} is missing: run \`npm run build\` first (${error.message})`, { cause: error });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
