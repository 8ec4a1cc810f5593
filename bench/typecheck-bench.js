"use strict";
/**
 * Benchmark 3: what the generated types cost users at compile time. One
 * consumer file calls createSession of every flow with a valid body; the
 * other does the same through openapi-fetch over openapi-typescript's types.
 * Both are checked by the repo's tsc with the same compiler options, and the
 * "Check time" of --extendedDiagnostics is compared.
 */
const fs = require("node:fs");
const path = require("node:path");
const { flowsmithBodySource, openapiFetchBodySource } = require("./request-bodies.js");
const { runNode } = require("./processes.js");
const { median, ratio, rotated } = require("./stats.js");
const { formatMs } = require("./codegen-bench.js");

const COMPILER_OPTIONS = {
  target: "ES2022",
  lib: ["ES2023"],
  module: "node16",
  moduleResolution: "node16",
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
};

async function benchTypecheck(workspace, { rounds }) {
  writeConsumer(workspace.flowsmithDir, flowsmithConsumer(workspace.flows));
  writeConsumer(workspace.openapiDir, openapiFetchConsumer(workspace.flows));
  const times = { flowsmith: [], "openapi-fetch": [] };
  const totals = { flowsmith: [], "openapi-fetch": [] };
  for (let round = 0; round < rounds; round += 1) {
    for (const tool of rotated(Object.keys(times), round)) {
      const dir = tool === "flowsmith" ? workspace.flowsmithDir : workspace.openapiDir;
      const diagnostics = await diagnosticsOrThrow(workspace.tsc, dir);
      times[tool].push(diagnostics.checkMs);
      totals[tool].push(diagnostics.totalMs);
    }
  }
  const flowsmithMs = median(times.flowsmith);
  const baselineMs = median(times["openapi-fetch"]);
  const value = ratio(flowsmithMs, baselineMs);
  const rows = [
    {
      benchmark: `3. tsc check time, consumer of ${workspace.flows.length} flows`,
      flowsmith: formatMs(flowsmithMs),
      baseline: `openapi-fetch ${formatMs(baselineMs)}`,
      ratio: value,
      goal: "<= 0.5",
      compared: true,
      met: value <= 0.5,
    },
  ];
  const totalText = (tool) => formatMs(median(totals[tool]));
  const details = [
    `tsc total time (parse, bind, check) of the consumers: flowsmith ${totalText("flowsmith")}, openapi-fetch ${totalText("openapi-fetch")}.`,
  ];
  return { rows, details };
}

function writeConsumer(dir, source) {
  fs.writeFileSync(path.join(dir, "consumer.ts"), source);
  const tsconfig = { compilerOptions: COMPILER_OPTIONS, files: ["consumer.ts"] };
  fs.writeFileSync(path.join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
}

async function diagnosticsOrThrow(tsc, dir) {
  const result = await runNode([tsc, "-p", path.join(dir, "tsconfig.json"), "--extendedDiagnostics"]);
  const check = /^Check time:\s+([\d.]+)s$/m.exec(result.stdout);
  const total = /^Total time:\s+([\d.]+)s$/m.exec(result.stdout);
  if (result.code !== 0 || !check || !total) {
    const errors = result.stdout
      .split("\n")
      .filter((line) => line.includes("error TS"))
      .slice(0, 10);
    throw new Error(`consumer in ${dir} does not type-check:\n${errors.join("\n") || result.stdout.slice(-1000)}`);
  }
  return { checkMs: Number(check[1]) * 1000, totalMs: Number(total[1]) * 1000 };
}

function flowsmithConsumer(flows) {
  const imports = flows.map((flow, i) => `import * as flow${i} from "./generated/${flow.name}/index.js";`);
  const calls = flows.map(
    (flow, i) => `  await flow${i}.createSession(${flow.environment}, ${flowsmithBodySource(flow, "file")});`,
  );
  return [
    'import { createClient } from "@flowsmith/runtime";',
    ...imports,
    "",
    'const options = { baseUrl: "http://127.0.0.1:1", authUrl: "http://127.0.0.1:2", clientId: "id", clientSecret: "secret", userAgent: "bench/1.0" };',
    'const staging = createClient({ ...options, environment: "staging" });',
    'const live = createClient({ ...options, environment: "live" });',
    "const file = new Uint8Array(0);",
    "",
    "export async function createAll(): Promise<void> {",
    ...calls,
    "}",
    "",
  ].join("\n");
}

function openapiFetchConsumer(flows) {
  const imports = flows.map((flow, i) => `import type { paths as Paths${i} } from "./types/${flow.name}.js";`);
  const calls = flows.flatMap((flow, i) => [
    `  const client${i} = createClient<Paths${i}>(options);`,
    `  await client${i}.POST("${flow.sessionsPath}", { body: ${openapiFetchBodySource(flow, '"file"')} });`,
  ]);
  return [
    'import createClient from "openapi-fetch";',
    ...imports,
    "",
    'const options = { baseUrl: "http://127.0.0.1:1", headers: { authorization: "Bearer token", "user-agent": "bench/1.0" } };',
    "",
    "export async function createAll(): Promise<void> {",
    ...calls,
    "}",
    "",
  ].join("\n");
}

module.exports = { benchTypecheck };
