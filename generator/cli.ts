/**
 * `flowsmith codegen`: parses its arguments, runs the pipeline, prints, and
 * turns the result into an exit code (0 done or up to date, 1 failure or
 * out-of-date output, 2 usage error). The dispatcher (cli/main.ts) runs it
 * as `run` and prints `usage` for --help. Everything below returns values
 * or throws.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { createProgressLine } from "./cli-progress.js";
import { findConfigOrThrow, type Env } from "./config/load-config.js";
import { CodegenError, errorLine } from "./errors.js";
import { MANIFEST_FILE, type GeneratorStamp } from "./output/manifest.js";
import { runCodegen, type CodegenResult, type FlowReport, type SnapshotChange } from "./pipeline.js";
import { flowsmithVersion, runtimeVersion } from "./versions.js";

interface CliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Where the service's address and credentials are read. Default process.env. */
  readonly env?: Env;
  /** --watch ends when this resolves. Default: SIGINT or SIGTERM. */
  readonly stopped?: Promise<void>;
}

/** Every option, once: parseArgs reads it, and so does the usage text. */
const OPTIONS = {
  config: { type: "string", arg: "<path>", help: "the config file (default: the nearest codegen.config.json in this folder or above it)" },
  check: {
    type: "boolean",
    help: "regenerate, compare with outputDir byte for byte, write nothing; exit 1 listing what differs",
  },
  force: {
    type: "boolean",
    help: "regenerate every flow, also those the manifest shows unchanged, and replace generated files edited by hand (a write only; --check always regenerates)",
  },
  refresh: {
    type: "boolean",
    help: "fetch every api flow (with --flow: those named) from the service again, store its snapshot and regenerate; with --check, compare without writing",
  },
  "no-cache": {
    type: "boolean",
    help: "compile every validator, neither reading nor writing the validator cache (node_modules/.cache/flowsmith/validators)",
  },
  flow: {
    type: "string",
    multiple: true,
    arg: "<name>",
    help: "only this flow (repeatable): its name in the config, or the name derived from its title; the other flows' output is kept",
  },
  watch: {
    type: "boolean",
    help: "after generating, generate again whenever the config or a flow's description changes (each run all or nothing; a broken description keeps the last good output); Ctrl-C stops (exit 0)",
  },
  help: { type: "boolean", short: "h", help: "this help" },
} as const;

export const usage = `Usage: flowsmith codegen [options]

Generates a typed client per flow of the config into its outputDir, or with
--check tells whether outputDir holds exactly what the descriptions produce.
outputDir must be a folder flowsmith owns: it refuses the config's folder, a
folder holding the config, a description, a package.json or a .git, a
symbolic link, and, on a first run, a folder that already holds files.

A write never replaces a generated file edited by hand without --force
(OUTPUT_EDITED, naming each). It holds <outputDir>.flowsmith-lock while it
runs: a second run on the same outputDir stops with OUTPUT_BUSY and changes
nothing; a lock whose run was killed is taken over by the next run. --check
takes no lock, and fails with OUTPUT_BUSY while a write holds it.

A flow whose source is "api" is generated from its snapshot (default
flows/<name>.json). Only a missing snapshot (on a write) or --refresh goes to
the service: FLOWSMITH_BASE_URL and FLOWSMITH_AUTH_URL (or "service" in the
config) say where it is, FLOWSMITH_STAGING_CLIENT_ID/_SECRET and
FLOWSMITH_LIVE_CLIENT_ID/_SECRET are the API clients. When a flow's
description differs from the one its output came from, the run prints what
changed, each change breaking or compatible.

Options:
${Object.entries(OPTIONS)
  .map(([name, option]) => {
    const flag = `${"short" in option ? `-${option.short}, ` : ""}--${name}${"arg" in option ? ` ${option.arg}` : ""}`;
    return `  ${flag.padEnd(18)} ${option.help}`;
  })
  .join("\n")}

Exit codes: 0 written or up to date, 1 an error or (with --check) out-of-date output or snapshots, 2 usage error.
`;

export async function run(args: readonly string[], io: CliIo = process): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (error) {
    return usageError((error as Error).message, io);
  }
  if (values.help) {
    io.stdout.write(usage);
    return 0;
  }
  if (values.watch) return watchOrUsage(values, io);
  return runOnce(values, io);
}

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; strict: true }>>["values"];

async function runOnce(values: Values, io: CliIo): Promise<number> {
  const check = values.check ?? false;
  const progress = createProgressLine(io.stderr, check ? "checking" : "generating");
  try {
    const result = await runCodegen({
      ...(values.config !== undefined ? { configPath: values.config } : {}),
      check,
      force: values.force ?? false,
      refresh: values.refresh ?? false,
      env: io.env ?? process.env,
      flows: values.flow ?? [],
      ...(values["no-cache"] ? { cacheDir: false as const } : {}),
      onProgress: (step) => {
        progress.update(step);
      },
    });
    progress.end();
    printRun(result, io);
    if (values.refresh && !result.config.flows.some((flow) => flow.source.kind === "api")) {
      io.stderr.write(`note: --refresh fetches flows whose source is "api"; ${result.config.configDisplay} has none\n`);
    }
    return check ? reportCheck(result, io) : reportWrite(result, io);
  } catch (error) {
    progress.end();
    if (error instanceof CodegenError && error.code === "UNKNOWN_FLOW") return usageError(error.message, io);
    io.stderr.write(`${describeError(error)}\n`);
    return 1;
  }
}

/** --watch: the ordinary run, again on every change, until SIGINT or SIGTERM (exit 0). */
async function watchOrUsage(values: Values, io: CliIo): Promise<number> {
  const refused = (["check", "refresh"] as const).find((option) => values[option]);
  if (refused) return usageError(`--watch cannot be combined with --${refused}: it writes, and generates from the files on disk`, io);
  let configPath: string;
  try {
    configPath = values.config !== undefined ? path.resolve(values.config) : await findConfigOrThrow(process.cwd());
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    return 1;
  }
  const { watchCodegen } = await import("./codegen-watch.js");
  await watchCodegen({
    configPath,
    ...(io.env ? { env: io.env } : {}),
    // After the first run, a failure keeps the output of the last good one: say so with the error.
    runOnce: async () => {
      const code = await runOnce({ ...values, config: configPath }, io);
      if (code !== 0) io.stderr.write("flowsmith: nothing was written; the output of the last good run stays as it was.\n");
      return code;
    },
    say: (line) => io.stdout.write(`${line}\n`),
    stopped: io.stopped ?? untilSignal(),
  });
  return 0;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

function usageError(message: string, io: CliIo): number {
  io.stderr.write(`flowsmith codegen: ${message}\nRun \`flowsmith codegen --help\` for the options.\n`);
  return 2;
}

/** Printed once the run's outcome is known, so a failed run never shows a flow as generated. */
function printRun(result: CodegenResult, io: CliIo): void {
  for (const sentence of result.recovered) io.stderr.write(`flowsmith: ${sentence}\n`);
  for (const flow of result.flows) io.stdout.write(`${formatFlowLine(flow)}\n`);
  for (const pointer of result.notGenerated) {
    io.stderr.write(`note: the flow at ${result.config.configDisplay} ${pointer} was left out by --flow and has not been generated yet\n`);
  }
  const out = result.config.outputDisplay;
  for (const file of result.kept) io.stderr.write(`note: kept ${out}/${file.path} (${file.why})\n`);
  for (const file of result.unverified) io.stderr.write(`note: kept ${file} beside ${out}/: flowsmith could not match it with the new output\n`);
  const cache = result.validatorCache;
  if (cache?.problem) io.stderr.write(`note: could not write the validator cache ${cache.display} (${cache.problem}); the output is complete, the next run compiles again\n`);
  else if (cache && cache.reused > 0) io.stdout.write(`  ${cache.reused} validator(s) reused from ${cache.display}, ${cache.added} new (--no-cache compiles all)\n`);
}

/** Per flow whose description moved: the report's lines, after a blank line. */
function changeReports(result: CodegenResult): string[] {
  return result.flows.flatMap((flow) => (flow.changed ? ["", ...flow.changed.lines] : []));
}

function breakingNote(result: CodegenResult): string[] {
  const breaking = result.flows.filter((flow) => flow.changed?.breaking).map((flow) => flow.name);
  if (breaking.length === 0) return [];
  return [
    "",
    `Breaking changes in ${breaking.join(", ")}: calls written for the old version may no longer compile or be accepted; run your type check (tsc) to find them.`,
  ];
}

function snapshotLine(snapshot: SnapshotChange, written: boolean): string {
  const what = snapshot.reason === "added" ? "new snapshot" : "snapshot changed";
  return written ? `Wrote ${snapshot.path} (${what}: flow ${snapshot.flow}).` : `  ${snapshot.reason.padEnd(8)} ${snapshot.path} (${what}: flow ${snapshot.flow})`;
}

function formatFlowLine(flow: FlowReport): string {
  const took = flow.status === "unchanged" ? "" : ` in ${flow.ms} ms`;
  return `  ${flow.name.padEnd(24)} ${flow.id}  v${String(flow.version).padEnd(3)} ${flow.environment.padEnd(7)} → ${flow.output}  ${flow.status}${took}`;
}

function reportCheck(result: CodegenResult, io: CliIo): number {
  const out = result.config.outputDisplay;
  if (result.otherGenerator) io.stdout.write(`note: ${out}/${MANIFEST_FILE} ${otherGeneratorNote(result.otherGenerator.generator)}\n`);
  if (result.changes.length === 0 && result.snapshots.length === 0) {
    io.stdout.write(`${out}/ is up to date.\n`);
    return 0;
  }
  if (result.snapshots.length > 0) {
    io.stderr.write(`${result.snapshots.length} snapshot(s) differ from what the service publishes now:\n`);
    for (const snapshot of result.snapshots) io.stderr.write(`${snapshotLine(snapshot, false)}\n`);
  }
  if (result.changes.length > 0) {
    io.stderr.write(`${out}/ is out of date; ${result.changes.length} file(s) differ from what the descriptions produce:\n`);
    for (const change of result.changes) io.stderr.write(`  ${change.reason.padEnd(8)} ${out}/${change.path}\n`);
  }
  const moved = result.flows.filter((flow) => flow.changed);
  if (moved.length > 0) {
    io.stderr.write(`The description of ${moved.map((flow) => flow.name).join(", ")} changed since ${out}/ was generated:\n`);
    io.stderr.write(`${[...changeReports(result).slice(1), ...breakingNote(result)].join("\n")}\n`);
  }
  if (result.snapshots.length > 0) {
    io.stderr.write("Run `npx flowsmith codegen --refresh` and commit the result.\n");
    return 1;
  }
  io.stderr.write(
    result.editedByHand.length > 0
      ? `${result.editedByHand.map((file) => `${out}/${file}`).join(", ")}: edited by hand, so \`npx flowsmith codegen\` refuses to replace ${result.editedByHand.length === 1 ? "it" : "them"}; move the change out of ${out}/, or discard it with \`npx flowsmith codegen --force\`, and commit the result.\n`
      : result.editedWithManifest.length > 0
        ? "Run `npx flowsmith codegen --force` and commit the result: the manifest was edited to agree with the changed files, so a run without --force would keep them.\n"
        : "Run `npx flowsmith codegen` and commit the result.\n",
  );
  return 1;
}

function otherGeneratorNote(stamp: GeneratorStamp | undefined): string {
  const current = `flowsmith ${flowsmithVersion()} (@flowsmith/runtime ${runtimeVersion()})`;
  const written = stamp && `flowsmith ${stamp.flowsmith} (@flowsmith/runtime ${stamp.runtime})`;
  const by =
    written === undefined
      ? `was written by a flowsmith from before manifests named their version; this is ${current}`
      : written === current
        ? `was written by another build of ${current} (its generator sources or libraries differ)`
        : `was written by ${written}; this is ${current}`;
  return `${by}. Every generated file is identical, so the check passes; the next \`npx flowsmith codegen\` updates the manifest.`;
}

function reportWrite(result: CodegenResult, io: CliIo): number {
  const count = result.changes.length;
  const out = result.config.outputDisplay;
  const reports = changeReports(result);
  if (reports.length > 0) io.stdout.write(`${[...reports, ...breakingNote(result), ""].join("\n")}\n`);
  for (const snapshot of result.snapshots) io.stdout.write(`${snapshotLine(snapshot, true)}\n`);
  io.stdout.write(count === 0 ? `${out}/ already up to date; nothing written.\n` : `Wrote ${out}/ (${count} file(s) changed).\n`);
  return 0;
}

function describeError(error: unknown): string {
  if (error instanceof CodegenError) return errorLine(error);
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (error instanceof Error && typeof code === "string" && error.name !== "Error") {
    return `flowsmith: error ${code}: ${error.message}`;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `flowsmith: unexpected error (please report it): ${detail}`;
}
