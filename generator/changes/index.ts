/**
 * Flow changes: what changed between two versions of a flow, for the
 * `flowsmith diff` command and for codegen's report when a flow's
 * description moved. Everything is computed from flow models.
 */
import { buildFlowModelOrThrow } from "../model/build-flow-model.js";
import type { FlowModel } from "../model/types.js";
import type { LoadedDescription } from "../read/load-description.js";
import { compareFlowModels } from "./compare-flows.js";
import { formatFlowChanges } from "./format-text.js";
import type { FlowChanges } from "./types.js";

export { compareFlowModels } from "./compare-flows.js";
export { formatFlowChanges } from "./format-text.js";
export { formatChangesJson, type ChangesDocument } from "./format-json.js";
export { CHANGE_KINDS, type ChangeKind, type FlowChange, type FlowChanges } from "./types.js";

export interface FlowChangeReport {
  readonly changes: FlowChanges;
  readonly breaking: boolean;
  /** Header and one line per change, ready to print (no trailing newlines). */
  readonly lines: readonly string[];
}

/**
 * For codegen: the report of one flow whose description moved since its
 * output was generated. `previous` is the model that output came from.
 */
export function reportFlowChanges(previous: FlowModel, next: FlowModel): FlowChangeReport {
  const changes = compareFlowModels(previous, next);
  return {
    changes,
    breaking: changes.changes.some((change) => change.severity === "breaking"),
    lines: formatFlowChanges(changes),
  };
}

/**
 * The same from the description the current output was generated from (as
 * stored beside it), built under the new model's name. Throws CodegenError
 * when that description no longer reads or models.
 */
export function reportFlowChangesSince(previous: LoadedDescription, next: FlowModel): FlowChangeReport {
  return reportFlowChanges(buildFlowModelOrThrow(previous, { name: next.name }), next);
}
