#!/usr/bin/env node
"use strict";
// The CLI is compiled to dist/ by `npm run build` (run by `npm ci` through `prepare`).
let cli;
try {
  cli = require("../dist/generator/cli.js");
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes("dist/generator/cli.js")) {
    process.stderr.write("flowsmith: not built yet; run `npm run build` (npm ci does it through `prepare`).\n");
    process.exit(1);
  }
  throw error;
}
cli.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
