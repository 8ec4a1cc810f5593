"use strict";
/**
 * What users ship to production: a fresh project's `npm install --omit=dev`
 * of one package (a packed tarball or a registry spec), measured as the
 * packages installed and the bytes of node_modules. Used by benchmark 7 and
 * by test/packages/check-packages.js, which holds @flowsmith/runtime to its
 * budget.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** @flowsmith/runtime's production install budget (issue 8): at most this much, for every user. */
const RUNTIME_INSTALL_BUDGET = { bytes: 6 * 1024 * 1024, packages: 12 };

function measureProductionInstall(spec) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flowsmith-install-"));
  try {
    fs.writeFileSync(
      path.join(dir, "package.json"),
      '{ "name": "install-size", "version": "1.0.0", "private": true }\n',
    );
    // The cache first: after `npm ci` in this repository every dependency is already there.
    execFileSync(
      "npm",
      ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", spec],
      {
        cwd: dir,
        stdio: ["ignore", "ignore", "pipe"],
        timeout: 120_000,
      },
    );
    const lock = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", ".package-lock.json"), "utf8"));
    const packages = Object.keys(lock.packages)
      .filter((key) => key.startsWith("node_modules/"))
      .sort();
    return {
      packages: packages.length,
      names: packages.map((key) => key.replace(/^.*node_modules\//, "")),
      bytes: folderBytes(path.join(dir, "node_modules")),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function folderBytes(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

function formatBytes(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

module.exports = { measureProductionInstall, formatBytes, RUNTIME_INSTALL_BUDGET };
