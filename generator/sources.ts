/** Where a flow description's bytes come from: a file, or (later) the service's API. */
import { readFile } from "node:fs/promises";
import type { FlowSource } from "./config/config-types.js";
import { CodegenError } from "./errors.js";

export interface SourceBytes {
  readonly bytes: Uint8Array;
  /** How the source is named in messages and generated headers. */
  readonly display: string;
}

export async function readSourceOrThrow(source: FlowSource, context: { flow?: string; pointer: string; configFile: string }): Promise<SourceBytes> {
  if (source.kind === "api") {
    throw new CodegenError(
      "SOURCE_UNSUPPORTED",
      `source.api (flow ${source.flowId}, ${source.environment}) is not supported yet: download the description from the dashboard (flow versions view) and use { "file": "<path>" }`,
      { file: context.configFile, pointer: `${context.pointer}/source`, ...(context.flow ? { flow: context.flow } : {}) },
    );
  }
  try {
    return { bytes: await readFile(source.path), display: source.display };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CodegenError(
      "SOURCE_NOT_FOUND",
      code === "ENOENT" ? `description file ${source.display} not found` : `cannot read ${source.display} (${code})`,
      { file: context.configFile, pointer: `${context.pointer}/source/file`, ...(context.flow ? { flow: context.flow } : {}) },
    );
  }
}
