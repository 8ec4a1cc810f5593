#!/usr/bin/env node
"use strict";
// Node 22.1 and later keep V8's compiled code of the modules a run loads (ts-morph's TypeScript
// most of it) in a cache under the OS's temp folder, so the next run skips parsing them
// (bench/analysis.md, fifth round). Node 20 has no such cache; the call is skipped there.
require("node:module").enableCompileCache?.();
// The dispatcher is compiled to dist/cli/main.js (by `npm run build`; the published package ships it built).
let cli;
try {
  // Before anything loads ts-morph: its lib .d.ts text, which no command reads, is left out (cli/ts-morph-lib-files.ts).
  require("../dist/cli/ts-morph-lib-files.js").skipTsMorphLibFiles();
  cli = require("../dist/cli/main.js");
} catch (error) {
  if (
    error &&
    error.code === "MODULE_NOT_FOUND" &&
    /^Cannot find module '\.\.\/dist\/cli\/(main|ts-morph-lib-files)\.js'/.test(String(error.message))
  ) {
    process.stderr.write(
      "flowsmith: not built yet; in a clone of its repository run `npm run build` (the published package ships it built).\n",
    );
    // EXIT.failed of cli/command.ts, which is not built yet.
    process.exit(1);
  }
  throw error;
}
// A reader that goes away (`flowsmith flows | head -1`) ends only the printing: the run finishes, and
// what it writes to disk is not cut short by an EPIPE thrown from a later line of output.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  });
}
cli.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
