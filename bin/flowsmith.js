#!/usr/bin/env node
"use strict";
// The dispatcher is compiled to dist/cli/main.js (by `npm run build`; the published package ships it built).
let cli;
try {
  cli = require("../dist/cli/main.js");
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes("dist/cli/main.js")) {
    process.stderr.write("flowsmith: not built yet; in a clone of its repository run `npm run build` (the published package ships it built).\n");
    process.exit(1);
  }
  throw error;
}
cli.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
