/**
 * <outputDir>/<name>/description.json: the description a flow's current
 * output was generated from, normalised (description-json.ts) and listed in
 * the manifest like every file flowsmith writes. When a run's description
 * differs from it (a refresh, an edited or replaced file, a pinned version
 * moved), the run reports what changed for the code that calls the flow,
 * computed from the two flow models (generator/changes/).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FlowChangeReport } from "../changes/index.js";
import { CodegenError } from "../errors.js";
import type { FlowModel } from "../model/types.js";
import { sha256 } from "./manifest.js";
import type { OutputDirState } from "./output-dir.js";

export function descriptionCopyPath(name: string): string {
  return `${name}/description.json`;
}

/** What a flow's description did since its output was generated. */
export interface DescriptionChange {
  /** The report's lines (header, then one per change), or one line saying why there is no report. */
  readonly lines: readonly string[];
  readonly breaking: boolean;
  readonly from?: number;
  readonly to: number;
}

/**
 * Undefined when there is nothing to compare with (a first run, output from
 * before description.json, a copy edited since flowsmith wrote it) or the
 * description is the same.
 */
export async function changeSinceCopyOrUndefined(
  copy: string,
  model: FlowModel,
  output: OutputDirState,
): Promise<DescriptionChange | undefined> {
  const file = descriptionCopyPath(model.name);
  const recorded = output.written.get(file);
  if (recorded === undefined) return undefined;
  const previous = await readFile(path.join(output.dir, file)).catch(() => undefined);
  if (!previous || sha256(previous) !== recorded || previous.toString("utf8") === copy) return undefined;
  // Loaded only when a description changed: a run that reuses every flow reads no description.
  const [{ reportFlowChangesSince }, { parseDescriptionOrThrow }] = await Promise.all([
    import("../changes/index.js"),
    import("../read/load-description.js"),
  ]);
  let report: FlowChangeReport;
  try {
    report = reportFlowChangesSince(parseDescriptionOrThrow(previous, `${output.display}/${file}`), model);
  } catch (error) {
    if (!(error instanceof CodegenError)) throw error;
    // The old copy no longer reads under this flowsmith's rules: say so, and let the run go on.
    return {
      lines: [
        `${model.title}: the description changed; the previous one (${output.display}/${file}) cannot be compared: ${error.message}`,
      ],
      breaking: false,
      to: model.version,
    };
  }
  return { lines: report.lines, breaking: report.breaking, from: report.changes.before.version, to: model.version };
}
