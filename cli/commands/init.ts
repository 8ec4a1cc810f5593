/**
 * `flowsmith init`: parses its options, runs runInit (generator/init/:
 * find or list the flows, ask on a terminal, write the config, generate),
 * and prints what it found, what it wrote and a first call.
 */
import { runInit, type InitNote, type InitResult } from "../../generator/index.js";
import {
  EXIT,
  optionLines,
  parsedArgs,
  reportError,
  usageError,
  type CommandIo,
  type CommandOptions,
} from "../command.js";
import { createProgressLine, type ProgressLine } from "../progress-line.js";
import { printRun, reportWrite } from "./codegen-report.js";

const OPTIONS = {
  yes: { type: "boolean", help: "use every flow found (or listed) and the default outputDir without asking" },
  "from-api": {
    type: "boolean",
    help: "flows from the service instead of files (their descriptions are kept as snapshots in flows/)",
  },
  flow: {
    type: "string",
    multiple: true,
    arg: "<id>",
    help: "only this flow (repeatable): its flow id, its name, or (a file) its path",
  },
  "output-dir": {
    type: "string",
    arg: "<dir>",
    help: "where the clients go (default: src/generated when ./src exists, else generated)",
  },
} as const satisfies CommandOptions;

export const usage = `Usage: flowsmith init [options]

Starts a project: finds the flow descriptions under this folder (not in
node_modules, .git or generated output), or with --from-api lists the flows
the service publishes (FLOWSMITH_BASE_URL, FLOWSMITH_AUTH_URL and
FLOWSMITH_<ENV>_CLIENT_ID/_SECRET); writes codegen.config.json here with
$schema; runs the first \`flowsmith codegen\`; prints a first call. On a
terminal it asks which flows and where the clients go; otherwise it takes
the flags below. It never overwrites a codegen.config.json.

Options:
${optionLines(OPTIONS)}

Without a terminal, pass --yes or at least one --flow.

Exit codes: 0 done, 1 an error (a config already here, nothing found, the service), 2 usage error.
`;

export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  const parsed = parsedArgs(args, OPTIONS, false);
  if ("usageError" in parsed) return usageError("init", parsed.usageError, io);
  const { values } = parsed;
  const interactive = !values.yes && (io.stdin ?? process.stdin).isTTY === true && io.stdout.isTTY === true;
  if (!interactive && !values.yes && !values.flow?.length) {
    return usageError(
      "init",
      "no terminal to ask on: pass --yes to use every flow found, or --flow <id> for each flow to use",
      io,
    );
  }
  // Made when codegen starts, after the questions: its timing starts there.
  let progress: ProgressLine | undefined;
  let result: InitResult;
  try {
    result = await runInit({
      cwd: process.cwd(),
      env: io.env ?? process.env,
      interactive,
      fromApi: values["from-api"] ?? false,
      flows: values.flow ?? [],
      ...(values["output-dir"] !== undefined ? { outputDir: values["output-dir"] } : {}),
      onNote: (note) => io.stderr.write(`${noteLine(note)}\n`),
      onProgress: (step) => {
        (progress ??= createProgressLine(io.stderr, "generating")).update(step);
      },
    });
  } catch (error) {
    return reportError(error, io);
  } finally {
    progress?.end();
  }
  return printResult(result, io);
}

function printResult(result: InitResult, io: CommandIo): number {
  if (result.outcome === "config-exists") {
    io.stderr.write(
      `flowsmith init: ${result.config} already exists here; init never overwrites a config. \`npx flowsmith add\` adds a flow to it, \`npx flowsmith codegen\` generates.\n`,
    );
    return EXIT.failed;
  }
  if (result.outcome === "cancelled") {
    io.stderr.write("flowsmith init: cancelled; nothing was written.\n");
    return EXIT.failed;
  }
  io.stdout.write(`Wrote ${result.config} with ${result.flows.length} flow(s): ${result.flows.join(", ")}.\n`);
  if (!result.codegen.ok) {
    reportError(result.codegen.error, io);
    io.stderr.write(
      `flowsmith init: ${result.config} was written, but the first codegen failed (above); fix that and run \`npx flowsmith codegen\`.\n`,
    );
    return EXIT.failed;
  }
  printRun(result.codegen.result, io);
  reportWrite(result.codegen.result, io);
  if (result.firstCall) {
    const { code, reads } = result.firstCall;
    // The flow takes files: the call reads them from disk, so say which, or its first run ends in ENOENT.
    const readsLine = reads.length > 0 ? `;\nit reads ${reads.join(" and ")}: put such a file beside it;` : ";";
    io.stdout.write(
      `\nYour first call (for example first-call.mts beside ${result.config}; \`npx tsx first-call.mts\` runs it${readsLine}\n` +
        `\`npx flowsmith emulator\` runs a local service and prints one JSON line for the FLOWSMITH_* variables:\n` +
        `baseUrl and authUrl are FLOWSMITH_BASE_URL and FLOWSMITH_AUTH_URL, clients.<environment> the client id and secret):\n\n${code}\n\n`,
    );
  }
  return EXIT.ok;
}

function noteLine(note: InitNote): string {
  switch (note.kind) {
    case "config-above":
      return `note: ${note.file} is a config of a folder above; init starts a separate one here.`;
    case "skipped":
      return `note: ${note.file} is not a flow description flowsmith can generate (${note.why})`;
    case "search-stopped":
      return `note: stopped looking after ${String(note.files)} files (nearest folders first); a description not found can be added to the "flows" of codegen.config.json by hand`;
  }
}
