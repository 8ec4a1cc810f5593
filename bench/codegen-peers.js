"use strict";
/**
 * The code generators benchmark 1c compares `flowsmith codegen` with, each
 * set up as its documentation says for many descriptions at once, on the
 * same descriptions (bench/flow-variants.js), one output per description:
 * - openapi-typescript's Node API, one process for all (bench/openapi-typescript-codegen.js);
 * - openapi-typescript's CLI with a redocly.yaml that lists every description under `apis`;
 * - orval with one config entry per description, the fetch client;
 * - @hey-api/openapi-ts with an array of configs (one job per description), its default plugins.
 * All are devDependencies, run from the repository's node_modules.
 */
const fs = require("node:fs");
const path = require("node:path");
const { REPO_ROOT } = require("./workspace.js");

/** `{ name, label, args(dir), output }` per tool: `args` after the Node binary, `output` the folder its run writes. */
const PEERS = [
  {
    name: "openapi-typescript",
    label: "openapi-typescript (Node API)",
    args: () => [path.join(__dirname, "openapi-typescript-codegen.js"), "flows", "openapi-typescript"],
    output: "openapi-typescript",
  },
  {
    name: "openapi-typescript-cli",
    label: "openapi-typescript CLI (redocly.yaml)",
    args: () => [binOf("openapi-typescript", "openapi-typescript"), "--redocly", "redocly.yaml"],
    output: "openapi-typescript-cli",
  },
  {
    name: "orval",
    label: "orval (fetch client)",
    args: () => [binOf("orval", "orval"), "--config", "orval.config.cjs"],
    output: "orval",
  },
  {
    name: "hey-api",
    label: "@hey-api/openapi-ts",
    args: () => [binOf("@hey-api/openapi-ts", "openapi-ts"), "--file", "openapi-ts.config.mjs"],
    output: "hey-api",
  },
];

/** Writes each peer's config for the descriptions in `<dir>/flows` (names as flow-variants.js makes them). */
function writePeerConfigs(dir) {
  const names = fs
    .readdirSync(path.join(dir, "flows"))
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .map((file) => file.slice(0, -".yaml".length));
  // JSON is YAML: no YAML writer needed for redocly.yaml.
  const apis = Object.fromEntries(
    names.map((name) => [
      name,
      { root: `./flows/${name}.yaml`, "x-openapi-ts": { output: `./openapi-typescript-cli/${name}.ts` } },
    ]),
  );
  fs.writeFileSync(path.join(dir, "redocly.yaml"), `${JSON.stringify({ apis }, null, 2)}\n`);
  // orval's keys name its jobs; a flow-variants name is flow-NNN.
  const orval = Object.fromEntries(
    names.map((name) => [
      name.replaceAll("-", "_"),
      { input: { target: `./flows/${name}.yaml` }, output: { target: `./orval/${name}.ts`, client: "fetch" } },
    ]),
  );
  fs.writeFileSync(path.join(dir, "orval.config.cjs"), `module.exports = ${JSON.stringify(orval, null, 2)};\n`);
  const heyApi = names.map((name) => ({
    input: `./flows/${name}.yaml`,
    output: `./hey-api/${name}`,
    logs: { file: false },
  }));
  fs.writeFileSync(path.join(dir, "openapi-ts.config.mjs"), `export default ${JSON.stringify(heyApi, null, 2)};\n`);
}

/** The file a package's `bin` entry names, resolved in the repository's node_modules. */
function binOf(packageName, command) {
  const manifestPath = require.resolve(`${packageName}/package.json`, { paths: [REPO_ROOT] });
  const { bin } = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
  const relative = typeof bin === "string" ? bin : bin?.[command];
  if (!relative) throw new Error(`${packageName} has no bin named ${command}`);
  return path.join(path.dirname(manifestPath), relative);
}

module.exports = { PEERS, writePeerConfigs };
