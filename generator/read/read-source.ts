/**
 * A flow description's bytes, from where the config says they are: a file,
 * or for an api source its snapshot (fetch/ writes it; reading never goes
 * to the network). The one place that reads a description.
 */
import { readFile } from "node:fs/promises";
import type { FlowSource } from "../config/config-types.js";
import { CodegenError } from "../errors.js";

export interface SourceBytes {
  readonly bytes: Uint8Array;
  /** How the source is named in messages and generated headers. */
  readonly display: string;
}

/** Where the flow sits in the config, for error messages. */
export interface SourceContext {
  readonly flow?: string;
  /** The flow's entry in the config: `#/flows/2`. */
  readonly pointer: string;
  readonly configFile: string;
}

/**
 * `where`: the config entry that names the source; absent for a file named
 * on the command line (`flowsmith diff`), whose errors then name the file.
 */
export async function readSourceOrThrow(source: FlowSource, where?: SourceContext): Promise<SourceBytes> {
  const flow = where?.flow ? { flow: where.flow } : {};
  const file = source.kind === "api" ? source.snapshot : source;
  try {
    return { bytes: await readFile(file.path), display: file.display };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (source.kind === "api") {
      throw new CodegenError(
        "SNAPSHOT_MISSING",
        code === "ENOENT"
          ? `no snapshot of flow ${source.flowId} (${source.environment}) at ${file.display} yet: run \`npx flowsmith codegen\` to fetch it`
          : `cannot read the snapshot ${file.display} (${code ?? String(error)})`,
        where ? { file: where.configFile, pointer: `${where.pointer}/source/api`, ...flow } : { file: file.display },
        { cause: error },
      );
    }
    throw new CodegenError(
      "SOURCE_NOT_FOUND",
      code === "ENOENT" ? `flow description not found: ${source.display}` : `cannot read ${source.display} (${code ?? String(error)})`,
      where ? { file: where.configFile, pointer: `${where.pointer}/source/file`, ...flow } : { file: source.display },
      { cause: error },
    );
  }
}
