"use strict";
/**
 * The openapi-typescript side of the codegen benchmark, run as its own
 * process like `flowsmith codegen`: for every description in <flowsDir>,
 * openapiTS() through its Node API, astToString(), write <outDir>/<name>.ts.
 * Usage: node bench/openapi-typescript-codegen.js <flowsDir> <outDir>
 */
const fs = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

main(process.argv[2], process.argv[3]).catch((error) => {
  process.stderr.write(`openapi-typescript-codegen: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});

async function main(flowsDir, outDir) {
  // ESM-only in spirit (its docs show `import`), so load it the way an ESM user would.
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  fs.mkdirSync(outDir, { recursive: true });
  const files = fs
    .readdirSync(flowsDir)
    .filter((file) => file.endsWith(".yaml"))
    .sort();
  for (const file of files) {
    const ast = await openapiTS(pathToFileURL(path.join(flowsDir, file)));
    fs.writeFileSync(path.join(outDir, file.replace(/\.yaml$/, ".ts")), astToString(ast));
  }
}
