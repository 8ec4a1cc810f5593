/**
 * One flow's generation as a unit of work: description bytes in, the flow's
 * files out (read → model → emit). The pipeline runs it in this thread or in
 * a worker (emit-workers.ts); both give the same bytes.
 */
import { performance } from "node:perf_hooks";
import type { Environment } from "@flowsmith/runtime";
import type { EmittedFile } from "./emit-flow.js";

export interface FlowJob {
  readonly bytes: Uint8Array;
  /** How the source is named in messages and generated headers. */
  readonly display: string;
  /** The config's name for the flow, if it gives one. */
  readonly name?: string;
  readonly runtimeImport: string;
}

export interface FlowJobResult {
  readonly name: string;
  readonly id: string;
  readonly version: number;
  readonly environment: Environment;
  readonly files: readonly EmittedFile[];
  /** Time spent generating, in milliseconds. */
  readonly ms: number;
}

export async function runFlowJobOrThrow(job: FlowJob): Promise<FlowJobResult> {
  const started = performance.now();
  // Loaded lazily: a run where every flow is reused never pays for ts-morph and prettier.
  const { parseDescriptionOrThrow } = await import("../read/load-description.js");
  const { buildFlowModelOrThrow } = await import("../model/build-flow-model.js");
  const { emitFlowOrThrow } = await import("./emit-flow.js");
  const model = buildFlowModelOrThrow(parseDescriptionOrThrow(job.bytes, job.display), job.name ? { name: job.name } : {});
  const files = await emitFlowOrThrow(model, { runtimeImport: job.runtimeImport });
  const { name, id, version, environment } = model;
  return { name, id, version, environment, files, ms: performance.now() - started };
}

/** Loads the reader, model builder and emitter ahead of the first job. */
export async function preloadFlowJob(): Promise<void> {
  await Promise.all([import("../read/load-description.js"), import("../model/build-flow-model.js"), import("./emit-flow.js")]);
}

/** generated/index.ts from the flow names. */
export async function runIndexJob(names: readonly string[]): Promise<EmittedFile> {
  const { emitIndex } = await import("./emit-index.js");
  return emitIndex(names.map((name) => ({ name })));
}
