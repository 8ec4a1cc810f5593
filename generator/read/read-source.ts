/**
 * A flow description's bytes, from where the config says they are: a file,
 * or for an api source its snapshot (fetch/ writes it; reading never goes
 * to the network). The one place that reads a description.
 */
import { readFileSync, statSync } from "node:fs";
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
 *
 * Read synchronously: a description is a small local file, and the promise
 * API's open, stat, read and close would each wait for a turn of this
 * thread, which codegen keeps busy emitting the flows before it.
 */
export function readSourceOrThrow(source: FlowSource, where?: SourceContext): Promise<SourceBytes> {
  const file = source.kind === "api" ? source.snapshot : source;
  try {
    // A device or a pipe would be read until it ends, which /dev/zero never does and a pipe without a writer waits for.
    const stats = statSync(file.path);
    if (!stats.isFile() && !stats.isDirectory())
      throw Object.assign(new Error("not a regular file"), { code: NOT_A_FILE });
    return Promise.resolve({ bytes: withLfLineEndings(readFileSync(file.path)), display: file.display });
  } catch (error) {
    return Promise.reject(unreadable(error, source, where));
  }
}

/**
 * CRLF read as LF: a checkout with git's autocrlf (Windows) has CRLF where the
 * commit has LF, and the description's hash goes into the generated headers
 * and the manifest, so `--check` failed there on the very commit that passed
 * elsewhere. YAML and JSON read both the same, so nothing else changes.
 */
function withLfLineEndings(bytes: Buffer): Buffer {
  if (!bytes.includes("\r\n")) return bytes;
  // latin1 maps each byte to one character and back, so UTF-8 sequences pass through untouched.
  return Buffer.from(bytes.toString("latin1").replace(/\r\n/g, "\n"), "latin1");
}

/** Not an errno: what readSourceOrThrow says of a path that is neither a file nor a folder. */
const NOT_A_FILE = "NOT_A_FILE";

function unreadable(error: unknown, source: FlowSource, where: SourceContext | undefined): CodegenError {
  const flow = where?.flow ? { flow: where.flow } : {};
  const code = (error as NodeJS.ErrnoException).code;
  if (source.kind === "api") {
    return new CodegenError(
      "SNAPSHOT_MISSING",
      code === "ENOENT"
        ? `no snapshot of flow ${source.flowId} (${source.environment}) at ${source.snapshot.display} yet: run \`npx flowsmith codegen\` to fetch it`
        : code === "EISDIR"
          ? `the snapshot path ${source.snapshot.display} is a folder; "snapshot" names a .json file`
          : code === NOT_A_FILE
            ? `the snapshot path ${source.snapshot.display} is not a regular file (a device, a pipe or a socket); "snapshot" names a .json file`
            : `cannot read the snapshot ${source.snapshot.display} (${code ?? String(error)})`,
      where
        ? { file: where.configFile, pointer: `${where.pointer}/source/api`, ...flow }
        : { file: source.snapshot.display },
      { cause: error },
    );
  }
  return new CodegenError(
    "SOURCE_NOT_FOUND",
    code === "ENOENT"
      ? `flow description not found: ${source.display}`
      : code === "EISDIR"
        ? `${source.display} is a folder; "file" names one description file (such as flows/onboarding.yaml)`
        : code === NOT_A_FILE
          ? `${source.display} is not a regular file (a device, a pipe or a socket); "file" names one description file (such as flows/onboarding.yaml)`
          : `cannot read ${source.display} (${code ?? String(error)})`,
    where ? { file: where.configFile, pointer: `${where.pointer}/source/file`, ...flow } : { file: source.display },
    { cause: error },
  );
}
