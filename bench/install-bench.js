"use strict";
/**
 * Benchmark 7: what a backend ships to production. @flowsmith/runtime's
 * packed tarball against openapi-fetch (the runtime users of
 * openapi-typescript ship), each installed alone with `--omit=dev`.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { formatBytes, measureProductionInstall, RUNTIME_INSTALL_BUDGET } = require("./install-size.js");

async function benchInstall(workspace) {
  const packs = path.join(workspace.root, "packs");
  fs.mkdirSync(packs, { recursive: true });
  execFileSync("npm", ["pack", "--silent", "-w", "@flowsmith/runtime", "--pack-destination", packs], {
    cwd: workspace.repoRoot,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const tarball = path.join(
    packs,
    fs.readdirSync(packs).find((name) => name.endsWith(".tgz")),
  );
  const runtime = measureProductionInstall(tarball);
  const openapiFetchVersion = require(
    path.join(workspace.repoRoot, "node_modules", "openapi-fetch", "package.json"),
  ).version;
  const openapiFetch = measureProductionInstall(`openapi-fetch@${openapiFetchVersion}`);
  const describe = (measured) => `${measured.packages} packages, ${formatBytes(measured.bytes)}`;
  return {
    rows: [
      {
        benchmark: "7. Production install (npm install --omit=dev) of the runtime",
        flowsmith: `@flowsmith/runtime: ${describe(runtime)}`,
        baseline: `openapi-fetch ${openapiFetchVersion}: ${describe(openapiFetch)}`,
        ratio: runtime.bytes / openapiFetch.bytes,
        goal: `≤ ${formatBytes(RUNTIME_INSTALL_BUDGET.bytes)} and ≤ ${RUNTIME_INSTALL_BUDGET.packages} packages`,
        compared: false,
        met: runtime.bytes <= RUNTIME_INSTALL_BUDGET.bytes && runtime.packages <= RUNTIME_INSTALL_BUDGET.packages,
      },
    ],
    details: [`Production install of @flowsmith/runtime: ${runtime.names.join(", ")}.`],
  };
}

module.exports = { benchInstall };
