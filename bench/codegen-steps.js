#!/usr/bin/env node
"use strict";
/**
 * Where a cold codegen run's time goes, step by step (bench/analysis.md,
 * "Codegen per step"): the steps of generator/run/generate-flow.ts and
 * generator/output/ called one after another on N flows (bench/flow-variants.js)
 * in one process, on the compiled dist/ output, each step's CPU time summed
 * (process.cpuUsage) and divided by N. A first pass over 10 flows warms
 * the JIT up, so the figures are what each further flow costs; start-up (module
 * loading) is measured apart, as the CPU time until the first flow's steps.
 * The flow's spec (its schemas as data, emit/flow-spec.ts) is one row of
 * its own, so its share can be told from the rest. Not a ratio against
 * another tool: a profile in numbers.
 *
 *   node bench/codegen-steps.js [--flows 100,1000]
 */
const fs = require("node:fs");
const path = require("node:path");
const { REPO_ROOT } = require("./workspace.js");
const { writeFlowVariants } = require("./flow-variants.js");

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const atStart = cpuMs();
const dist = (module) => require(path.join(REPO_ROOT, "dist", "generator", module));
const { parseDescriptionOrThrow } = dist("read/load-description.js");
const { buildFlowModelOrThrow } = dist("model/build-flow-model.js");
const { flowModuleStatementsOrThrow } = dist("emit/flow-module.js");
const { moduleText, inPrettierLayout } = dist("emit/module-text.js");
const { flowHeader } = dist("emit/header.js");
const { toFlowSpec } = dist("emit/flow-spec.js");
const { jsonText } = dist("emit/json-text.js");
const { descriptionJson } = dist("output/description-json.js");
const { sha256, serializeManifest } = dist("output/manifest.js");
const { generatorStamp } = dist("output/fingerprint.js");
const { lockOutputDirOrThrow } = dist("output/output-lock.js");
const { StagingFolder } = dist("output/staging.js");
const { DescriptionsFile } = dist("output/description-copies.js");
const { printStructure, StructureKind } = require("ts-morph");
const startUpMs = cpuMs() - atStart;

const STEPS = [
  "read the description",
  "parse and validate it (YAML, OpenAPI 3.0)",
  "build the model",
  "index.ts: build structures",
  "index.ts: print (ts-morph)",
  "index.ts: prettier-layout check",
  "of which: the spec's schemas as JSON text",
  "descriptions.json: normalise",
  "sha256 of the files",
  "stage the files (write; descriptions.json appended)",
];

async function main(sizes) {
  process.stdout.write(`Start-up (loading the modules): ${startUpMs.toFixed(0)} ms of CPU\n`);
  const columns = [];
  for (const size of sizes) columns.push({ size, ...(await measure(size)) });
  const header = `| step | ${columns.map(({ size }) => `ms a flow at ${size}`).join(" | ")} |`;
  const lines = [header, `|---|${columns.map(() => "---").join("|")}|`];
  for (const step of [...STEPS, "once: fingerprint, lock, manifest, swap"]) {
    lines.push(`| ${step} | ${columns.map((column) => (column.perFlow[step] ?? 0).toFixed(3)).join(" | ")} |`);
  }
  const total = (column) =>
    Object.entries(column.perFlow)
      .filter(([step]) => !step.startsWith("of which"))
      .reduce((sum, [, ms]) => sum + ms, 0);
  lines.push(`| all steps | ${columns.map((column) => total(column).toFixed(3)).join(" | ")} |`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function measure(size) {
  const dir = path.join(REPO_ROOT, ".bench-tmp", "steps", String(size));
  fs.rmSync(dir, { recursive: true, force: true });
  writeFlowVariants(REPO_ROOT, dir, size);
  const files = fs
    .readdirSync(path.join(dir, "flows"))
    .filter((file) => file.endsWith(".yaml"))
    .sort();
  // Warm-up on the first flows, in a folder of its own: what follows is each further flow's cost.
  await generateAll(files.slice(0, 10), dir, path.join(dir, "warm-up"));
  const sums = await generateAll(files, dir, path.join(dir, "generated"));
  return { perFlow: Object.fromEntries(Object.entries(sums).map(([step, ms]) => [step, ms / files.length])) };
}

async function generateAll(files, dir, outputDir) {
  const sums = {};
  let at = cpuMs();
  const step = (name) => {
    const now = cpuMs();
    sums[name] = (sums[name] ?? 0) + now - at;
    at = now;
  };
  await generatorStamp();
  const lock = await lockOutputDirOrThrow(outputDir, "generated", "codegen.config.json");
  const staging = new StagingFolder(outputDir);
  const descriptions = new DescriptionsFile(staging);
  step("once: fingerprint, lock, manifest, swap");
  const flows = {};
  for (const file of files) {
    const name = file.slice(0, -".yaml".length);
    const bytes = fs.readFileSync(path.join(dir, "flows", file));
    step(STEPS[0]);
    const description = parseDescriptionOrThrow(bytes, `flows/${file}`);
    step(STEPS[1]);
    const model = buildFlowModelOrThrow(description, { name });
    step(STEPS[2]);
    const statements = flowModuleStatementsOrThrow(model, "@flowsmith/runtime/flow-module");
    step(STEPS[3]);
    // As emit/module-text.ts prints: a statement already printed goes to the writer as its text.
    const printed = printStructure(
      {
        kind: StructureKind.SourceFile,
        leadingTrivia: flowHeader(model.source),
        statements: statements.map((statement) =>
          statement.kind === "printed" ? (writer) => writer.blankLineIfLastNot().write(statement.text) : statement,
        ),
      },
      { indentNumberOfSpaces: 2 },
    );
    step(STEPS[4]);
    // moduleText is the print and this check; prettier runs only when the check fails (none of these flows).
    const index = inPrettierLayout(printed) ? printed : await moduleText(flowHeader(model.source), statements);
    step(STEPS[5]);
    // Measured apart, again: a share of the two rows above (the spec is built with the structures, printed with them).
    const started = cpuMs();
    jsonText(toFlowSpec(model));
    sums[STEPS[6]] = (sums[STEPS[6]] ?? 0) + cpuMs() - started;
    at = cpuMs();
    const copy = descriptionJson(description.document);
    step(STEPS[7]);
    flows[name] = { description: sha256(copy), files: { [`${name}/index.ts`]: sha256(index) } };
    step(STEPS[8]);
    staging.write(`${name}/index.ts`, index);
    descriptions.add(name, copy);
    step(STEPS[9]);
  }
  const descriptionsHash = descriptions.finish();
  fs.writeFileSync(
    path.join(staging.startOrThrow(), ".flowsmith-manifest.json"),
    serializeManifest({
      generator: await generatorStamp(),
      flows,
      descriptions: { "descriptions.json": descriptionsHash },
    }),
  );
  fs.renameSync(staging.dir, outputDir);
  staging.swapped();
  await lock.release();
  step("once: fingerprint, lock, manifest, swap");
  return sums;
}

const flowsArg = process.argv.indexOf("--flows");
const sizes = (flowsArg > 0 ? process.argv[flowsArg + 1] : "100,1000").split(",").map(Number);
main(sizes).catch((error) => {
  process.stderr.write(`codegen-steps: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
