/**
 * One published version per flow and environment (docs/service.md section 1:
 * a flow version is published to `staging` or `live`, and the service runs
 * the one it has there). Two flows with the same `x-flow-id` and
 * `x-environment` cannot both be served or generated: which one would a
 * session follow? Shared by the emulator at start and by codegen.
 */
import { CodegenError } from "../errors.js";
import type { FlowModel } from "./types.js";

type FlowIdentity = Pick<FlowModel, "name" | "id" | "version" | "environment"> & { readonly source: { readonly file: string } };

/** Throws DUPLICATE_FLOW naming both entries and their files for the first flow id and environment seen twice. */
export function checkOneVersionPerFlowOrThrow(flows: readonly FlowIdentity[]): void {
  const pair = firstPairOfOneFlowOrUndefined(flows, (flow) => flow);
  if (pair) throw new CodegenError("DUPLICATE_FLOW", duplicateFlowDetail(pair[0], pair[1]), { file: pair[1].source.file });
}

/** The first two items, in order, whose flows have the same id and environment. */
export function firstPairOfOneFlowOrUndefined<T>(items: readonly T[], flowOf: (item: T) => Pick<FlowModel, "id" | "environment">): [T, T] | undefined {
  const seen = new Map<string, T>();
  for (const item of items) {
    const { id, environment } = flowOf(item);
    const key = `${environment}\u0000${id}`;
    const first = seen.get(key);
    if (first !== undefined) return [first, item];
    seen.set(key, item);
  }
  return undefined;
}

/** What DUPLICATE_FLOW says of the pair. */
export function duplicateFlowDetail(first: FlowIdentity, second: FlowIdentity): string {
  return (
    `${describe(first)} and ${describe(second)} are both flow "${second.id}" in ${second.environment}; ` +
    "the service runs one published version per flow and environment, so keep only one of them"
  );
}

function describe(flow: FlowIdentity): string {
  return `entry "${flow.name}" (${flow.source.file}, version ${String(flow.version)})`;
}
