/**
 * `flowsmith diff <old> <new> [--json]`: the command line edge of flow
 * changes (generator/changes/). Reads both descriptions with the generator's
 * reader and model builder, prints the changes, and turns them into the exit
 * code a CI gate needs (EXIT): ok when nothing is breaking, failed for
 * something breaking or a description that cannot be read.
 */
import path from "node:path";
import { compareFlowModels, formatChangesJson, formatFlowChanges, hasBreakingChange } from "../../generator/changes/index.js";
import { buildFlowModelOrThrow } from "../../generator/model/build-flow-model.js";
import { kebabCase } from "../../generator/model/names.js";
import type { FlowModel } from "../../generator/model/types.js";
import { parseDescriptionOrThrow, type LoadedDescription } from "../../generator/read/load-description.js";
import { readSourceOrThrow } from "../../generator/read/read-source.js";
import { EXIT, optionLines, parsedArgs, reportError, usageError, type CommandIo, type CommandOptions } from "../command.js";

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
  let before: FlowModel;
  let after: FlowModel;
  try {
    before = await readFlowModelOrThrow(parsed.old);
    after = await readFlowModelOrThrow(parsed.new);
  } catch (error) {
    return reportError(error, io);
  }
  const flows = [compareFlowModels(before, after)];
  io.stdout.write(parsed.json ? formatChangesJson(flows) : `${flows.flatMap(formatFlowChanges).join("\n")}\n`);
  return hasBreakingChange(flows) ? EXIT.failed : EXIT.ok;
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

/** Paths are shown as given; the flow's name is its title in kebab-case, or the file's name. */
async function readFlowModelOrThrow(file: string): Promise<FlowModel> {
  const source = await readSourceOrThrow({ kind: "file", path: path.resolve(file), display: file });
  const loaded = parseDescriptionOrThrow(source.bytes, source.display);
  return buildFlowModelOrThrow(loaded, { name: flowName(loaded, file) });
}

/** codegen refuses a title without ASCII letters (it needs a folder name); diff needs none, so it falls back. */
function flowName(loaded: LoadedDescription, file: string): string {
  const document = loaded.document as { info?: { title?: unknown } } | null;
  const title = typeof document?.info?.title === "string" ? kebabCase(document.info.title) : "";
  return title !== "" ? title : kebabCase(path.basename(file, path.extname(file))) || "flow";
}
