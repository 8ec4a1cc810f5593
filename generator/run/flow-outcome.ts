/**
 * What a run made of one flow of the config: generated (new files), reused
 * (the files on disk are what it would write), left out by --flow (what an
 * earlier run wrote for it stays), or left out by --flow with nothing written
 * for it yet (not generated).
 */
import { performance } from "node:perf_hooks";
import type { Environment } from "@flowsmith/runtime";
import type { ResolvedFlowConfig } from "../config/config-types.js";
import type { FetchedSnapshot } from "../fetch/api-source.js";
import { keptEntry, type DescriptionChange } from "../output/description-copies.js";
import type { ManifestFlow } from "../output/manifest.js";
import type { PatternLeftToService } from "../model/patterns-left.js";
import type { OutputPlan } from "../output/output-plan.js";
import type { Run } from "./run-context.js";

export type FlowOutcome = GeneratedFlow | ReusedFlow | LeftOutFlow | NotGeneratedFlow;

interface FlowOfConfig {
  /** The config entry's pointer. */
  readonly pointer: string;
  /** The config's name, or the one derived from the title (a flow is read to learn it). */
  readonly name: string;
}

/** Emitted this run: its files were the new content of `<outputDir>/<name>/`, handed to the plan (planFlow). */
interface GeneratedFlow extends FlowOfConfig {
  readonly kind: "generated";
  readonly entry: ManifestFlow;
  readonly report: FlowReport;
  /** An api flow's description fetched this run, its snapshot not yet written. */
  readonly fetched?: FetchedSnapshot;
}

/**
 * A flow as generateFlowOrThrow makes it: a generated one still holds its
 * files, and each its normalised description for descriptions.json (a kept
 * flow's from the last run: undefined when that copy was lost).
 */
export type MadeFlow =
  | (GeneratedFlow & { readonly files: ReadonlyMap<string, string>; readonly copy: string })
  | (ReusedFlow & { readonly copy: string })
  | (LeftOutFlow & { readonly copy: string | undefined })
  | NotGeneratedFlow;

/** Same inputs, same generator, files as written: outputDir keeps them. */
interface ReusedFlow extends FlowOfConfig {
  readonly kind: "reused";
  readonly entry: ManifestFlow;
  readonly report: FlowReport;
  readonly fetched?: FetchedSnapshot;
}

/** Left out by --flow: what an earlier run wrote for it is kept as it is. */
interface LeftOutFlow extends FlowOfConfig {
  readonly kind: "left-out";
  readonly earlier: ManifestFlow;
}

/** Left out by --flow, and no run has generated it: outputDir has nothing of it. */
interface NotGeneratedFlow extends FlowOfConfig {
  readonly kind: "not-generated";
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
  /** Generated this run: the patterns the client leaves to the service (the linear-time engine cannot run them). */
  readonly leftToService?: readonly PatternLeftToService[];
}

/** A flow as outputDir will hold it after this run: its manifest entry, with new files or with those kept. */
export interface FlowInOutputDir {
  readonly pointer: string;
  readonly name: string;
  readonly entry: ManifestFlow;
}

export function generated(
  flow: ResolvedFlowConfig,
  name: string,
  made: {
    readonly entry: ManifestFlow;
    readonly files: ReadonlyMap<string, string>;
    readonly copy: string;
    readonly changed: DescriptionChange | undefined;
    readonly fetched: FetchedSnapshot | undefined;
    readonly leftToService: readonly PatternLeftToService[];
  },
  started: number,
  run: Run,
): MadeFlow {
  const { entry, files, copy, changed, fetched, leftToService } = made;
  const report = {
    ...reportOf(name, entry, run.mode === "check" ? "checked" : "generated", started, run, changed),
    ...(leftToService.length > 0 ? { leftToService } : {}),
  };
  return {
    kind: "generated",
    pointer: flow.pointer,
    name,
    entry,
    files,
    copy,
    report,
    ...(fetched ? { fetched } : {}),
  };
}

export function reused(
  flow: ResolvedFlowConfig,
  name: string,
  kept: { readonly entry: ManifestFlow; readonly copy: string },
  fetched: FetchedSnapshot | undefined,
  started: number,
  run: Run,
): MadeFlow {
  const copy = kept.copy;
  const entry = keptEntry(kept.entry, name, true);
  const report = reportOf(name, entry, "unchanged", started, run, undefined);
  return { kind: "reused", pointer: flow.pointer, name, entry, copy, report, ...(fetched ? { fetched } : {}) };
}

/** A flow left out by --flow keeps what the last run wrote for it, if anything. */
export async function leftOut(flow: ResolvedFlowConfig, name: string, run: Run): Promise<MadeFlow> {
  run.progress(name);
  const earlier = run.output.manifest?.flows[name];
  if (!earlier) return { kind: "not-generated", pointer: flow.pointer, name };
  const copy = (await run.previous.copyOrUndefined(name))?.text;
  return { kind: "left-out", pointer: flow.pointer, name, earlier: keptEntry(earlier, name, copy !== undefined), copy };
}

/**
 * Hands a flow's files to the plan (a write stages them at once) and returns
 * the flow without them: a run holds no flow's text once it is planned.
 */
export function planFlow(flow: MadeFlow, plan: OutputPlan): FlowOutcome {
  if (flow.kind === "not-generated") return flow;
  if (flow.kind === "generated") {
    const { files, copy, ...rest } = flow;
    plan.addFlow(flow.name, { kind: "written", entry: flow.entry, files }, copy);
    return rest;
  }
  const { copy, ...rest } = flow;
  plan.addFlow(flow.name, { kind: "kept", entry: rest.kind === "reused" ? rest.entry : rest.earlier }, copy);
  return rest;
}

/** The flows outputDir holds after this run: generated, reused, or left out with earlier output. */
export function inOutputDir(flows: readonly FlowOutcome[]): FlowInOutputDir[] {
  return flows.flatMap((flow): FlowInOutputDir[] => {
    const { pointer, name } = flow;
    if (flow.kind === "generated" || flow.kind === "reused") return [{ pointer, name, entry: flow.entry }];
    return flow.kind === "left-out" ? [{ pointer, name, entry: flow.earlier }] : [];
  });
}

/** The flows generated, reused or checked, in config order. */
export function reportsOf(flows: readonly FlowOutcome[]): FlowReport[] {
  return flows.flatMap((flow) => (flow.kind === "generated" || flow.kind === "reused" ? [flow.report] : []));
}

/** Flows left out by --flow that have no output yet: their config pointers. */
export function notGeneratedOf(flows: readonly FlowOutcome[]): string[] {
  return flows.flatMap((flow) => (flow.kind === "not-generated" ? [flow.pointer] : []));
}

function reportOf(
  name: string,
  entry: ManifestFlow,
  status: FlowReport["status"],
  started: number,
  run: Run,
  changed: DescriptionChange | undefined,
): FlowReport {
  run.progress(name);
  const { id, version, environment } = entry;
  const ms = Math.round(performance.now() - started);
  return {
    name,
    id,
    version,
    environment,
    output: `${run.config.outputDisplay}/${name}`,
    ms,
    status,
    ...(changed ? { changed } : {}),
  };
}
