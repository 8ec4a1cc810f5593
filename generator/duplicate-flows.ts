/**
 * codegen's side of "one published version per flow and environment"
 * (model/unique-flows.ts holds the rule, shared with the emulator): checked
 * over every flow outputDir holds after a run, so the error can name the
 * two config entries as well as their files.
 */
import type { ResolvedConfig } from "./config/config-types.js";
import { CodegenError } from "./errors.js";
import { checkOneVersionPerFlowOrThrow } from "./model/unique-flows.js";
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
  try {
    // (The check reads the source's file for its message; the description's hash is not needed.)
    checkOneVersionPerFlowOrThrow(present.map(({ entry, name }) => ({ ...entry, name, source: { file: entry.source, sha256: "" } })));
  } catch (error) {
    if (!(error instanceof CodegenError) || error.code !== "DUPLICATE_FLOW") throw error;
    const pair = firstPairOfOneFlow(present);
    const entries = pair ? ` (config entries ${pair[0].pointer} and ${pair[1].pointer})` : "";
    throw new CodegenError("DUPLICATE_FLOW", `${error.detail}${entries}`, { file: config.configDisplay, ...(pair ? { pointer: pair[1].pointer } : {}) }, { cause: error });
  }
}

/** The pair the check names: the first flow id and environment seen twice, in config order. */
function firstPairOfOneFlow(flows: readonly ConfigFlow[]): [ConfigFlow, ConfigFlow] | undefined {
  const seen = new Map<string, ConfigFlow>();
  for (const flow of flows) {
    const key = `${flow.entry.environment}\u0000${flow.entry.id}`;
    const first = seen.get(key);
    if (first) return [first, flow];
    seen.set(key, flow);
  }
  return undefined;
}
