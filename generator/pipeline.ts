/**
 * The codegen run, step by step: load config → per flow, read (or, for api
 * flows, fetch) its description → build its model → emit → plan (a write
 * stages the files) → then write or check → write fetched
 * snapshots. Each step is a module of its own
 * folder (config/, fetch/, read/, model/, emit/, output/; run/ holds
 * one flow's way through them); this file strings them together. Library
 * code: it returns results and throws CodegenError; only the CLI prints and
 * exits.
 */
import { loadConfigOrThrow, withConfigPosition } from "./config/load-config.js";
import type { ResolvedConfig } from "./config/config-types.js";
import { CodegenError } from "./errors.js";
import { ServiceClients } from "./fetch/service-clients.js";
import { openOutputDirOrThrow } from "./output/output-dir.js";
import { OutputPlan } from "./output/output-plan.js";
import { assertOutputDirSafeOrThrow } from "./output/output-safety.js";
import { StagingFolder } from "./output/staging.js";
import { checkOutput, writeOutputOrThrow, type CheckOutcome, type WriteOutcome } from "./output/write-output.js";
import {
  inOutputDir,
  notGeneratedOf,
  planFlow,
  reportsOf,
  type FlowInOutputDir,
  type FlowOutcome,
  type FlowReport,
} from "./run/flow-outcome.js";
import { generateFlowOrThrow } from "./run/generate-flow.js";
import { generateIndexOrThrow } from "./run/generate-index.js";
import { startRun, type CodegenOptions, type Run } from "./run/run-context.js";
import { settleSnapshotsOrThrow, type SnapshotChange } from "./run/snapshots.js";
import { checkFlowsInOutputDirOrThrow } from "./unique-flows.js";

export type { CodegenOptions, FlowReport, SnapshotChange };
export type { Progress } from "./run/run-context.js";

/** What a run ends with: a check's findings or a write's, told apart by `mode` (as the CLI reports them). */
export type CodegenResult = CheckResult | WriteResult;

/** What every run reports, besides what it found in or did to outputDir. */
interface RunReport {
  readonly config: ResolvedConfig;
  /** The flows generated, reused or checked, in config order; not those left out by --flow. */
  readonly flows: readonly FlowReport[];
  /** Flows left out by --flow that have no output yet (config pointers). */
  readonly notGenerated: readonly string[];
  /** Interrupted writes finished or undone before this run, one sentence each. */
  readonly recovered: readonly string[];
  /** Check: snapshots of api flows fetched this run whose content is new. Write: those written. */
  readonly snapshots: readonly SnapshotChange[];
}

/** --check: what a write would add, change or delete, and what stands in its way. */
export interface CheckResult extends RunReport, CheckOutcome {
  readonly mode: "check";
}

/** A write: what it added, changed or deleted. */
export interface WriteResult extends RunReport, WriteOutcome {
  readonly mode: "write";
}

export function runCodegen(options: CodegenOptions & { readonly check: true }): Promise<CheckResult>;
export function runCodegen(options?: CodegenOptions & { readonly check?: false }): Promise<WriteResult>;
export function runCodegen(options?: CodegenOptions): Promise<CodegenResult>;
export async function runCodegen(options: CodegenOptions = {}): Promise<CodegenResult> {
  // 1. The config; outputDir must be a folder flowsmith owns, checked before anything else is read.
  const config = await loadConfigOrThrow(options.configPath, options.env);
  await assertOutputDirSafeOrThrow(config);
  // A write holds outputDir's lock from here to the end (released however the run ends); --check takes none.
  const output = await openOutputDirOrThrow(config, options.check ? "check" : "write");
  const clients = new ServiceClients(config.service, options.env ?? process.env, config.configDisplay);
  // A write stages each flow's files beside outputDir as they are made; outputDir changes only at the end, all at once.
  const staging = options.check ? undefined : new StagingFolder(output.dir);
  try {
    const run = await startRun(config, output, clients, options);
    const plan = new OutputPlan(output, run.generator, staging);
    // 2-5. Per flow, one after another in config order: read (or fetch) its description, build its model, emit its
    // files, and compare them with outputDir's (a write stages them): a run holds one flow's model and text at a time.
    const flows: FlowOutcome[] = [];
    for (const flow of config.flows) flows.push(planFlow(await generateFlowOrThrow(flow, run), plan));
    rejectUnknownFlowsOrThrow(flows, run);
    const names = flowsInOutputDirOrThrow(inOutputDir(flows), config);
    plan.setIndex(await generateIndexOrThrow(names, run));
    // 6. What else outputDir holds, then compare (--check) or make outputDir hold the plan; 7. then the snapshots.
    const ran = { config, flows: reportsOf(flows), notGenerated: notGeneratedOf(flows), recovered: output.recovered };
    if (!staging) {
      const checked = await checkOutput(plan, output);
      return { mode: "check", ...ran, ...checked, snapshots: await settleSnapshotsOrThrow(flows, run) };
    }
    const written = await writeOutputOrThrow(plan, output, staging, { replaceEdits: options.force ?? false });
    const snapshots = await settleSnapshotsOrThrow(flows, run);
    return { mode: "write", ...ran, ...written, snapshots };
  } catch (error) {
    throw withConfigPosition(config, error);
  } finally {
    staging?.discard();
    await Promise.all([clients.close(), output.release()]);
  }
}

function rejectUnknownFlowsOrThrow(flows: readonly FlowOutcome[], run: Run): void {
  const known = flows.map((flow) => flow.name);
  const unknown = [...(run.selected ?? [])].filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  throw new CodegenError("UNKNOWN_FLOW", `--flow ${unknown.join(", ")}: no such flow (known: ${known.join(", ")})`, {
    file: run.config.configDisplay,
  });
}

/** The names of the flows that end up in outputDir (unique-flows.ts: one name per flow, one version per flow and environment). */
function flowsInOutputDirOrThrow(flows: readonly FlowInOutputDir[], config: ResolvedConfig): string[] {
  checkFlowsInOutputDirOrThrow(flows, config.configDisplay);
  return flows.map((flow) => flow.name);
}
