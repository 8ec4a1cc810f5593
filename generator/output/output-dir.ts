/**
 * outputDir as a run finds it: an interrupted write finished or undone
 * first (write mode) or refused (check mode), then what the last run's
 * manifest says flowsmith wrote there. A folder that holds files but no
 * manifest is not flowsmith's: a first run into it is refused.
 */
import type { ResolvedConfig } from "../config/config-types.js";
import { CodegenError } from "../errors.js";
import { listTree } from "./file-tree.js";
import { assertNoInterruptedWriteOrThrow, recoverInterruptedWritesOrThrow } from "./interrupted-write.js";
import { filesWrittenBy, MANIFEST_FILE, readManifest, type Manifest } from "./manifest.js";

export interface OutputDirState {
  /** Absolute. */
  readonly dir: string;
  /** For messages: relative to the working directory when inside it. */
  readonly display: string;
  /** The last run's manifest; undefined when there was none (a first run into a new or empty folder). */
  readonly manifest?: Manifest;
  /** What the last run wrote: relative path → sha256 (undefined for the manifest itself). */
  readonly written: ReadonlyMap<string, string | undefined>;
  /** One sentence per interrupted write finished or undone before this run. */
  readonly recovered: readonly string[];
}

/** How many of a foreign folder's files the refusal names. */
const FILES_NAMED = 5;

export async function openOutputDirOrThrow(config: ResolvedConfig, mode: "write" | "check"): Promise<OutputDirState> {
  const dir = config.outputDir;
  const display = config.outputDisplay;
  let recovered: string[] = [];
  if (mode === "write") recovered = await recoverInterruptedWritesOrThrow(dir, display);
  else await assertNoInterruptedWriteOrThrow(dir, display);
  const read = await readManifest(dir);
  if (read.kind === "read") return { dir, display, manifest: read.manifest, written: filesWrittenBy(read.manifest), recovered };
  const entries = await listTree(dir);
  if (entries.length > 0) {
    const named = entries.slice(0, FILES_NAMED).map((entry) => entry.path);
    const more = entries.length > FILES_NAMED ? `, and ${entries.length - FILES_NAMED} more` : "";
    const why =
      read.kind === "unreadable"
        ? `its ${MANIFEST_FILE} cannot say which of them flowsmith wrote (${read.reason})`
        : `it has no ${MANIFEST_FILE}, so flowsmith did not write them`;
    throw new CodegenError(
      "OUTPUT_DIR_NOT_EMPTY",
      `outputDir ${display}/ already holds files (${named.join(", ")}${more}) and ${why}. ` +
        `Point "outputDir" at a new or empty folder; if these files are flowsmith's own output, restore its ${MANIFEST_FILE} (for example from git) or delete the folder`,
      { file: config.configDisplay, pointer: "#/outputDir" },
    );
  }
  return { dir, display, written: new Map(), recovered };
}
