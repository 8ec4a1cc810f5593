"use strict";
/**
 * Benchmarks 1 and 2: `flowsmith codegen` cold, rerun with nothing
 * changed, and `--check`, against openapi-typescript's Node API on the same
 * documents. Each tool runs as its own process, start-up included, as a user
 * runs it.
 *
 * Cold means a new process and no outputDir. flowsmith keeps nothing
 * between runs but its output (the validators are data in each module, no
 * cache of compiled code), so a cold run here is a first run ever. Rows
 * 1c-1e (codegen-peers-bench.js) compare cold runs with more tools and at
 * 1000 flows.
 */
const fs = require("node:fs");
const { spawnSync } = require("node:child_process");
const { runNodeOrThrow } = require("./processes.js");
const { median, ratio, rotated } = require("./stats.js");

async function benchCodegen(workspace, { rounds }) {
  const times = { cold: [], rerun: [], check: [], openapiTypescript: [] };
  for (let round = 0; round < rounds; round += 1) {
    for (const tool of rotated(["flowsmith", "openapi-typescript"], round)) {
      if (tool === "flowsmith") await flowsmithRound(workspace, times);
      else await openapiTypescriptRound(workspace, times);
    }
  }
  const baseline = median(times.openapiTypescript);
  const count = workspace.flows.length;
  return [
    row(`1. Codegen cold, ${count} flows`, median(times.cold), baseline, "<= 1"),
    row(`2a. Codegen rerun, nothing changed`, median(times.rerun), baseline, "<= 0.5"),
    // --check regenerates every flow and compares bytes: it costs a cold run, and shares its goal.
    row(`2b. Codegen --check, nothing changed (regenerates)`, median(times.check), baseline, "<= 2"),
  ];
}

async function flowsmithRound(workspace, times) {
  // The manifest of what was generated lives in outputDir: removing it makes the run cold.
  const cold = () => removeSettled(workspace.generatedDir);
  const codegen = [workspace.cli, "codegen", "--config", workspace.configPath];
  cold();
  times.cold.push((await runNodeOrThrow(codegen)).ms);
  times.rerun.push((await runNodeOrThrow(codegen)).ms);
  times.check.push((await runNodeOrThrow([...codegen, "--check"])).ms);
}

async function openapiTypescriptRound(workspace, times) {
  removeSettled(workspace.openapiTypesDir);
  const script = require.resolve("./openapi-typescript-codegen.js");
  times.openapiTypescript.push((await runNodeOrThrow([script, workspace.flowsDir, workspace.openapiTypesDir])).ms);
}

/**
 * Removes a tool's earlier output and lets the file system finish the
 * removal before the timed run starts. Without the sync the next run paid
 * for it (bench/analysis.md, fifth round): on a disk with online discard,
 * creating small files right after removing many was several times slower
 * than after a sync, and flowsmith writes three files a flow where
 * openapi-typescript writes one. The removal is the benchmark's own setup,
 * not the tools' work.
 */
function removeSettled(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  spawnSync("sync", { stdio: "ignore" });
}

function row(benchmark, flowsmithMs, baselineMs, goal) {
  const value = ratio(flowsmithMs, baselineMs);
  return {
    benchmark,
    flowsmith: `${formatMs(flowsmithMs)}`,
    baseline: `openapi-typescript cold ${formatMs(baselineMs)}`,
    ratio: value,
    goal,
    compared: true,
    met: goal.startsWith("<= ") ? value <= Number(goal.replace("<= ", "")) : null,
  };
}

function formatMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

module.exports = { benchCodegen, formatMs };
