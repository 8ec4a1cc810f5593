/**
 * `flowsmith diff <old> <new>`: two description files, read and modelled as
 * codegen reads them, compared (compare-flows.ts). Paths are shown as given.
 */
import path from "node:path";
import { buildFlowModelOrThrow } from "../model/build-flow-model.js";
import { kebabCase } from "../model/names.js";
import type { FlowModel } from "../model/types.js";
import { parseDescriptionOrThrow, type LoadedDescription } from "../read/load-description.js";
import { readSourceOrThrow } from "../read/read-source.js";
import { compareFlowModels } from "./compare-flows.js";
import { formatChangesJson } from "./format-json.js";
import { formatFlowChanges } from "./format-text.js";
import { hasBreakingChange, type FlowChanges } from "./types.js";

export interface DiffResult {
  /** The flow's changes, as a list: the JSON report's form, which codegen's fills with several flows. */
  readonly flows: readonly FlowChanges[];
  /** Some change is breaking: a call valid for the old description no longer compiles or is refused. */
  readonly breaking: boolean;
  /** The text report: a header and one line per change, ready to print (no trailing newlines). */
  readonly lines: readonly string[];
  /** The JSON report (format "flowsmith-changes", version 1). */
  readonly json: string;
}

/** Throws CodegenError when either description cannot be read or modelled. */
export async function runDiff(oldFile: string, newFile: string): Promise<DiffResult> {
  const before = await readFlowModelOrThrow(oldFile);
  const after = await readFlowModelOrThrow(newFile);
  const flows = [compareFlowModels(before, after)];
  return {
    flows,
    breaking: hasBreakingChange(flows),
    lines: flows.flatMap(formatFlowChanges),
    json: formatChangesJson(flows),
  };
}

async function readFlowModelOrThrow(file: string): Promise<FlowModel> {
  const source = await readSourceOrThrow({ kind: "file", path: path.resolve(file), display: file });
  const loaded = parseDescriptionOrThrow(source.bytes, source.display);
  return buildFlowModelOrThrow(loaded, { name: flowName(loaded, file) });
}

/** codegen refuses a title without ASCII letters (it needs a folder name); diff needs none, so it falls back to the file's name. */
function flowName(loaded: LoadedDescription, file: string): string {
  const document = loaded.document as { info?: { title?: unknown } } | null;
  const title = typeof document?.info?.title === "string" ? kebabCase(document.info.title) : "";
  return title !== "" ? title : kebabCase(path.basename(file, path.extname(file))) || "flow";
}
