/**
 * The command line edge: parses arguments, prints, and turns results and
 * errors into exit codes. Everything below it returns values or throws.
 */
import { parseArgs } from "node:util";
import { runCodegen, type CodegenResult, type FlowReport } from "./codegen.js";
import { runDiffCommand } from "./diff-command.js";
import { CodegenError } from "./errors.js";

const USAGE = `Usage:
  flowsmith codegen [--config <path>] [--check] [--force] [--flow <name>]... [--workers <n>]
  flowsmith emulator [--config <path>] [--host 127.0.0.1] [--api-port 0] [--auth-port 0]
                     [--webhook-url <url>] [--created-ms 300] [--step-ms 300]
  flowsmith diff <old> <new> [--json]

codegen   Generate a typed client per flow of the config into its outputDir.
  --config <path>   Config file (default: codegen.config.json)
  --check           Write nothing; exit 1 listing files that differ from what the descriptions produce
  --force           Regenerate every flow even where nothing changed since the last run
  --flow <name>     Only this flow (repeatable); the others' output is kept
  --workers <n>     Worker threads (default: cores - 1 on 4+ cores from 4 flows; else 0 = none)
emulator  Run a local emulator of the service for the flows of the config (see README).
diff      Compare two descriptions of a flow; exit 1 when a change is breaking (flowsmith diff --help).
`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "codegen":
        return await codegenCommand(rest);
      case "diff":
        return await runDiffCommand(rest, process);
      case "emulator": {
        const { runEmulatorCli } = await import("../emulator/cli.js");
        return await runEmulatorCli(rest);
      }
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(USAGE);
        return command === undefined ? 1 : 0;
      default:
        process.stderr.write(`flowsmith: unknown command "${command}"\n\n${USAGE}`);
        return 1;
    }
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n`);
    return 1;
  }
}

async function codegenCommand(args: readonly string[]): Promise<number> {
  const values = parseCodegenArgsOrThrow(args);
  const result = await runCodegen({
    ...(values.config !== undefined ? { configPath: values.config } : {}),
    check: values.check,
    force: values.force,
    flows: values.flow ?? [],
    ...(values.workers !== undefined ? { workers: parseWorkersOrThrow(values.workers) } : {}),
    onFlow: (flow) => process.stdout.write(`${formatFlowLine(flow)}\n`),
  });
  return values.check ? reportCheck(result) : reportWrite(result);
}

function parseCodegenArgsOrThrow(args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      options: {
        config: { type: "string" },
        check: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        flow: { type: "string", multiple: true },
        workers: { type: "string" },
      },
      allowPositionals: false,
      strict: true,
    }).values;
  } catch (error) {
    throw new CodegenError("CONFIG_INVALID", `${(error as Error).message}\n\n${USAGE}`);
  }
}

function parseWorkersOrThrow(text: string): number {
  const workers = Number(text);
  if (!Number.isInteger(workers) || workers < 0) {
    throw new CodegenError("CONFIG_INVALID", `--workers must be a whole number from 0, got "${text}"`);
  }
  return workers;
}

function formatFlowLine(flow: FlowReport): string {
  const status = flow.reused ? "unchanged" : "generated";
  return `  ${flow.name.padEnd(24)} ${flow.id}  v${String(flow.version).padEnd(3)} ${flow.environment.padEnd(7)} → ${flow.output}  ${status} in ${flow.ms} ms`;
}

function reportCheck(result: CodegenResult): number {
  if (result.changes.length === 0) {
    process.stdout.write(`${result.config.outputDisplay}/ is up to date.\n`);
    return 0;
  }
  process.stderr.write(`${result.config.outputDisplay}/ is out of date; ${result.changes.length} file(s) differ:\n`);
  for (const change of result.changes) process.stderr.write(`  ${change.reason.padEnd(8)} ${result.config.outputDisplay}/${change.path}\n`);
  process.stderr.write("Run `npm run codegen` (flowsmith codegen) and commit the result.\n");
  return 1;
}

function reportWrite(result: CodegenResult): number {
  const count = result.changes.length;
  process.stdout.write(
    count === 0
      ? `${result.config.outputDisplay}/ already up to date; nothing written.\n`
      : `Wrote ${result.config.outputDisplay}/ (${count} file(s) changed).\n`,
  );
  return 0;
}

function describeError(error: unknown): string {
  if (error instanceof CodegenError) return `flowsmith: error ${error.code}: ${error.message}`;
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (error instanceof Error && typeof code === "string" && error.name !== "Error") {
    return `flowsmith: error ${code}: ${error.message}`;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `flowsmith: unexpected error (please report it): ${detail}`;
}
