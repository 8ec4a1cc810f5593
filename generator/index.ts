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
import type { ConfigWatch, ConfigWatchOptions } from "./config-watch.js";
import type { LoadedFlow } from "./load-flows.js";

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
/** Watches a config and its descriptions (`codegen --watch`, `emulator --watch`): chokidar, loaded when watching starts. */
export async function watchConfig(options: ConfigWatchOptions): Promise<ConfigWatch> {
  return (await import("./config-watch.js")).watchConfig(options);
}
export type { ConfigWatch, ConfigWatchOptions };

// What every command prints with: errors, the config's place, the versions, the manifest, "did you mean".
export { CodegenError, errorLine, type CodegenErrorCode } from "./errors.js";
/** The nearest codegen.config.json at or above `start` (the config's reader, loaded when asked). */
export async function findConfigOrThrow(start: string): Promise<string> {
  return (await import("./config/load-config.js")).findConfigOrThrow(start);
}
export type { Env } from "./config/load-config.js";
export { flowsmithVersion, runtimeVersion } from "./versions.js";
export { MANIFEST_FILE, type GeneratorStamp } from "./output/manifest.js";
export { closestOrUndefined } from "./did-you-mean.js";

// The flows of a config as models (the emulator serves them), and the model's types.
/** The flows of a config as models (the reader and the model builder, loaded when asked). */
export async function loadFlowsOrThrow(configPath?: string): Promise<LoadedFlow[]> {
  return (await import("./load-flows.js")).loadFlowsOrThrow(configPath);
}

/** One description's model, from its text (the emulator's POST /__emulator/flows). */
export function loadFlowFromTextOrThrow(text: string | Uint8Array, displayPath: string): LoadedFlow {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous, and loaded only when a flow is published
  return (require("./load-flows.js") as typeof import("./load-flows.js")).loadFlowFromTextOrThrow(text, displayPath);
}
export type { LoadedFlow };
export { toJsonSchema, type JsonSchema } from "./model/json-schema.js";
export { checkOneVersionPerFlowOrThrow } from "./unique-flows.js";
export { hasFile } from "./model/has-file.js";
export type { FlowModel, ObjectSchema, PartName, Schema } from "./model/types.js";
