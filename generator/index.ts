/**
 * The generator as the rest of flowsmith sees it: the one module the CLI
 * (cli/) and the emulator import (test/entry-imports.mjs checks it). Each
 * command has one entry point here, which returns a result and throws
 * CodegenError; the CLI prints them. Every name is listed: an addition here
 * is a decision.
 */
import type { AddOptions, AddResult } from "./fetch/add-flow.js";
import type { DiffResult } from "./changes/diff-files.js";
import type { FlowsOptions, FlowsResult } from "./fetch/list-flows.js";
import type { InitOptions, InitResult } from "./init/run-init.js";
import type { CodegenOptions, CodegenResult } from "./pipeline.js";

/*
 * The commands' entry points are loaded when called: the emulator, which
 * imports this module too, and `flowsmith --version` then load none of the
 * pipeline, and a command loads only its own.
 */

/** `flowsmith codegen` (generator/pipeline.ts). */
export async function runCodegen(options: CodegenOptions): Promise<CodegenResult> {
  return (await import("./pipeline.js")).runCodegen(options);
}

/** `flowsmith init` (generator/init/run-init.ts). */
export async function runInit(options: InitOptions): Promise<InitResult> {
  return (await import("./init/run-init.js")).runInit(options);
}

/** `flowsmith add` (generator/fetch/add-flow.ts). */
export async function runAdd(options: AddOptions): Promise<AddResult> {
  return (await import("./fetch/add-flow.js")).runAdd(options);
}

/** `flowsmith flows` (generator/fetch/list-flows.ts). */
export async function runFlows(options: FlowsOptions): Promise<FlowsResult> {
  return (await import("./fetch/list-flows.js")).runFlows(options);
}

/** `flowsmith diff` (generator/changes/diff-files.ts). */
export async function runDiff(oldFile: string, newFile: string): Promise<DiffResult> {
  return (await import("./changes/diff-files.js")).runDiff(oldFile, newFile);
}

export type { AddOptions, DiffResult, FlowsResult, InitResult };
export type { InitNote } from "./init/run-init.js";
export type { CheckResult, CodegenResult, FlowReport, Progress, SnapshotChange, WriteResult } from "./pipeline.js";
export { watchConfig, type ConfigWatch } from "./config-watch.js";

// What every command prints with: errors, the config's place, the versions, the manifest, "did you mean".
export { CodegenError, errorLine, type CodegenErrorCode } from "./errors.js";
export { findConfigOrThrow, type Env } from "./config/load-config.js";
export { flowsmithVersion, runtimeVersion } from "./versions.js";
export { MANIFEST_FILE, type GeneratorStamp } from "./output/manifest.js";
export { closestOrUndefined } from "./did-you-mean.js";

// The flows of a config as models (the emulator serves them), and the model's types.
export { loadFlowFromTextOrThrow, loadFlowsOrThrow } from "./load-flows.js";
export { toJsonSchema, type JsonSchema } from "./model/json-schema.js";
export { checkOneVersionPerFlowOrThrow } from "./unique-flows.js";
export { hasFile } from "./model/request-body.js";
export type { FlowModel, ObjectSchema, PartName, Schema } from "./model/types.js";
