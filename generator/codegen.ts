/**
 * The codegen pipeline: load config → read descriptions → build models →
 * emit → format → write atomically, or compare (--check). Library code: it
 * returns results and throws CodegenError; only cli.ts prints and exits.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadConfigOrThrow } from "./config/load-config.js";
import type { ResolvedConfig, ResolvedFlowConfig } from "./config/config-types.js";
import { CodegenError } from "./errors.js";
import { generatorFingerprint } from "./output/fingerprint.js";
import { MANIFEST_FILE, readManifest, serializeManifest, sha256, type Manifest, type ManifestFlow } from "./output/manifest.js";
import { findStaleFiles, listRelativeFiles, writeOutputAtomically, type StaleFile } from "./output/output-plan.js";
import { readSourceOrThrow } from "./sources.js";
import type { Environment } from "../runtime/flow-spec.js";

export interface CodegenOptions {
  /** Default "codegen.config.json" in the working directory. */
  readonly configPath?: string;
  /** Write nothing; report the files that differ. Default false. */
  readonly check?: boolean;
  /** Only these flows (by name) are read and generated; the others' output is kept as is. Default: all. */
  readonly flows?: readonly string[];
  /** Regenerate even where the manifest says nothing changed. Default false. */
  readonly force?: boolean;
  /** Called once per flow as soon as it is done, for progress output. */
  readonly onFlow?: (report: FlowReport) => void;
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
  const outputs: FlowOutput[] = [];
  for (const flow of config.flows) {
    const output = selected.has(flow) ? await generateFlowOrThrow(flow, context) : keepFlowOrThrow(flow, context);
    if (output.report) options.onFlow?.(output.report);
    outputs.push(output);
  }
  rejectDuplicateNamesOrThrow(outputs, config);
  const plan = await planOutput(outputs, context);
  const changes = options.check
    ? await findStaleFiles(plan, config.outputDir)
    : await writeOutputAtomically(plan, config.outputDir);
  return { config, flows: outputs.flatMap((output) => (output.report ? [output.report] : [])), changes };
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

async function generateFlowOrThrow(flow: ResolvedFlowConfig, context: RunContext): Promise<FlowOutput> {
  const started = performance.now();
  const errorContext = { pointer: flow.pointer, configFile: context.config.configDisplay, ...(flow.name ? { flow: flow.name } : {}) };
  const source = await readSourceOrThrow(flow.source, errorContext);
  const inputsHash = sha256(
    [context.fingerprint, context.config.runtimeImport, flow.name ?? "", source.display, sha256(source.bytes)].join("\n"),
  );
  const reused = context.reuse ? await findReusableOrUndefined(context, inputsHash) : undefined;
  if (reused) {
    return { name: reused.name, pointer: flow.pointer, entry: reused.entry, report: report(reused.name, reused.entry, context, started, true) };
  }
  // Loaded lazily: a run where every flow is reused never pays for ts-morph and prettier.
  const { parseDescriptionOrThrow } = await import("./read/load-description.js");
  const { buildFlowModelOrThrow } = await import("./model/build-flow-model.js");
  const { emitFlowOrThrow } = await import("./emit/emit-flow.js");
  const model = buildFlowModelOrThrow(parseDescriptionOrThrow(source.bytes, source.display), flow.name ? { name: flow.name } : {});
  const emitted = await emitFlowOrThrow(model, { runtimeImport: context.config.runtimeImport });
  const files = new Map(emitted.map((file) => [file.path, file.content]));
  const entry: ManifestFlow = {
    source: source.display,
    inputsHash,
    id: model.id,
    version: model.version,
    environment: model.environment,
    files: Object.fromEntries([...files].map(([file, content]) => [file, sha256(content)])),
  };
  return { name: model.name, pointer: flow.pointer, entry, files, report: report(model.name, entry, context, started, false) };
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

async function planOutput(outputs: readonly FlowOutput[], context: RunContext) {
  const files = new Map<string, string>();
  const keep = new Set<string>();
  const onDisk = await listRelativeFiles(context.config.outputDir);
  for (const output of outputs) {
    if (output.files) for (const [file, content] of output.files) files.set(file, content);
    else for (const file of Object.keys(output.entry.files)) if (onDisk.includes(file)) keep.add(file);
  }
  const index = await planIndexOrThrow(outputs.map((output) => output.name), context, onDisk);
  if (index.content === undefined) keep.add(INDEX_FILE);
  else files.set(INDEX_FILE, index.content);
  const entries = new Map(outputs.map((output) => [output.name, output.entry]));
  files.set(MANIFEST_FILE, serializeManifest(entries, index.entry));
  return { files, keep };
}

const INDEX_FILE = "index.ts";

/** generated/index.ts depends only on the flow names: reuse it when they did not change. */
async function planIndexOrThrow(names: readonly string[], context: RunContext, onDisk: readonly string[]) {
  const inputsHash = sha256([context.fingerprint, ...[...names].sort()].join("\n"));
  const previous = context.manifest.index;
  if (context.reuse && previous?.inputsHash === inputsHash && onDisk.includes(INDEX_FILE)) {
    const content = await readFile(path.join(context.config.outputDir, INDEX_FILE));
    if (sha256(content) === previous.sha256) return { content: undefined, entry: previous };
  }
  const { emitIndex } = await import("./emit/emit-flow.js");
  const emitted = await emitIndex([...names].sort().map((name) => ({ name })));
  return { content: emitted.content, entry: { inputsHash, sha256: sha256(emitted.content) } };
}

function report(name: string, entry: ManifestFlow, context: RunContext, started: number, reused: boolean): FlowReport {
  return {
    name,
    id: entry.id,
    version: entry.version,
    environment: entry.environment,
    output: `${context.config.outputDisplay}/${name}`,
    ms: Math.round(performance.now() - started),
    reused,
  };
}

/** The config's name, or for an unnamed flow the name it was generated under last time. */
function knownNameOf(flow: ResolvedFlowConfig, manifest: Manifest): string | undefined {
  if (flow.name) return flow.name;
  const display = flow.source.kind === "file" ? flow.source.display : undefined;
  return Object.entries(manifest.flows).find(([, entry]) => entry.source === display)?.[0];
}
