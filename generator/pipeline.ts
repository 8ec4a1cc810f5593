/**
 * The codegen run, step by step: load config → read (or, for api flows,
 * fetch) descriptions → build models → emit (emit/ prints each module in
 * prettier's layout and runs prettier only where that layout is not certain;
 * validators come from the validator cache when it has them) → plan → write
 * or check → write fetched snapshots and new cache entries.
 * Each step is a module of its own folder (config/, fetch/, read/, model/,
 * emit/, cache/, output/); this file strings them together. Library code: it returns
 * results and throws CodegenError; only cli.ts prints and exits.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadConfigOrThrow, withConfigPosition, type Env } from "./config/load-config.js";
import type { ResolvedConfig, ResolvedFlowConfig } from "./config/config-types.js";
import { defaultCacheDir, ValidatorCacheDir, type ValidatorCacheReport } from "./cache/validator-cache.js";
import { CodegenError } from "./errors.js";
import { inThisThread, type Executor } from "./executor.js";
import { checkApiFlowOrThrow, readApiSourceOrThrow, type FetchedSnapshot } from "./fetch/api-source.js";
import { ServiceClients } from "./fetch/service-clients.js";
import { writeSnapshotOrThrow } from "./fetch/snapshot.js";
import { rejectTwoVersionsOfOneFlowOrThrow, type ConfigFlow } from "./duplicate-flows.js";
import { changeSinceCopyOrUndefined, descriptionCopyPath, type DescriptionChange } from "./output/description-copy.js";
import { descriptionJson } from "./output/description-json.js";
import { generatorStamp } from "./output/fingerprint.js";
import { sha256, type GeneratorStamp, type ManifestFlow, type ManifestIndex } from "./output/manifest.js";
import { openOutputDirOrThrow, type OutputDirState } from "./output/output-dir.js";
import { planOutput, type FileChange, type KeptFile, type PlannedFiles } from "./output/output-plan.js";
import { assertOutputDirSafeOrThrow } from "./output/output-safety.js";
import { checkOutput, writeOutputOrThrow } from "./output/write-output.js";
import { readSourceOrThrow, type SourceBytes, type SourceContext } from "./read/read-source.js";
import type { Environment } from "@flowsmith/runtime";
import type { ApiSourceRun } from "./fetch/api-source.js";

export interface CodegenOptions {
  /** Default "codegen.config.json" in the working directory. */
  readonly configPath?: string;
  /** Regenerate every selected flow and compare bytes with outputDir; write nothing. Default false. */
  readonly check?: boolean;
  /** Only these flows, by the config's name or, for a flow without one, the name derived from its title. Default: all. */
  readonly flows?: readonly string[];
  /** A write regenerates even the flows the manifest shows unchanged, and replaces generated files edited by hand (else OUTPUT_EDITED). Default false. */
  readonly force?: boolean;
  /** Fetch every selected api flow from the service again, even where a snapshot exists. Default false. */
  readonly refresh?: boolean;
  /** Where FLOWSMITH_BASE_URL, FLOWSMITH_AUTH_URL and the client credentials are read. Default process.env. */
  readonly env?: Env;
  /**
   * Where a write keeps the validators it compiled, for later runs (cache/validator-cache.ts).
   * Default: node_modules/.cache/flowsmith/validators in the nearest node_modules above the
   * config (none without one); false: no cache. --check never uses one.
   */
  readonly cacheDir?: string | false;
  /** How per-flow work is spread. Default: this thread, one flow after another. */
  readonly executor?: Executor;
  /** Called as each flow is done (generated, reused or left out), in config order. */
  readonly onProgress?: (progress: Progress) => void;
}

export interface Progress {
  readonly done: number;
  readonly total: number;
  readonly flow: string;
}

export interface FlowReport {
  readonly name: string;
  readonly id: string;
  readonly version: number;
  readonly environment: Environment;
  /** `<outputDir>/<name>`, for messages. */
  readonly output: string;
  readonly ms: number;
  /** generated: emitted this run; unchanged: a write reused the files on disk; checked: emitted and compared (--check). */
  readonly status: "generated" | "unchanged" | "checked";
  /** Set when the description differs from the one the current output was generated from. */
  readonly changed?: DescriptionChange;
}

/** A snapshot fetched this run: written (a write), or one a write would write (--check --refresh). */
export interface SnapshotChange {
  /** Relative to the config, posix. */
  readonly path: string;
  readonly flow: string;
  readonly reason: "added" | "changed";
}

export interface CodegenResult {
  readonly config: ResolvedConfig;
  /** The flows generated, reused or checked, in config order; not those left out by --flow. */
  readonly flows: readonly FlowReport[];
  /** Check: what a write would add, change or delete. Write: what it added, changed or deleted. */
  readonly changes: readonly FileChange[];
  /** Found under outputDir and not flowsmith's to replace or delete: kept as they are. */
  readonly kept: readonly KeptFile[];
  /** Flows left out by --flow that have no output yet (config pointers). */
  readonly notGenerated: readonly string[];
  /** Check: the manifest differs only in the flowsmith that wrote it (the files are the same). */
  readonly otherGenerator?: { readonly generator?: GeneratorStamp };
  /** Check: changed files the manifest agrees with (edited along with it): a write reuses them, --force replaces them. */
  readonly editedWithManifest: readonly string[];
  /** Check: changed files whose bytes differ from the manifest's hash (edited by hand): a write refuses them, --force replaces them. */
  readonly editedByHand: readonly string[];
  /** Interrupted writes finished or undone before this run, one sentence each. */
  readonly recovered: readonly string[];
  /** Write: files of the old outputDir that could not be matched with the new one (left beside it; never expected). */
  readonly unverified: readonly string[];
  /** Snapshots of api flows fetched this run whose content is new. */
  readonly snapshots: readonly SnapshotChange[];
  /** Write: the validators the cache gave and those compiled into it; undefined without a cache. */
  readonly validatorCache?: ValidatorCacheReport;
}

export async function runCodegen(options: CodegenOptions = {}): Promise<CodegenResult> {
  const mode = options.check ? "check" : "write";
  // 1. The config; outputDir must be a folder flowsmith owns, checked before anything else is read.
  const config = await loadConfigOrThrow(options.configPath, options.env);
  await assertOutputDirSafeOrThrow(config);
  // A write holds outputDir's lock from here to the end (released however the run ends); --check takes none.
  const output = await openOutputDirOrThrow(config, mode);
  const clients = new ServiceClients(config.service, options.env ?? process.env, config.configDisplay);
  try {
    const generator = await generatorStamp();
    const run: Run = {
      config,
      output,
      mode,
      generator,
      validatorCache: mode === "write" ? validatorCacheOrUndefined(options.cacheDir, config, generator) : undefined,
      reuse: mode === "write" && !options.force,
      selected: options.flows && options.flows.length > 0 ? new Set(options.flows) : undefined,
      progress: progressCounter(config.flows.length, options.onProgress),
      api: { mode, refresh: options.refresh ?? false, clients },
    };
    // 2-4. Per flow: read (or fetch) its description, build its model, emit its files.
    const flows = await (options.executor ?? inThisThread).map(config.flows, (flow) => generateFlowOrThrow(flow, run));
    rejectUnknownFlowsOrThrow(flows, run);
    rejectTwoVersionsOfOneFlowOrThrow(inOutputDir(flows), config);
    const planned = plannedFlowsOrThrow(flows, config);
    const index = await generateIndexOrThrow([...planned.keys()], run);
    // 5. What outputDir should hold; 6. compare it with outputDir, or make outputDir hold it; 7. then the snapshots.
    const plan = planOutput(planned, index, run.generator);
    const outcome = mode === "check" ? await checkOutput(plan, output) : await writeOutputOrThrow(plan, output, { replaceEdits: options.force ?? false });
    const snapshots = await settleSnapshotsOrThrow(flows, run);
    const validatorCache = await run.validatorCache?.flush();
    return {
      config,
      flows: flows.flatMap((flow) => (flow.report ? [flow.report] : [])),
      notGenerated: flows.filter((flow) => !flow.entry).map((flow) => flow.pointer),
      recovered: output.recovered,
      unverified: [],
      editedWithManifest: [],
      editedByHand: [],
      ...outcome,
      snapshots,
      ...(validatorCache ? { validatorCache } : {}),
    };
  } catch (error) {
    throw withConfigPosition(config, error);
  } finally {
    await Promise.all([clients.close(), output.release()]);
  }
}

interface Run {
  readonly config: ResolvedConfig;
  readonly output: OutputDirState;
  readonly mode: "write" | "check";
  readonly generator: GeneratorStamp;
  readonly validatorCache: ValidatorCacheDir | undefined;
  /** A write without --force: flows the manifest shows unchanged are not regenerated. */
  readonly reuse: boolean;
  /** --flow names; undefined = every flow. */
  readonly selected?: ReadonlySet<string>;
  readonly progress: (flow: string) => void;
  readonly api: ApiSourceRun;
}

interface FlowOutcome {
  readonly pointer: string;
  /** The config's name, or the one derived from the title (a flow is read to learn it). */
  readonly name: string;
  /** Undefined for a flow left out by --flow that has no output yet. */
  readonly entry?: ManifestFlow;
  /** New content; undefined when flowsmith's files on disk stay as they are. */
  readonly files?: ReadonlyMap<string, string>;
  /** Undefined for flows left out by --flow. */
  readonly report?: FlowReport;
  /** An api flow's description fetched this run, its snapshot not yet written. */
  readonly fetched?: FetchedSnapshot;
}

/** One flow: read (or fetch) its description → build its model → emit its files (in prettier's layout: emit/module-text.ts). */
async function generateFlowOrThrow(flow: ResolvedFlowConfig, run: Run): Promise<FlowOutcome> {
  const started = performance.now();
  const known = flow.name ?? nameInManifest(flow, run);
  if (known !== undefined && isLeftOut(known, run)) return leftOut(flow, known, run);
  const where = { pointer: flow.pointer, configFile: run.config.configDisplay, ...(flow.name ? { flow: flow.name } : {}) };
  const source = await readFlowSourceOrThrow(flow, where, run);
  const fetched = source.fetched;
  const inputsHash = sha256([run.config.runtimeImport, flow.name ?? "", source.display, sha256(source.bytes), ...(run.config.closedDataBlocks ? ["closedDataBlocks"] : [])].join("\n"));
  const reused = run.reuse ? await reusableOrUndefined(inputsHash, run) : undefined;
  if (reused) {
    checkSourceIdentityOrThrow(flow, reused.entry, reused.name, fetched, run);
    return done(flow, reused.name, reused.entry, { fetched }, started, run);
  }
  const steps = await generationSteps();
  try {
    const description = steps.parseDescriptionOrThrow(source.bytes, source.display);
    const model = steps.buildFlowModelOrThrow(description, flow.name ? { name: flow.name } : {});
    if (isLeftOut(model.name, run)) return leftOut(flow, model.name, run);
    checkSourceIdentityOrThrow(flow, model, model.name, fetched, run);
    const { runtimeImport } = run.config;
    const emitted = await steps.emitFlowOrThrow(run.config.closedDataBlocks ? steps.withClosedDataBlocks(model) : model, { runtimeImport, ...(run.validatorCache ? { validatorCache: run.validatorCache } : {}) });
    const copy = descriptionJson(description.document);
    const files = new Map([...emitted.map((file): [string, string] => [file.path, file.content]), [descriptionCopyPath(model.name), copy]]);
    const changed = await changeSinceCopyOrUndefined(copy, model, run.output);
    const hashes = Object.fromEntries([...files].map(([file, content]) => [file, sha256(content)]));
    const { id, version, environment } = model;
    const entry = { source: source.display, inputsHash, id, version, environment, files: hashes };
    return done(flow, model.name, entry, { files, fetched, changed }, started, run);
  } catch (error) {
    throw withFlowName(error, flow.name);
  }
}

/** A file source is read; an api source is its snapshot, or fetched (fetch/api-source.ts). */
async function readFlowSourceOrThrow(
  flow: ResolvedFlowConfig,
  where: SourceContext,
  run: Run,
): Promise<SourceBytes & { readonly fetched?: FetchedSnapshot }> {
  if (flow.source.kind === "file") return readSourceOrThrow(flow.source, where);
  return readApiSourceOrThrow(flow.source, where, run.api);
}

/** An api flow must be the flow and (when pinned) the version its entry names; a file flow is what it is. */
function checkSourceIdentityOrThrow(
  flow: ResolvedFlowConfig,
  found: Pick<ManifestFlow, "id" | "version" | "environment">,
  name: string,
  fetched: FetchedSnapshot | undefined,
  run: Run,
): void {
  if (flow.source.kind !== "api") return;
  checkApiFlowOrThrow(flow.source, found, fetched !== undefined, { name, pointer: flow.pointer, config: run.config });
}

function done(
  flow: ResolvedFlowConfig,
  name: string,
  entry: ManifestFlow,
  result: { files?: ReadonlyMap<string, string>; fetched?: FetchedSnapshot | undefined; changed?: DescriptionChange | undefined },
  started: number,
  run: Run,
): FlowOutcome {
  run.progress(name);
  const { files, fetched, changed } = result;
  const status = run.mode === "check" ? "checked" : files ? "generated" : "unchanged";
  const { id, version, environment } = entry;
  const ms = Math.round(performance.now() - started);
  const report: FlowReport = {
    name,
    id,
    version,
    environment,
    output: `${run.config.outputDisplay}/${name}`,
    ms,
    status,
    ...(changed ? { changed } : {}),
  };
  return { pointer: flow.pointer, name, entry, ...(files ? { files } : {}), ...(fetched ? { fetched } : {}), report };
}

/** A flow left out by --flow keeps what the last run wrote for it, if anything. */
function leftOut(flow: ResolvedFlowConfig, name: string, run: Run): FlowOutcome {
  run.progress(name);
  const entry = run.output.manifest?.flows[name];
  return { pointer: flow.pointer, name, ...(entry ? { entry } : {}) };
}

function isLeftOut(name: string, run: Run): boolean {
  return run.selected !== undefined && !run.selected.has(name);
}

/** A flow without a name in the config: the name it was generated under last time, if the manifest knows its source. */
function nameInManifest(flow: ResolvedFlowConfig, run: Run): string | undefined {
  const display = flow.source.kind === "file" ? flow.source.display : flow.source.snapshot.display;
  return Object.entries(run.output.manifest?.flows ?? {}).find(([, entry]) => entry.source === display)?.[0];
}

/** The same inputs under the same generator, and every file still as written: nothing to regenerate. */
async function reusableOrUndefined(inputsHash: string, run: Run): Promise<{ name: string; entry: ManifestFlow } | undefined> {
  const manifest = run.output.manifest;
  if (manifest?.generator?.fingerprint !== run.generator.fingerprint) return undefined;
  const found = Object.entries(manifest.flows).find(([, entry]) => entry.inputsHash === inputsHash);
  if (!found || !(await filesAsWritten(found[1].files, run.output))) return undefined;
  return { name: found[0], entry: found[1] };
}

async function filesAsWritten(files: Readonly<Record<string, string>>, output: OutputDirState): Promise<boolean> {
  for (const [file, hash] of Object.entries(files)) {
    const content = await readFile(path.join(output.dir, file)).catch(() => undefined);
    if (!content || sha256(content) !== hash) return false;
  }
  return true;
}

/** `<outputDir>/index.ts` depends only on the flow names. */
async function generateIndexOrThrow(names: readonly string[], run: Run): Promise<PlannedFiles<ManifestIndex>> {
  const sorted = [...names].sort();
  const inputsHash = sha256(sorted.join("\n"));
  const previous = run.output.manifest?.index;
  const sameGenerator = run.output.manifest?.generator?.fingerprint === run.generator.fingerprint;
  if (run.reuse && sameGenerator && previous?.inputsHash === inputsHash && (await filesAsWritten(previous.files, run.output))) {
    return { entry: previous };
  }
  const file = await (await generationSteps()).emitIndex(sorted.map((name) => ({ name })));
  return { entry: { inputsHash, files: { [file.path]: sha256(file.content) } }, files: new Map([[file.path, file.content]]) };
}

function rejectUnknownFlowsOrThrow(flows: readonly FlowOutcome[], run: Run): void {
  const known = flows.map((flow) => flow.name);
  const unknown = [...(run.selected ?? [])].filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  throw new CodegenError("UNKNOWN_FLOW", `--flow ${unknown.join(", ")}: no such flow (known: ${known.join(", ")})`, {
    file: run.config.configDisplay,
  });
}

/** The flows outputDir holds after this run (generated, reused, or left out by --flow with earlier output), with their entries. */
function inOutputDir(flows: readonly FlowOutcome[]): ConfigFlow[] {
  return flows.flatMap((flow) => (flow.entry ? [{ entry: flow.entry, name: flow.name, pointer: flow.pointer }] : []));
}

/**
 * Fetched snapshots are written once outputDir holds what they produced (a
 * failed run leaves them as they were); --check writes none and lists them.
 */
async function settleSnapshotsOrThrow(flows: readonly FlowOutcome[], run: Run): Promise<SnapshotChange[]> {
  const changes: SnapshotChange[] = [];
  for (const flow of flows) {
    const fetched = flow.fetched;
    if (!fetched || fetched.change === "unchanged") continue;
    if (run.mode === "write") await writeSnapshotOrThrow(fetched.file, fetched.text, { file: run.config.configDisplay, pointer: `${flow.pointer}/source/api`, flow: flow.name });
    changes.push({ path: fetched.file.display, flow: flow.name, reason: fetched.change });
  }
  return changes;
}

/** The flows that end up in outputDir, by name; two flows may not share one. */
function plannedFlowsOrThrow(flows: readonly FlowOutcome[], config: ResolvedConfig): Map<string, PlannedFiles<ManifestFlow>> {
  const planned = new Map<string, PlannedFiles<ManifestFlow> & { pointer: string }>();
  for (const flow of flows) {
    if (!flow.entry) continue;
    const first = planned.get(flow.name);
    if (first) {
      throw new CodegenError(
        "DUPLICATE_NAME",
        `two flows are named "${flow.name}" (${first.pointer} and ${flow.pointer}); give one a different "name"`,
        { file: config.configDisplay, pointer: flow.pointer },
      );
    }
    planned.set(flow.name, { entry: flow.entry, ...(flow.files ? { files: flow.files } : {}), pointer: flow.pointer });
  }
  return planned;
}

/** The reader and model builder know the file, not the config's name for the flow: add it. */
function withFlowName(error: unknown, name: string | undefined): unknown {
  if (!(error instanceof CodegenError) || error.context.flow || name === undefined) return error;
  return new CodegenError(error.code, error.detail, { ...error.context, flow: name }, { cause: error });
}

/**
 * read/, model/ and emit/ load YAML, ts-morph with its TypeScript, and ajv
 * on a validator cache miss: about half a second. Loaded on first use (as
 * output/description-copy.ts loads the reader and changes/ only for a
 * changed description), so a run whose flows are all unchanged (and --help)
 * never pays for them.
 */
let steps: Promise<GenerationSteps> | undefined;
type GenerationSteps = typeof import("./read/load-description.js") &
  typeof import("./model/build-flow-model.js") &
  typeof import("./model/closed-data-blocks.js") &
  typeof import("./emit/emit-flow.js") &
  typeof import("./emit/emit-index.js");

function generationSteps(): Promise<GenerationSteps> {
  steps ??= Promise.all([
    import("./read/load-description.js"),
    import("./model/build-flow-model.js"),
    import("./model/closed-data-blocks.js"),
    import("./emit/emit-flow.js"),
    import("./emit/emit-index.js"),
  ]).then(([read, model, closed, emitFlow, emitIndex]) => ({ ...read, ...model, ...closed, ...emitFlow, ...emitIndex }));
  return steps;
}

function validatorCacheOrUndefined(cacheDir: string | false | undefined, config: ResolvedConfig, generator: GeneratorStamp): ValidatorCacheDir | undefined {
  const dir = cacheDir === false ? undefined : cacheDir === undefined ? defaultCacheDir(config.configPath) : path.resolve(cacheDir);
  return dir === undefined ? undefined : new ValidatorCacheDir(dir, generator.fingerprint);
}

function progressCounter(total: number, onProgress: CodegenOptions["onProgress"]): (flow: string) => void {
  let count = 0;
  return (flow) => onProgress?.({ done: (count += 1), total, flow });
}
