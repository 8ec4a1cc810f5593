/**
 * `flowsmith diff <old> <new> [--json]`: the command line edge of flow
 * changes. Runs runDiff (generator/changes/diff-files.ts: both descriptions
 * read and modelled as codegen reads them, then compared), prints the
 * changes, and turns them into the exit code a CI gate needs (EXIT): ok when
 * nothing is breaking, failed for something breaking or a description that
 * cannot be read.
 */
import { runDiff, type DiffResult } from "../../generator/index.js";
import {
  EXIT,
  optionLines,
  parsedArgs,
  reportError,
  usageError,
  type CommandIo,
  type CommandOptions,
} from "../command.js";

const OPTIONS = {
  json: { type: "boolean", help: 'print the changes as JSON (format "flowsmith-changes", version 1)' },
} as const satisfies CommandOptions;

export const usage = `Usage: flowsmith diff <old> <new> [--json]

Compares two descriptions of a flow (YAML or JSON files, e.g. the committed
one and a new download) and prints every change to the create-session call,
each marked breaking (a call valid for <old> no longer compiles or is refused)
or compatible.

Options:
${optionLines(OPTIONS)}

Exit codes: 0 nothing breaking, 1 something breaking or a description that
cannot be read, 2 a usage error.
`;

export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  const parsed = parseDiffArgs(args);
  if ("usageError" in parsed) return usageError("diff", parsed.usageError, io);
  let diff: DiffResult;
  try {
    diff = await runDiff(parsed.old, parsed.new);
  } catch (error) {
    return reportError(error, io);
  }
  io.stdout.write(parsed.json ? diff.json : `${diff.lines.join("\n")}\n`);
  return diff.breaking ? EXIT.failed : EXIT.ok;
}

type DiffArgs = { readonly old: string; readonly new: string; readonly json: boolean };

function parseDiffArgs(args: readonly string[]): DiffArgs | { readonly usageError: string } {
  const parsed = parsedArgs(args, OPTIONS, true);
  if ("usageError" in parsed) return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) {
    return { usageError: `expected two description files, <old> and <new>; got ${String(positionals.length)}` };
  }
  const [old, next] = positionals as [string, string];
  return { old, new: next, json: values.json ?? false };
}
