/**
 * One published version per flow and environment (docs/service.md section 1:
 * a flow version is published to `staging` or `live`, and the service runs
 * the one it has there). Two flows with the same `x-flow-id` and
 * `x-environment` cannot both be served or generated: which one would a
 * session follow? Shared by the emulator at start and by codegen.
 */
import { CodegenError } from "../errors.js";
import type { FlowModel } from "./types.js";

type FlowIdentity = Pick<FlowModel, "name" | "id" | "version" | "environment" | "source">;

/** Throws DUPLICATE_FLOW naming both entries and their files for the first flow id and environment seen twice. */
export function checkOneVersionPerFlowOrThrow(flows: readonly FlowIdentity[]): void {
  const seen = new Map<string, FlowIdentity>();
  for (const flow of flows) {
    const key = `${flow.environment}\u0000${flow.id}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, flow);
      continue;
    }
    throw new CodegenError(
      "DUPLICATE_FLOW",
      `${describe(first)} and ${describe(flow)} are both flow "${flow.id}" in ${flow.environment}; ` +
        "the service runs one published version per flow and environment, so keep only one of them",
      { file: flow.source.file },
    );
  }
}

function describe(flow: FlowIdentity): string {
  return `entry "${flow.name}" (${flow.source.file}, version ${String(flow.version)})`;
}
