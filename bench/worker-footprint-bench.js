"use strict";
/**
 * Benchmark 14: what a Cloudflare Worker that creates a session of one sample flow and handles
 * its webhook uploads, as `wrangler deploy --dry-run --minify` reports it ("Total Upload: ... KiB
 * / gzip: ... KiB"), for flowsmith, openapi-fetch over openapi-typescript's types, and a
 * Stainless-generated SDK (bench/footprint-workers.js). With `nodejs_compat`, as most Workers
 * are set up (and the only way the runtime built for Workers before it had a workerd build).
 * wrangler and its Node are installed from the registry into .bench-tmp/edge-tools/
 * (test/consumer/edge-tools.js), the Stainless SDK into .bench-tmp/peers/ (stainless-sdk.js),
 * once; kept for the next run.
 */
const fs = require("node:fs");
const path = require("node:path");
const { commandRunner } = require("../test/consumer/command-runner.js");
const { edgeToolsSupported, installEdgeTools } = require("../test/consumer/edge-tools.js");
const { buildWorker } = require("../test/consumer/platforms.js");
const { flowsmithWorker, openapiFetchWorker, stainlessWorker } = require("./footprint-workers.js");
const { stainlessSdkOrReason, STAINLESS_SDK } = require("./stainless-sdk.js");
const { REPO_ROOT, flowOf } = require("./workspace.js");

const NAME = "14. Worker upload, wrangler deploy --dry-run --minify (create a session + its webhook)";
const TOOLS_DIR = path.join(REPO_ROOT, ".bench-tmp", "edge-tools");
const GOAL = { totalKiB: 150, gzipKiB: 50 };

async function benchWorkerFootprint(workspace) {
  const tools = await edgeToolsOrReason();
  const stainless = await stainlessSdkOrReason();
  if (typeof tools === "string" || typeof stainless === "string") {
    return {
      rows: [
        {
          benchmark: NAME,
          flowsmith: "n/a",
          baseline: "skipped",
          ratio: Number.NaN,
          goal: goalText(),
          compared: false,
          met: null,
        },
      ],
      details: [`Benchmark 14 skipped: ${typeof tools === "string" ? tools : stainless}.`],
    };
  }
  const flow = flowOf(workspace, "aml");
  // Beside the Stainless SDK's node_modules; flowsmith and openapi-fetch resolve from the repository's.
  const workersDir = path.join(stainless.folder, "workers");
  const sources = {
    flowsmith: flowsmithWorker(
      importPath(workersDir, "flowsmith", path.join(workspace.generatedDir, flow.name, "index.ts")),
    ),
    "openapi-fetch": openapiFetchWorker(
      importPath(workersDir, "openapi-fetch", path.join(workspace.openapiTypesDir, `${flow.name}.ts`)),
      flow.sessionsPath,
    ),
    [STAINLESS_SDK.name]: stainlessWorker(),
  };
  const sizes = {};
  const problems = [];
  for (const [tool, source] of Object.entries(sources)) {
    const folder = path.join(workersDir, tool);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "worker.ts"), source);
    try {
      const output = await buildWorker(folder, tools, {
        entry: "worker.ts",
        outdir: path.join(folder, "dist"),
        flags: ["nodejs_compat"],
        minify: true,
      });
      sizes[tool] = uploadSizeOrThrow(output);
    } catch (error) {
      problems.push(`${tool}: ${error.message.split("\n").slice(0, 12).join(" / ")}`);
    }
  }
  const [, openapiFetch, stainlessName] = Object.keys(sources);
  const ours = sizes.flowsmith;
  const met = ours ? ours.totalKiB <= GOAL.totalKiB && ours.gzipKiB <= GOAL.gzipKiB : false;
  const rows = [openapiFetch, stainlessName].map((peer) => ({
    benchmark: `${NAME}: vs ${peer}`,
    flowsmith: ours ? sizeText(ours) : "did not build",
    baseline: sizes[peer] ? `${peer} ${sizeText(sizes[peer])}` : `${peer}: did not build`,
    ratio: ours && sizes[peer] ? ours.totalKiB / sizes[peer].totalKiB : Number.NaN,
    goal: peer === openapiFetch ? goalText() : "(for reference)",
    compared: Boolean(ours && sizes[peer]),
    met: peer === openapiFetch ? met : null,
  }));
  const details = [
    `Worker upload (wrangler ${toolVersion(tools, "wrangler")}, nodejs_compat, --minify; ratios of the total): ` +
      Object.entries(sizes)
        .map(([tool, size]) => `${tool} ${sizeText(size)}`)
        .join("; ") +
      (problems.length > 0 ? `. Did not build: ${problems.join("; ")}` : "."),
  ];
  return { rows, details };
}

async function edgeToolsOrReason() {
  if (!edgeToolsSupported())
    return `wrangler's Node and workerd packages are built for Linux x64, this is ${process.platform} ${process.arch}`;
  try {
    return await installEdgeTools(TOOLS_DIR, commandRunner(600_000));
  } catch (error) {
    return `wrangler could not be installed from the registry into .bench-tmp/edge-tools (${error.message})`;
  }
}

/** wrangler's own figures: "Total Upload: 1000.12 KiB / gzip: 315.45 KiB". */
function uploadSizeOrThrow(output) {
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  if (!match) throw new Error(`wrangler reported no "Total Upload" line:\n${output}`);
  return { totalKiB: Number(match[1]), gzipKiB: Number(match[2]) };
}

function importPath(workersDir, tool, file) {
  const relative = path.relative(path.join(workersDir, tool), file).split(path.sep).join("/");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

function sizeText({ totalKiB, gzipKiB }) {
  return `${totalKiB.toFixed(1)} KiB, gzip ${gzipKiB.toFixed(1)} KiB`;
}

function goalText() {
  return `flowsmith <= ${GOAL.totalKiB} KiB, gzip <= ${GOAL.gzipKiB} KiB`;
}

function toolVersion(tools, name) {
  return JSON.parse(fs.readFileSync(path.join(tools.modules, name, "package.json"), "utf8")).version;
}

module.exports = { benchWorkerFootprint };
