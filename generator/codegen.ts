/**
 * The codegen pipeline: load config → read descriptions → build models →
 * emit → format (those three on worker threads when there are enough flows)
 * → write atomically, or compare (--check). Library code: it
 * returns results and throws CodegenError; only cli.ts prints and exits.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadConfigOrThrow } from "./config/load-config.js";
import type { ResolvedConfig, ResolvedFlowConfig } from "./config/config-types.js";
import { CodegenError } from "./errors.js";
import { createFlowRunner, type FlowRunner } from "./emit/emit-workers.js";
import { generatorFingerprint } from "./output/fingerprint.js";
import { MANIFEST_FILE, readManifest, serializeManifest, sha256, type Manifest, type ManifestFlow } from "./output/manifest.js";
import { findStaleFiles, listRelativeFiles, writeOutputAtomically, type StaleFile } from "./output/output-plan.js";
import { readSourceOrThrow } from "./sources.js";
import type { Environment } from "@flowsmith/runtime";

export interface CodegenOptions {
  /** Default "codegen.config.json" in the working directory. */
  readonly configPath?: string;
  /** Write nothing; report the files that differ. Default false. */
  readonly check?: boolean;
  /** Only these flows (by name) are read and generated; the others' output is kept as is. Default: all. */
  readonly flows?: readonly string[];
  /** Regenerate even where the manifest says nothing changed. Default false. */
  readonly force?: boolean;
  /** Called once per flow, in config order, as soon as it and the flows before it are done, for progress output. */
  readonly onFlow?: (report: FlowReport) => void;
  /**
   * Worker threads that generate flows. Default: on machines of 4 or more
   * cores and runs of 4 or more flows to generate, one per core but one;
   * else none. 0 = generate in this thread.
   */
  readonly workers?: number;
}

export interface FlowReport {
  readonly name: string;
  readonly id: string;
  readonly version: number;
  readonly environment: Environment;
  readonly output: string;
  readonly ms: number;
  /** True when the manifest showed nothing changed and the flow was not regenerated. */
  readonly reused: boolean;
}

export interface CodegenResult {
  readonly config: ResolvedConfig;
  readonly flows: readonly FlowReport[];
  /** Check mode: files that differ. Write mode: files that were written or removed. */
  readonly changes: readonly StaleFile[];
}

export async function runCodegen(options: CodegenOptions = {}): Promise<CodegenResult> {
  const config = await loadConfigOrThrow(options.configPath);
  const manifest = await readManifest(config.outputDir);
  const selected = selectFlowsOrThrow(config, manifest, options.flows);
  const context: RunContext = {
    config,
    manifest,
    reuse: !options.force,
    fingerprint: await generatorFingerprint(),
  };
  const runner = createFlowRunner(selected.size, options.workers);
  try {
    const outputs = await generateInConfigOrderOrThrow(config, selected, context, runner, options.onFlow);
    rejectDuplicateNamesOrThrow(outputs, config);
    const plan = await planOutput(outputs, context, runner);
    const changes = options.check
      ? await findStaleFiles(plan, config.outputDir)
      : await writeOutputAtomically(plan, config.outputDir);
    return { config, flows: outputs.flatMap((output) => (output.report ? [output.report] : [])), changes };
  } finally {
    await runner.close();
  }
}

/**
 * Every flow starts at once (generation runs on the runner's workers), but
 * results are taken in config order: progress lines, output and the error
 * reported (that of the first failing flow) are the same however the work
 * was spread.
 */
async function generateInConfigOrderOrThrow(
  config: ResolvedConfig,
  selected: ReadonlySet<ResolvedFlowConfig>,
  context: RunContext,
  runner: FlowRunner,
  onFlow: CodegenOptions["onFlow"],
): Promise<FlowOutput[]> {
  const started = config.flows.map((flow) =>
    selected.has(flow) ? generateFlowOrThrow(flow, context, runner) : Promise.resolve().then(() => keepFlowOrThrow(flow, context)),
  );
  // Awaited in order below; a later flow's failure must not count as unhandled meanwhile.
  for (const output of started) output.catch(() => undefined);
  const outputs: FlowOutput[] = [];
  for (const output of started) {
    const done = await output;
    if (done.report) onFlow?.(done.report);
    outputs.push(done);
  }
  return outputs;
}

interface RunContext {
  readonly config: ResolvedConfig;
  readonly manifest: Manifest;
  /** False with --force: regenerate every selected flow. */
  readonly reuse: boolean;
  readonly fingerprint: string;
}

interface FlowOutput {
  readonly name: string;
  readonly pointer: string;
  readonly entry: ManifestFlow;
  /** New content; undefined when the files on disk are kept. */
  readonly files?: ReadonlyMap<string, string>;
  /** Undefined for flows left out by --flow. */
  readonly report?: FlowReport;
}

function selectFlowsOrThrow(
  config: ResolvedConfig,
  manifest: Manifest,
  names: readonly string[] | undefined,
): Set<ResolvedFlowConfig> {
  if (!names || names.length === 0) return new Set(config.flows);
  const selected = new Set<ResolvedFlowConfig>();
  for (const name of names) {
    const flow = config.flows.find((candidate) => knownNameOf(candidate, manifest) === name);
    if (!flow) {
      const known = config.flows.map((candidate) => knownNameOf(candidate, manifest)).filter(Boolean);
      throw new CodegenError("CONFIG_INVALID", `--flow ${name}: no such flow (known: ${known.join(", ")})`, {
        file: config.configDisplay,
      });
    }
    selected.add(flow);
  }
  return selected;
}

async function generateFlowOrThrow(flow: ResolvedFlowConfig, context: RunContext, runner: FlowRunner): Promise<FlowOutput> {
  const started = performance.now();
  const errorContext = { pointer: flow.pointer, configFile: context.config.configDisplay, ...(flow.name ? { flow: flow.name } : {}) };
  const source = await readSourceOrThrow(flow.source, errorContext);
  const inputsHash = sha256(
    [context.fingerprint, context.config.runtimeImport, flow.name ?? "", source.display, sha256(source.bytes)].join("\n"),
  );
  const reused = context.reuse ? await findReusableOrUndefined(context, inputsHash) : undefined;
  if (reused) {
    const ms = performance.now() - started;
    return { name: reused.name, pointer: flow.pointer, entry: reused.entry, report: report(reused.name, reused.entry, context, ms, true) };
  }
  const generated = await runner
    .runFlow({
      bytes: source.bytes,
      display: source.display,
      runtimeImport: context.config.runtimeImport,
      ...(flow.name ? { name: flow.name } : {}),
    })
    .catch((error: unknown) => {
      throw withFlowName(error, flow.name);
    });
  const files = new Map(generated.files.map((file) => [file.path, file.content]));
  const entry: ManifestFlow = {
    source: source.display,
    inputsHash,
    id: generated.id,
    version: generated.version,
    environment: generated.environment,
    files: Object.fromEntries([...files].map(([file, content]) => [file, sha256(content)])),
  };
  return { name: generated.name, pointer: flow.pointer, entry, files, report: report(generated.name, entry, context, generated.ms, false) };
}

/** The reader and model builder know the file, not the config's name for the flow: add it. */
function withFlowName(error: unknown, name: string | undefined): unknown {
  if (!(error instanceof CodegenError) || error.context.flow || name === undefined) return error;
  return new CodegenError(error.code, error.detail, { ...error.context, flow: name }, { cause: error });
}

/** A flow left out by --flow keeps its output; its manifest entry tells its name and files. */
function keepFlowOrThrow(flow: ResolvedFlowConfig, context: RunContext): FlowOutput {
  const name = knownNameOf(flow, context.manifest);
  const entry = name === undefined ? undefined : context.manifest.flows[name];
  if (name === undefined || !entry) {
    throw new CodegenError("CONFIG_INVALID", "this flow has not been generated yet; run codegen without --flow first", {
      file: context.config.configDisplay,
      pointer: flow.pointer,
    });
  }
  return { name, pointer: flow.pointer, entry };
}

async function findReusableOrUndefined(context: RunContext, inputsHash: string): Promise<{ name: string; entry: ManifestFlow } | undefined> {
  const found = Object.entries(context.manifest.flows).find(([, entry]) => entry.inputsHash === inputsHash);
  if (!found) return undefined;
  for (const [file, hash] of Object.entries(found[1].files)) {
    const content = await readFile(path.join(context.config.outputDir, file)).catch(() => undefined);
    if (!content || sha256(content) !== hash) return undefined;
  }
  return { name: found[0], entry: found[1] };
}

function rejectDuplicateNamesOrThrow(outputs: readonly FlowOutput[], config: ResolvedConfig): void {
  const seen = new Map<string, FlowOutput>();
  for (const output of outputs) {
    const first = seen.get(output.name);
    if (first) {
      throw new CodegenError(
        "DUPLICATE_NAME",
        `two flows are named "${output.name}" (${first.pointer} and ${output.pointer}); give one a different "name"`,
        { file: config.configDisplay, pointer: output.pointer },
      );
    }
    seen.set(output.name, output);
  }
}

async function planOutput(outputs: readonly FlowOutput[], context: RunContext, runner: FlowRunner) {
  const files = new Map<string, string>();
  const keep = new Set<string>();
  const onDisk = await listRelativeFiles(context.config.outputDir);
  for (const output of outputs) {
    if (output.files) for (const [file, content] of output.files) files.set(file, content);
    else for (const file of Object.keys(output.entry.files)) if (onDisk.includes(file)) keep.add(file);
  }
  const index = await planIndexOrThrow(outputs.map((output) => output.name), context, onDisk, runner);
  if (index.content === undefined) keep.add(INDEX_FILE);
  else files.set(INDEX_FILE, index.content);
  const entries = new Map(outputs.map((output) => [output.name, output.entry]));
  files.set(MANIFEST_FILE, serializeManifest(entries, index.entry));
  return { files, keep };
}

const INDEX_FILE = "index.ts";

/** generated/index.ts depends only on the flow names: reuse it when they did not change. */
async function planIndexOrThrow(names: readonly string[], context: RunContext, onDisk: readonly string[], runner: FlowRunner) {
  const inputsHash = sha256([context.fingerprint, ...[...names].sort()].join("\n"));
  const previous = context.manifest.index;
  if (context.reuse && previous?.inputsHash === inputsHash && onDisk.includes(INDEX_FILE)) {
    const content = await readFile(path.join(context.config.outputDir, INDEX_FILE));
    if (sha256(content) === previous.sha256) return { content: undefined, entry: previous };
  }
  const emitted = await runner.runIndex([...names].sort());
  return { content: emitted.content, entry: { inputsHash, sha256: sha256(emitted.content) } };
}

function report(name: string, entry: ManifestFlow, context: RunContext, ms: number, reused: boolean): FlowReport {
  return {
    name,
    id: entry.id,
    version: entry.version,
    environment: entry.environment,
    output: `${context.config.outputDisplay}/${name}`,
    ms: Math.round(ms),
    reused,
  };
}

/** The config's name, or for an unnamed flow the name it was generated under last time. */
function knownNameOf(flow: ResolvedFlowConfig, manifest: Manifest): string | undefined {
  if (flow.name) return flow.name;
  const display = flow.source.kind === "file" ? flow.source.display : undefined;
  return Object.entries(manifest.flows).find(([, entry]) => entry.source === display)?.[0];
}
