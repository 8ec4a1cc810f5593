"use strict";
/**
 * Benchmarks 1c-1e: `flowsmith codegen` truly cold against the code
 * generators users would pick instead (bench/codegen-peers.js), at each size
 * (100 and 1000 flows in a full run), each tool a whole process on the same
 * Node binary, measured as a process tree (bench/process-tree.js): wall time,
 * CPU time and peak memory.
 *
 * Cold: every tool's output is removed (and the file system synced) before
 * each of its runs (and any node_modules/.cache a tool keeps), and Node's compile cache
 * is off for every tool (NODE_DISABLE_COMPILE_CACHE), so nothing is kept from
 * an earlier run. The tools take turns in a rotating order each round; the
 * rows show medians.
 */
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { PEERS, writePeerConfigs } = require("./codegen-peers.js");
const { writeFlowVariants } = require("./flow-variants.js");
const { runMeasuredOrThrow } = require("./process-tree.js");
const { median, ratio, rotated } = require("./stats.js");
const { REPO_ROOT } = require("./workspace.js");

const CLI = path.join(REPO_ROOT, "bin", "flowsmith.js");

/** `node`: the Node binary every tool runs on; `sizes`: flow counts; `rounds`: per size. */
async function benchCodegenPeers(root, { node, sizes, rounds }) {
  const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
  const results = [];
  for (const size of sizes) {
    const dir = prepareDir(path.join(root, `peers-${size}`), size);
    const times = Object.fromEntries(
      ["flowsmith", "start-up", ...PEERS.map((peer) => peer.name)].map((name) => [name, []]),
    );
    for (let round = 0; round < rounds[size]; round += 1) {
      for (const name of rotated(Object.keys(times), round)) times[name].push(await runOnce(dir, name, node));
    }
    results.push({
      size,
      medians: Object.fromEntries(Object.entries(times).map(([name, runs]) => [name, medians(runs)])),
    });
  }
  return { rows: rowsOf(results, version), details: detailsOf(results, version, rounds) };
}

/** The descriptions, flowsmith's config, the peers' configs, and a config of one flow (start-up). */
function prepareDir(dir, size) {
  fs.rmSync(dir, { recursive: true, force: true });
  writeFlowVariants(REPO_ROOT, dir, size);
  writePeerConfigs(dir);
  const config = JSON.parse(fs.readFileSync(path.join(dir, "codegen.config.json"), "utf8"));
  fs.writeFileSync(
    path.join(dir, "start-up.config.json"),
    `${JSON.stringify({ ...config, outputDir: "start-up", flows: config.flows.slice(0, 1) }, null, 2)}\n`,
  );
  // Its own node_modules, so whatever a tool caches in the nearest node_modules/.cache is this folder's to remove.
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  return dir;
}

async function runOnce(dir, name, node) {
  const flowsmith = name === "flowsmith" || name === "start-up";
  const peer = PEERS.find((candidate) => candidate.name === name);
  removeSettled([
    path.join(dir, flowsmith ? (name === "flowsmith" ? "generated" : "start-up") : peer.output),
    path.join(dir, "node_modules", ".cache"),
  ]);
  const args = flowsmith
    ? [CLI, "codegen", "--config", name === "flowsmith" ? "codegen.config.json" : "start-up.config.json"]
    : peer.args();
  return runMeasuredOrThrow(node, args, { cwd: dir, env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: "1" } });
}

/** Removed, then the file system synced: the removal is the benchmark's setup, not the next tool's work (bench/analysis.md). */
function removeSettled(dirs) {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  spawnSync("sync", { stdio: "ignore" });
}

function medians(runs) {
  return {
    ms: median(runs.map((run) => run.ms)),
    cpuMs: median(runs.map((run) => run.cpuMs)),
    rss: median(runs.map((run) => run.peakRssBytes)),
  };
}

function rowsOf(results, version) {
  const rows = [];
  for (const { size, medians: m } of results) {
    for (const peer of PEERS) {
      const wall = ratio(m.flowsmith.ms, m[peer.name].ms);
      const cpu = ratio(m.flowsmith.cpuMs, m[peer.name].cpuMs);
      const worse = Math.max(wall, Number.isFinite(cpu) ? cpu : wall);
      rows.push({
        benchmark: `1c. Codegen cold, ${size} flows, vs ${peer.label} (Node ${version})`,
        flowsmith: measured(m.flowsmith),
        baseline: `${peer.label} ${measured(m[peer.name])}; wall ${formatRatio(wall)}, CPU ${formatRatio(cpu)}`,
        ratio: worse,
        goal: "<= 1 (wall and CPU)",
        compared: true,
        met: worse <= 1,
      });
    }
  }
  const largest = results.at(-1);
  const baseline = largest.medians["openapi-typescript"];
  const memory = ratio(largest.medians.flowsmith.rss, baseline.rss);
  rows.push({
    benchmark: `1d. Codegen peak memory, ${largest.size} flows (Node ${version})`,
    flowsmith: megabytes(largest.medians.flowsmith.rss),
    baseline: `openapi-typescript (Node API) ${megabytes(baseline.rss)}`,
    ratio: memory,
    goal: "<= 1",
    compared: true,
    met: memory <= 1,
  });
  if (results.length >= 2) {
    const [small, large] = [results[0], largest].map(({ size, medians: m }) => ({ size, perFlow: perFlowMs(m, size) }));
    const flat = ratio(large.perFlow, small.perFlow);
    rows.push({
      benchmark: `1e. Codegen CPU per flow after start-up, ${large.size} against ${small.size} flows (Node ${version})`,
      flowsmith: `${large.perFlow.toFixed(2)} ms a flow at ${large.size}`,
      baseline: `${small.perFlow.toFixed(2)} ms a flow at ${small.size}`,
      ratio: flat,
      goal: "<= 1.1",
      compared: false,
      met: flat <= 1.1,
    });
  }
  return rows;
}

/** CPU time per flow once the start-up (a run of one flow, same process setup) is taken off. */
function perFlowMs(m, size) {
  return (m.flowsmith.cpuMs - m["start-up"].cpuMs) / Math.max(1, size - 1);
}

function detailsOf(results, version, rounds) {
  const lines = [
    `Codegen against peers (1c-1e), Node ${version}, whole process trees, output and caches removed before each run:`,
  ];
  for (const { size, medians: m } of results) {
    const cells = Object.entries(m).map(([name, value]) => `${name} ${measured(value)}`);
    lines.push(`- ${size} flows (${rounds[size]} rounds, medians): ${cells.join("; ")}`);
  }
  return lines;
}

function measured({ ms, cpuMs, rss }) {
  return `${seconds(ms)}, CPU ${seconds(cpuMs)}, ${megabytes(rss)}`;
}

function seconds(ms) {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "n/a";
}

function megabytes(bytes) {
  return Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : "n/a";
}

function formatRatio(value) {
  return Number.isFinite(value) ? value.toFixed(2) : "n/a";
}

module.exports = { benchCodegenPeers };
