"use strict";
/**
 * The benchmark's scratch folder (.bench-tmp/<mode>/, gitignored): the varied
 * descriptions with their codegen config, each tool's output, the type-check
 * consumers and the upload files. Recreated on every run.
 */
const fs = require("node:fs");
const path = require("node:path");
const { writeFlowVariants } = require("./flow-variants.js");

const REPO_ROOT = path.resolve(__dirname, "..");

function createWorkspace(mode, flowCount) {
  const root = path.join(REPO_ROOT, ".bench-tmp", mode);
  fs.rmSync(root, { recursive: true, force: true });
  const flowsmithDir = path.join(root, "flowsmith");
  const openapiDir = path.join(root, "openapi-typescript");
  fs.mkdirSync(openapiDir, { recursive: true });
  // openapi-fetch is ESM-only: its consumer lives in an ESM package scope.
  fs.writeFileSync(path.join(openapiDir, "package.json"), '{ "type": "module", "private": true }\n');
  const flows = writeFlowVariants(REPO_ROOT, flowsmithDir, flowCount);
  return {
    repoRoot: REPO_ROOT,
    root,
    flows,
    flowsmithDir,
    flowsDir: path.join(flowsmithDir, "flows"),
    configPath: path.join(flowsmithDir, "codegen.config.json"),
    generatedDir: path.join(flowsmithDir, "generated"),
    openapiDir,
    openapiTypesDir: path.join(openapiDir, "types"),
    filesDir: path.join(root, "files"),
    cli: path.join(REPO_ROOT, "bin", "flowsmith.js"),
    tsc: path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"),
  };
}

/** The first variant of each sample keeps the sample's field set; request benchmarks use these. */
function flowOf(workspace, sample) {
  const flow = workspace.flows.find((candidate) => candidate.sample === sample);
  if (!flow) throw new Error(`workspace has no ${sample} flow`);
  return flow;
}

module.exports = { createWorkspace, flowOf, REPO_ROOT };
