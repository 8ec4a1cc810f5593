/**
 * `flowsmith codegen`: parses its arguments, runs the pipeline (with
 * --watch, again on every change), prints the outcome (codegen-report.ts),
 * and turns it into an exit code.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { findConfigOrThrow, runCodegen, watchConfig } from "../../generator/index.js";
import {
  EXIT,
  optionLines,
  parsedArgs,
  reportError,
  stoppedBy,
  usageError,
  type CommandIo,
  type CommandOptions,
} from "../command.js";
import { createProgressLine } from "../progress-line.js";
import { printRun, reportCheck, reportWrite } from "./codegen-report.js";

/** Every option, once: parseArgs reads it, and optionLines prints it for --help. */
const OPTIONS = {
  config: {
    type: "string",
    arg: "<path>",
    help: "the config file (default: the nearest codegen.config.json in this folder or above it)",
  },
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
} as const satisfies CommandOptions;

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
${optionLines(OPTIONS)}

Exit codes: 0 written or up to date, 1 an error or (with --check) out-of-date output or snapshots, 2 usage error.
`;

export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  const parsed = parsedArgs(args, OPTIONS, false);
  if ("usageError" in parsed) return usageError("codegen", parsed.usageError, io);
  const { values } = parsed;
  if (values.watch) return watchOrUsage(values, io);
  return runOnce(values, io);
}

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; strict: true }>>["values"];

async function runOnce(values: Values, io: CommandIo): Promise<number> {
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
      onProgress: (step) => {
        progress.update(step);
      },
    });
    progress.end();
    printRun(result, io);
    if (values.refresh && !result.config.flows.some((flow) => flow.source.kind === "api")) {
      io.stderr.write(`note: --refresh fetches flows whose source is "api"; ${result.config.configDisplay} has none\n`);
    }
    return result.mode === "check" ? reportCheck(result, io) : reportWrite(result, io);
  } catch (error) {
    progress.end();
    return reportError(error, io);
  }
}

/**
 * --watch: the ordinary run, then again whenever the config or a flow's
 * description (or snapshot) changes, until SIGINT or SIGTERM (exit 0). Each
 * run writes all or nothing, so a description that breaks leaves the last
 * good output in place; the run says why.
 */
async function watchOrUsage(values: Values, io: CommandIo): Promise<number> {
  const refused = (["check", "refresh"] as const).find((option) => values[option]);
  if (refused)
    return usageError(
      "codegen",
      `--watch cannot be combined with --${refused}: it writes, and generates from the files on disk`,
      io,
    );
  let configPath: string;
  try {
    configPath = values.config !== undefined ? path.resolve(values.config) : await findConfigOrThrow(process.cwd());
  } catch (error) {
    return reportError(error, io);
  }
  let stopping = false;
  const watch = await watchConfig({
    configPath,
    ...(io.env ? { env: io.env } : {}),
    runAtStart: true,
    onChange: async ({ changed, files }) => {
      if (changed.length > 0) io.stdout.write(`\n${changed.map(shown).join(", ")} changed; generating again\n`);
      // After the first run, a failure keeps the output of the last good one: say so with the error.
      const code = await runOnce({ ...values, config: configPath }, io);
      if (code !== EXIT.ok)
        io.stderr.write("flowsmith: nothing was written; the output of the last good run stays as it was.\n");
      if (!stopping)
        io.stdout.write(
          `Watching ${files.size} file(s) for changes (the config and each flow's description); Ctrl-C stops.\n`,
        );
    },
    onError: (error) => {
      io.stderr.write(`flowsmith: cannot watch for changes (${error.message}); the files already watched still are\n`);
    },
  });
  await stoppedBy(io);
  stopping = true;
  await watch.close();
  return EXIT.ok;
}

/** A changed file as the user would type it: relative to the working directory when inside it. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return (relative && !relative.startsWith("..") ? relative : file).split(path.sep).join("/");
}
