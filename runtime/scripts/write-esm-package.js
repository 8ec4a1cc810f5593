#!/usr/bin/env node
"use strict";
/**
 * After the ES module build: dist/esm/package.json marks its files as ES
 * modules and maps `#platform` for them. The package's own `imports` map
 * has an `import` branch per platform pointing into dist/esm (bundlers read
 * that one); Node reads `imports` from the nearest package.json, which for
 * these files is this one, so it gets the same targets, relative to dist/esm.
 */
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const { imports } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const inEsm = {};
for (const [specifier, conditions] of Object.entries(imports)) {
  inEsm[specifier] = Object.fromEntries(
    Object.entries(conditions).map(([condition, target]) => [
      condition,
      target.import.replace(/^\.\/dist\/esm\//, "./"),
    ]),
  );
}
fs.writeFileSync(
  path.join(root, "dist", "esm", "package.json"),
  `${JSON.stringify({ type: "module", imports: inEsm }, null, 2)}\n`,
);
