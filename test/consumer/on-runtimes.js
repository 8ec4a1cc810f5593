#!/usr/bin/env node
"use strict";
/**
 * `npm run test:consumer`: the consumer test (consumer-test.js) on this Node, and the same
 * packed packages and generated clients on Bun 1.x and Deno 2.x: the consumer in both
 * projects (ES module and CommonJS; its token in Redis and its webhook through the Redis
 * queue, @flowsmith/redis), and a webhook receiver on Bun.serve and Deno.serve
 * (handler.fetch) fed by the emulator's signed deliveries; the platform consumer on workerd
 * (Miniflare, the bundle wrangler makes, with and without nodejs_compat) and on Vercel's
 * Edge Runtime, with their tools installed the same way (edge-tools.js). Each runtime is the npm
 * registry's build of it (`@oven/bun-linux-x64`, `@deno/linux-x64-glibc`: the registry is
 * the only download a CI machine has), installed into a temp folder for the run and
 * removed after (about 200 MB; npm's cache keeps the tarballs for the next run), not a
 * devDependency every install would carry. Linux on x64 only (the packages are built for
 * it); elsewhere, or when the registry cannot deliver them, the consumer test runs on
 * Node alone and says which runtimes it did not try.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { commandRunner } = require("./command-runner.js");
const { installEdgeTools, edgeToolsSupported } = require("./edge-tools.js");

const RUNTIMES = {
  bun: { spec: "@oven/bun-linux-x64@1", binary: ["@oven", "bun-linux-x64", "bin", "bun"] },
  deno: { spec: "@deno/linux-x64-glibc@2", binary: ["@deno", "linux-x64-glibc", "deno"] },
};
// A bound on each command: the consumer test bounds its own steps; an install that hangs is stopped here.
const COMMAND_TIMEOUT_MS = 900_000;
const run = commandRunner(COMMAND_TIMEOUT_MS);

async function main() {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "flowsmith-runtimes-"));
  try {
    const found = {};
    if (process.platform === "linux" && process.arch === "x64") {
      for (const [name, { spec, binary }] of Object.entries(RUNTIMES)) {
        log(`npm install ${spec}`);
        try {
          // A folder each: an install with --no-save removes what an earlier one in the same folder added.
          const folder = path.join(prefix, name);
          await run(
            "npm",
            [
              "install",
              "--prefix",
              folder,
              "--no-save",
              "--no-audit",
              "--no-fund",
              "--ignore-scripts",
              "--loglevel=error",
              spec,
            ],
            process.env,
          );
          const file = path.join(folder, "node_modules", ...binary);
          log(`${name} ${(await run(file, ["--version"], process.env, "pipe")).trim()}`);
          found[name] = file;
        } catch (error) {
          // The registry, not flowsmith: said loudly, and not counted as a failure of the packages.
          log(`${name}: NOT TRIED, could not install it from the registry (${error.message})`);
        }
      }
    } else {
      log(
        `Bun and Deno not tried: the registry's builds used here run on Linux x64, this is ${process.platform} ${process.arch}`,
      );
    }
    const edge = await edgeToolsOrUndefined(path.join(prefix, "edge"));
    const env = {
      ...process.env,
      FLOWSMITH_CONSUMER_RUNTIMES: JSON.stringify(found),
      ...(edge ? { FLOWSMITH_CONSUMER_EDGE_TOOLS: edge.folder } : {}),
    };
    await run(process.execPath, [path.join(__dirname, "consumer-test.js"), ...process.argv.slice(2)], env);
    const platforms = edge ? ", workerd (with and without nodejs_compat), Vercel's Edge Runtime" : "";
    log(
      `passed on Node ${process.version}${Object.keys(found)
        .map((name) => `, ${name}`)
        .join("")}${platforms}`,
    );
    return 0;
  } catch (error) {
    log(`FAILED: ${error.message}`);
    return 1;
  } finally {
    fs.rmSync(prefix, { recursive: true, force: true });
  }
}

/** wrangler (with Miniflare and workerd), edge-runtime and esbuild, or undefined (said loudly) when the registry cannot deliver them. */
async function edgeToolsOrUndefined(folder) {
  if (!edgeToolsSupported()) {
    log(
      `workerd and the Edge Runtime not tried: the registry's builds used here run on Linux x64, this is ${process.platform} ${process.arch}`,
    );
    return undefined;
  }
  log("npm install wrangler, edge-runtime, esbuild and Node 22 (wrangler's) (edge-tools.js)");
  try {
    return await installEdgeTools(folder, run);
  } catch (error) {
    log(`workerd and the Edge Runtime: NOT TRIED, could not install their tools from the registry (${error.message})`);
    return undefined;
  }
}

function log(message) {
  process.stdout.write(`consumer-test (runtimes): ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    log(`unexpected error: ${error.stack ?? error}`);
    process.exitCode = 1;
  },
);
