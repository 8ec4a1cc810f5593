/**
 * outputDir as a run finds it. A write first takes outputDir's lock
 * (output-lock.ts) and holds it until release(); then an interrupted write is
 * finished or undone (write mode) or refused (check mode), then what the last
 * run's manifest says flowsmith wrote there is read. A folder that holds
 * files but no manifest is not flowsmith's: a first run into it is refused.
 *
 * --check takes no lock: it refuses a folder a write holds, notes which
 * folder it opened, and assertUnchangedOrThrow() fails when a write replaced
 * it while it was read (every write replaces outputDir as a whole, so its
 * identity changes), so a check never passes on files of two sets.
 */
import { stat } from "node:fs/promises";
import type { ResolvedConfig } from "../config/config-types.js";
import { CodegenError } from "../errors.js";
import { listTree } from "./file-tree.js";
import { assertNoInterruptedWriteOrThrow, recoverInterruptedWritesOrThrow } from "./interrupted-write.js";
import { filesWrittenBy, MANIFEST_FILE, readManifest, type Manifest } from "./manifest.js";
import { assertNotBeingWrittenOrThrow, lockOutputDirOrThrow } from "./output-lock.js";

export interface OutputDirState {
  /** Absolute. */
  readonly dir: string;
  /** For messages: relative to the working directory when inside it. */
  readonly display: string;
  /** The last run's manifest; undefined when there was none (a first run into a new or empty folder). */
  readonly manifest?: Manifest;
  /** What the last run wrote: relative path → sha256 (undefined for the manifest itself). */
  readonly written: ReadonlyMap<string, string | undefined>;
  /** One sentence per interrupted write finished or undone (or abandoned lock taken over) before this run. */
  readonly recovered: readonly string[];
  /** Check: outputDir's identity when it was opened (dev, inode, birth time), or "absent". */
  readonly opened?: string;
  /** Write: releases outputDir's lock; check: nothing to release. Call once the run is over, however it ended. */
  release(): Promise<void>;
}

/** How many of a foreign folder's files the refusal names. */
const FILES_NAMED = 5;

export async function openOutputDirOrThrow(config: ResolvedConfig, mode: "write" | "check"): Promise<OutputDirState> {
  if (mode === "check") {
    await assertNotBeingWrittenOrThrow(config.outputDir, config.outputDisplay);
    const opened = await identityOf(config.outputDir);
    await assertNoInterruptedWriteOrThrow(config.outputDir, config.outputDisplay);
    return readOrThrow(config, { recovered: [], opened, release: () => Promise.resolve() });
  }
  const lock = await lockOutputDirOrThrow(config.outputDir, config.outputDisplay, config.configDisplay);
  try {
    const recovered = await recoverInterruptedWritesOrThrow(config.outputDir, config.outputDisplay);
    return await readOrThrow(config, {
      recovered: [...(lock.tookOver ? [lock.tookOver] : []), ...recovered],
      release: () => lock.release(),
    });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** --check: fails when a write replaced outputDir after it was opened; what was read may mix two sets. */
export async function assertUnchangedOrThrow(output: OutputDirState): Promise<void> {
  if (output.opened === undefined || (await identityOf(output.dir)) === output.opened) return;
  throw new CodegenError(
    "OUTPUT_BUSY",
    `a write replaced ${output.display}/ while it was being checked, so the check read files of two runs; check again`,
    {
      file: output.display,
    },
  );
}

async function identityOf(dir: string): Promise<string> {
  const info = await stat(dir, { bigint: true }).catch(() => undefined);
  return info ? `${info.dev}:${info.ino}:${info.birthtimeNs}` : "absent";
}

async function readOrThrow(
  config: ResolvedConfig,
  state: Pick<OutputDirState, "recovered" | "opened" | "release">,
): Promise<OutputDirState> {
  const dir = config.outputDir;
  const display = config.outputDisplay;
  const read = await readManifest(dir);
  if (read.kind === "read")
    return { dir, display, manifest: read.manifest, written: filesWrittenBy(read.manifest), ...state };
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
  return { dir, display, written: new Map(), ...state };
}
