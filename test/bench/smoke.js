#!/usr/bin/env node
"use strict";
/**
 * `npm run bench:smoke` (run by .ci/run after `npm test`; not part of it:
 * it starts a server, clients and tsc in processes of their own and took a
 * sixth of jest's time): keeps the benchmark alive. `node bench/run.js
 * --smoke` runs every benchmark once with tiny sizes (3 flows, 1 round, 64 KB
 * files) against the compiled dist/ output, and must finish with a ratio for
 * every comparison (codegen against its peers at 3 and 6 flows, with wall
 * time, CPU time and peak memory for each). Goals are not asserted here (timings on a shared machine
 * are noise); the exact figures are: a single token request for 200
 * concurrent calls, the emulator's memory staying within its bound, and the
 * hostile pattern's values all refused (with a time per character for each length),
 * and the pieces of secrets echoed in the redaction benchmark's body scrubbed.
 * Exits 1 listing every problem.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const REPO_ROOT = path.resolve(__dirname, "..", "..");

const problems = [];
const expectEqual = (what, actual, expected) => {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    problems.push(`${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
};

// The benchmark runs on dist/: `npm run bench:smoke` builds it first; say so plainly when it is missing.
for (const built of [
  "dist/cli/commands/codegen.js",
  "runtime/dist/index.js",
  "redis/dist/index.js",
  "dist/emulator/index.js",
]) {
  if (!fs.existsSync(path.join(REPO_ROOT, built))) {
    process.stderr.write(`bench smoke: ${built} is missing: run \`npm run build\` first (npm run bench:smoke does).\n`);
    process.exit(1);
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowsmith-bench-"));
try {
  const jsonPath = path.join(dir, "rows.json");
  execFileSync(process.execPath, ["bench/run.js", "--smoke", "--json", jsonPath], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const { rows, details } = JSON.parse(fs.readFileSync(jsonPath, "utf8"));
  const numbers = rows.map((row) => row.benchmark.split(".")[0]);
  // 7 (the production install) is left to test/packages: the smoke run skips it.
  expectEqual(
    "benchmarks that ran",
    [...new Set(numbers)],
    ["1", "2a", "2b", "1c", "1d", "1e", "3", "4", "4b", "5", "6", "8", "9", "10", "11", "12", "13", "16"],
  );
  const compared = rows.filter((row) => row.compared);
  // 9 (emulator vs Prism) is measured only where a full run has installed Prism.
  const prismMeasured = rows.some((row) => row.benchmark.startsWith("9.") && row.compared);
  expectEqual(
    "benchmarks with a ratio",
    [...new Set(compared.map((row) => row.benchmark.split(".")[0]))],
    ["1", "2a", "2b", "1c", "1d", "3", "4", "4b", "5", ...(prismMeasured ? ["9"] : []), "12", "13"],
  );
  for (const row of compared) {
    if (!(Number.isFinite(row.ratio) && row.ratio > 0))
      problems.push(`${row.benchmark}: ratio ${String(row.ratio)}, expected a finite positive number`);
  }
  // Codegen against its peers, cold, at two sizes: every peer at each, wall, CPU and peak memory of each process tree.
  const peers = rows.filter((row) => row.benchmark.startsWith("1c."));
  expectEqual("1c (codegen against peers) rows", peers.length, 8);
  for (const row of peers) {
    if (
      !/^[\d.]+ s, CPU [\d.]+ s, \d+ MB$/.test(row.flowsmith) ||
      !/ s, CPU [\d.]+ s, \d+ MB; wall [\d.]+, CPU [\d.]+$/.test(row.baseline)
    )
      problems.push(`${row.benchmark}: readings ${row.flowsmith} / ${row.baseline}`);
  }
  const memoryRow = rows.find((candidate) => candidate.benchmark.startsWith("1d."));
  if (!(Number.isFinite(memoryRow?.ratio) && memoryRow.ratio > 0))
    problems.push(`1d: ratio ${String(memoryRow?.ratio)}, expected a finite positive number`);
  // 1e's figures are a difference of two runs' CPU (a run of N flows less a run of one) over N - 1: at the smoke's
  // 3 and 6 flows, one run each, that difference is within the noise and may come out at or below zero, so the
  // smoke asks for the two readings, not for a ratio of them.
  const flatRow = rows.find((candidate) => candidate.benchmark.startsWith("1e."));
  const perFlow = /^-?[\d.]+ ms a flow at \d+$/;
  if (!perFlow.test(flatRow?.flowsmith ?? "") || !perFlow.test(flatRow?.baseline ?? ""))
    problems.push(`1e: readings ${String(flatRow?.flowsmith)} / ${String(flatRow?.baseline)}`);
  expectEqual("6 (single-flight) met", rows.find((row) => row.benchmark.startsWith("6."))?.met, true);
  expectEqual("8 (emulator memory) met", rows.find((row) => row.benchmark.startsWith("8."))?.met, true);
  // Runtime memory: readings for flowsmith and the undici baseline; goals are judged in full runs only.
  const runtimeMemory = rows.filter((row) => row.benchmark.startsWith("10."));
  expectEqual("10 (runtime memory) rows", runtimeMemory.length, 2);
  for (const row of runtimeMemory) {
    if (!/MB → .* MB/.test(row.flowsmith) || !/^undici .* MB → /.test(row.baseline))
      problems.push(`${row.benchmark}: readings ${row.flowsmith} / ${row.baseline}`);
  }
  // Redaction: a time per character at each length for both bodies, and the echoed pieces scrubbed.
  const redaction = rows.find((row) => row.benchmark.startsWith("16."));
  if (
    !/^\d+ → \d+ → \d+ ns per character .*; \d+ → \d+ → \d+ /.test(redaction?.flowsmith ?? "") ||
    !Number.isFinite(redaction?.ratio)
  )
    problems.push(`16 (redaction): ${JSON.stringify(redaction)}`);
  expectEqual(
    "16 (redaction) scrubbed the echoed pieces",
    details.some((detail) => detail.includes("the echoed pieces in the realistic body scrubbed: yes")),
    true,
  );
  // Hostile pattern: a time per character at each length, and every hostile value refused.
  const patterns = rows.find((row) => row.benchmark.startsWith("11."));
  if (!/^\d+ → \d+ → \d+ ns per character/.test(patterns?.flowsmith ?? "") || !Number.isFinite(patterns?.ratio))
    problems.push(`11 (hostile pattern): ${JSON.stringify(patterns)}`);
  expectEqual(
    "11 (hostile pattern) refused every hostile value",
    details.some((detail) => detail.includes("every hostile value refused: yes")),
    true,
  );
  // The webhook queue's latencies: a median and a p99 for the queue and for the inline handler.
  const latency = rows.find((row) => row.benchmark.startsWith("13.") && !row.compared);
  if (!/ms, p99 .* ms$/.test(latency?.flowsmith ?? "") || !/^inline .* ms, p99 .* ms$/.test(latency?.baseline ?? "")) {
    problems.push(`13 (webhook queue latency): readings ${latency?.flowsmith} / ${latency?.baseline}`);
  }
  if (problems.length === 0) {
    process.stdout.write(
      `bench smoke: ${String(rows.length)} rows from every benchmark, ratios for ${[...new Set(compared.map((row) => row.benchmark.split(".")[0]))].join(", ")}\n`,
    );
  }
} catch (error) {
  problems.push(`node bench/run.js --smoke failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
checkPlatformRows();
/**
 * Benchmarks 14 (the Worker's upload) and 15 (Node cold start), run on their own: they install
 * wrangler and the Stainless SDK from the registry into .bench-tmp/ (once; kept). Each must give
 * flowsmith's figures and a ratio against openapi-fetch and the Stainless SDK. Row 14 skipped
 * (the registry could not deliver wrangler, or not on Linux x64) says why and is not a problem here.
 */
function checkPlatformRows() {
  const platformDir = fs.mkdtempSync(path.join(os.tmpdir(), "flowsmith-bench-platforms-"));
  try {
    const jsonPath = path.join(platformDir, "rows.json");
    execFileSync(
      process.execPath,
      ["bench/run.js", "--smoke", "--only", "worker-footprint,cold-start", "--json", jsonPath],
      { cwd: REPO_ROOT, stdio: ["ignore", "ignore", "inherit"] },
    );
    const { rows, details } = JSON.parse(fs.readFileSync(jsonPath, "utf8"));
    const footprint = rows.filter((row) => row.benchmark.startsWith("14."));
    if (
      footprint.length === 1 &&
      !footprint[0].compared &&
      details.some((detail) => detail.startsWith("Benchmark 14 skipped: "))
    ) {
      process.stdout.write(`bench smoke: ${details.find((detail) => detail.startsWith("Benchmark 14 skipped"))}\n`);
    } else {
      expectEqual(
        "14 (Worker upload) rows",
        footprint.map((row) => row.benchmark.replace(/.*: vs /, "")),
        ["openapi-fetch", "dodopayments"],
      );
      for (const row of footprint) {
        if (!/^[\d.]+ KiB, gzip [\d.]+ KiB$/.test(row.flowsmith) || !(Number.isFinite(row.ratio) && row.ratio > 0))
          problems.push(`14: ${JSON.stringify(row)}`);
      }
    }
    const coldStart = rows.filter((row) => row.benchmark.startsWith("15."));
    const peerSkipped = details.some((detail) => detail.includes("The Stainless SDK was not measured"));
    expectEqual("15 (cold start) rows", coldStart.length, peerSkipped ? 1 : 2);
    for (const row of coldStart) {
      if (!/ms CPU$/.test(row.flowsmith) || !(Number.isFinite(row.ratio) && row.ratio > 0))
        problems.push(`15: ${JSON.stringify(row)}`);
    }
    process.stdout.write(
      `bench smoke: ${[...footprint, ...coldStart].map((row) => `${row.benchmark.split(".")[0]} ${row.flowsmith} (ratio ${Number.isFinite(row.ratio) ? row.ratio.toFixed(2) : "-"})`).join("; ")}\n`,
    );
  } catch (error) {
    problems.push(
      `node bench/run.js --smoke --only worker-footprint,cold-start failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    fs.rmSync(platformDir, { recursive: true, force: true });
  }
}

if (problems.length > 0) {
  process.stderr.write(
    `bench smoke: ${String(problems.length)} problem(s):\n${problems.map((p) => `  - ${p}`).join("\n")}\n`,
  );
  process.exitCode = 1;
}
