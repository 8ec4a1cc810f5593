"use strict";
/**
 * Benchmark 14: what a Cloudflare Worker that creates a session of one sample flow and handles
 * its webhook uploads, as `wrangler deploy --dry-run --minify` reports it ("Total Upload: ... KiB
 * / gzip: ... KiB"), for flowsmith, openapi-fetch over openapi-typescript's types, and a
 * Stainless-generated SDK (bench/footprint-workers.js). With `nodejs_compat`, as most Workers
 * are set up (and the only way the runtime built for Workers before it had a workerd build).
 * wrangler and its Node are installed from the registry into .bench-tmp/edge-tools/
 * (test/consumer/edge-tools.js), the Stainless SDK into .bench-tmp/peers/ (stainless-sdk.js),
 * once; kept for the next run. flowsmith's Worker is a project in the system's temp folder with
 * the packed @flowsmith/runtime installed as users install it (installedRuntime).
 */
const fs = require("node:fs");
const os = require("node:os");
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
  // Beside the Stainless SDK's node_modules; openapi-fetch resolves from the repository's. flowsmith's
  // Worker is a project of its own outside the repository (installedRuntimeOrThrow), as a user's is.
  const workersDir = path.join(stainless.folder, "workers");
  const sources = {
    flowsmith: flowsmithWorker("./flow.ts"),
    "openapi-fetch": openapiFetchWorker(
      importPath(workersDir, "openapi-fetch", path.join(workspace.openapiTypesDir, `${flow.name}.ts`)),
      flow.sessionsPath,
    ),
    [STAINLESS_SDK.name]: stainlessWorker(),
  };
  // The openapi-fetch and Stainless Workers sit inside this repository, whose tsconfig.json maps
  // @flowsmith/runtime and #platform to its sources for its own type-check; they import neither, but a
  // plain tsconfig of their own keeps whatever else it says out of their bundles, as in a user's project.
  const tsconfig = path.join(workersDir, "tsconfig.json");
  fs.mkdirSync(workersDir, { recursive: true });
  fs.writeFileSync(tsconfig, `${JSON.stringify({ compilerOptions: { strict: true } }, null, 2)}\n`);
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "flowsmith-footprint-"));
  const sizes = {};
  const problems = [];
  try {
    const installed = await installedRuntimeOrThrow(project, path.join(workspace.generatedDir, flow.name, "index.ts"))
      .then(() => true)
      .catch((error) => {
        problems.push(`flowsmith: the packed runtime could not be installed (${error.message})`);
        return false;
      });
    for (const [tool, source] of Object.entries(sources)) {
      if (tool === "flowsmith" && !installed) continue;
      const folder = tool === "flowsmith" ? project : path.join(workersDir, tool);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, "worker.ts"), source);
      try {
        const output = await buildWorker(folder, tools, {
          entry: "worker.ts",
          outdir: path.join(folder, "dist"),
          flags: ["nodejs_compat"],
          minify: true,
          tsconfig,
        });
        sizes[tool] = uploadSizeOrThrow(output);
      } catch (error) {
        problems.push(`${tool}: ${error.message.split("\n").slice(0, 12).join(" / ")}`);
      }
    }
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
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

/**
 * Fills `folder` (in the system's temp folder) as a user's project: the flow's generated module and
 * @flowsmith/runtime's packed tarball (of the build `npm run bench` just made) installed with its
 * production dependencies only. Outside the repository, so nothing resolves from its node_modules:
 * the runtime bundles what an application has (its optional OpenTelemetry peer, a devDependency
 * here, when present). Each npm command is bounded, as the edge tools' install is.
 */
async function installedRuntimeOrThrow(folder, flowModule) {
  const run = commandRunner(600_000);
  const packed = (
    await run(
      "npm",
      ["pack", "-w", "@flowsmith/runtime", "--ignore-scripts", "--pack-destination", folder, "--silent"],
      undefined,
      "pipe",
      REPO_ROOT,
    )
  )
    .trim()
    .split("\n")
    .pop();
  fs.writeFileSync(
    path.join(folder, "package.json"),
    '{ "name": "footprint-flowsmith", "version": "1.0.0", "private": true }\n',
  );
  await run(
    "npm",
    ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", `./${packed}`],
    undefined,
    "pipe",
    folder,
  );
  fs.copyFileSync(flowModule, path.join(folder, "flow.ts"));
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
