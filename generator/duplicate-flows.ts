/**
 * codegen's side of "one published version per flow and environment"
 * (model/unique-flows.ts holds the rule, shared with the emulator): checked
 * over every flow outputDir holds after a run, so the error can name the
 * two config entries as well as their files.
 */
import type { ResolvedConfig } from "./config/config-types.js";
import { CodegenError } from "./errors.js";
import { duplicateFlowDetail, firstPairOfOneFlowOrUndefined } from "./model/unique-flows.js";
import type { ManifestFlow } from "./output/manifest.js";

/** A flow in outputDir after this run (generated, reused, or left out by --flow with earlier output) and its config entry. */
export interface ConfigFlow {
  readonly entry: ManifestFlow;
  readonly name: string;
  readonly pointer: string;
}

/**
 * One published version per flow and environment (model/unique-flows.ts),
 * over every flow in outputDir after this run: those generated, reused, or
 * left out by --flow with output from before. The config entries are named.
 */
export function rejectTwoVersionsOfOneFlowOrThrow(present: readonly ConfigFlow[], config: ResolvedConfig): void {
  const pair = firstPairOfOneFlowOrUndefined(present, (flow) => flow.entry);
  if (!pair) return;
  const identity = ({ entry, name }: ConfigFlow) => ({ ...entry, name, source: { file: entry.source } });
  throw new CodegenError(
    "DUPLICATE_FLOW",
    `${duplicateFlowDetail(identity(pair[0]), identity(pair[1]))} (config entries ${pair[0].pointer} and ${pair[1].pointer})`,
    { file: config.configDisplay, pointer: pair[1].pointer },
  );
}
