/**
 * The two folders a write keeps beside outputDir, and what the next run does
 * with them when a write was interrupted (killed, power cut) half way.
 *
 * A write (write-output.ts) stages the new set in `<outputDir>.flowsmith-staging-<pid>`,
 * moves outputDir aside to `<outputDir>.flowsmith-previous-<pid>`, renames the
 * staging folder to outputDir, then empties the previous folder. So at every
 * moment the complete old set or the complete new set exists, and outputDir is
 * one of them except between the two renames. The next run finishes or undoes
 * the interrupted write before anything else:
 * - outputDir moved aside and the staged set complete: the staged set goes in (finish);
 * - outputDir moved aside and the staged set incomplete: the old set goes back (undo);
 * - outputDir in place: a staging folder is removed, a previous folder emptied.
 * Node has no atomic exchange of two folders, hence the one window between the renames.
 */
import { readdir, readFile, rename, rm, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import { CodegenError } from "../errors.js";
import { crashPoint } from "./crash-points.js";
import { identityOfOrUndefined } from "./entry-identity.js";
import { isSafeRelativePath, listTree, sameEntry, type TreeEntry } from "./file-tree.js";
import { filesWrittenBy, MANIFEST_FILE, readManifest, sha256 } from "./manifest.js";
import { isProcessRunning } from "./output-lock.js";

export function stagingDirOf(outputDir: string, pid = process.pid): string {
  return `${outputDir}.flowsmith-staging-${pid}`;
}

export function previousDirOf(outputDir: string, pid = process.pid): string {
  return `${outputDir}.flowsmith-previous-${pid}`;
}

interface Leftover {
  readonly pid: number;
  readonly staging?: string;
  readonly previous?: string;
}

/**
 * Finishes or undoes every interrupted write into outputDir. Returns one
 * sentence per thing done, for the CLI to print.
 */
export async function recoverInterruptedWritesOrThrow(outputDir: string, display: string): Promise<string[]> {
  const done: string[] = [];
  for (const leftover of await findLeftoversOrThrow(outputDir, display)) {
    const outputExists = await exists(outputDir);
    if (leftover.previous && !outputExists) {
      if (leftover.staging && (await isCompleteSet(leftover.staging))) {
        await rename(leftover.staging, outputDir);
        done.push(
          `finished a write that was interrupted (process ${leftover.pid}): ${display}/ now holds the set it generated`,
        );
      } else {
        await rename(leftover.previous, outputDir);
        if (leftover.staging) await rm(leftover.staging, { recursive: true, force: true });
        done.push(
          `undid a write that was interrupted (process ${leftover.pid}): ${display}/ holds the files it had before`,
        );
        continue;
      }
    } else if (leftover.staging) {
      // outputDir was never moved aside: it holds the old set, whole; the staged copy is only ours.
      await rm(leftover.staging, { recursive: true, force: true });
      done.push(
        `removed ${path.basename(leftover.staging)}, left by a write that was interrupted before it changed ${display}/`,
      );
    }
    if (leftover.previous) {
      const kept = await removePreviousDir(leftover.previous, outputDir);
      done.push(
        kept.length === 0
          ? `removed ${path.basename(leftover.previous)}, the old set of a write that was interrupted after it changed ${display}/`
          : `kept ${path.basename(leftover.previous)}: it holds files flowsmith did not write and cannot find in ${display}/ (${kept.slice(0, 5).join(", ")})`,
      );
    }
  }
  return done;
}

/** --check writes nothing: it only says that a write must recover first. */
export async function assertNoInterruptedWriteOrThrow(outputDir: string, display: string): Promise<void> {
  const [leftover] = await findLeftoversOrThrow(outputDir, display);
  if (!leftover) return;
  const folder = path.basename(leftover.previous ?? leftover.staging ?? "");
  throw new CodegenError(
    "INTERRUPTED_WRITE",
    `a write into ${display}/ was interrupted and left ${folder} beside it; run \`npx flowsmith codegen\` (without --check) to finish or undo it, then check again`,
    { file: display },
  );
}

/**
 * Empties a previous folder without losing anything. Right after a write,
 * which knows what it read of the old outputDir (`seen`, entry-identity.ts),
 * an entry goes only while it is still as the write saw it (the write carried
 * it over, replaced it or dropped it). Otherwise (recovery after an
 * interruption) a file goes only when outputDir holds the same entry (a copy
 * carried over) or the previous manifest lists it with its bytes (flowsmith
 * wrote it, and the new set replaced or dropped it). The manifest goes last,
 * so an interruption here can be resumed. Returns what had to stay.
 */
export async function removePreviousDir(
  previous: string,
  outputDir: string,
  seen?: ReadonlyMap<string, string>,
): Promise<string[]> {
  const read = await readManifest(previous);
  const written = filesWrittenBy(read.kind === "read" ? read.manifest : undefined);
  const entries = await listTree(previous);
  const kept: string[] = [];
  let removed = 0;
  for (const entry of [
    ...entries.filter((e) => e.path !== MANIFEST_FILE),
    ...entries.filter((e) => e.path === MANIFEST_FILE),
  ]) {
    if (entry.kind === "empty-dir") continue;
    const file = path.join(previous, entry.path);
    const asSeen = seen !== undefined && seen.get(entry.path) === (await identityOfOrUndefined(file));
    if (
      asSeen ||
      (seen === undefined &&
        ((await asWritten(file, entry, written)) || (await sameEntry(file, path.join(outputDir, entry.path)))))
    ) {
      await unlink(file);
      if ((removed += 1) === 1) crashPoint("cleanup-partial");
    } else {
      kept.push(entry.path);
    }
  }
  await removeEmptyFolders(previous, entries);
  return kept;
}

/** A file the manifest lists, with the bytes it lists, read as LF too (the manifest itself, whose hash it cannot hold, as listed). */
async function asWritten(
  file: string,
  entry: TreeEntry,
  written: ReadonlyMap<string, string | undefined>,
): Promise<boolean> {
  if (entry.kind !== "file" || !written.has(entry.path)) return false;
  const hash = written.get(entry.path);
  if (hash === undefined) return true;
  const bytes = await readFile(file);
  return sha256(bytes) === hash || sha256(bytes.toString("utf8").replace(/\r\n/g, "\n")) === hash;
}

/** Deepest first, so parents empty as their children go; a folder that still holds something stays. */
async function removeEmptyFolders(root: string, entries: readonly TreeEntry[]): Promise<void> {
  const folders = new Set<string>();
  for (const entry of entries) {
    const parts = entry.path.split("/");
    for (let depth = entry.kind === "empty-dir" ? parts.length : parts.length - 1; depth > 0; depth -= 1) {
      folders.add(parts.slice(0, depth).join("/"));
    }
  }
  const deepestFirst = [...folders].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const folder of [...deepestFirst, ""]) await rmdir(path.join(root, folder)).catch(() => undefined);
}

/** The staged set is complete once its manifest is in place and every file it lists has the listed hash. */
async function isCompleteSet(dir: string): Promise<boolean> {
  const read = await readManifest(dir);
  if (read.kind !== "read") return false;
  for (const [file, hash] of filesWrittenBy(read.manifest)) {
    if (hash === undefined) continue;
    if (!isSafeRelativePath(file)) return false;
    const content = await readFile(path.join(dir, file)).catch(() => undefined);
    if (!content || sha256(content) !== hash) return false;
  }
  return true;
}

async function findLeftoversOrThrow(outputDir: string, display: string): Promise<Leftover[]> {
  const base = path.basename(outputDir);
  const names = await readdir(path.dirname(outputDir)).catch(() => [] as string[]);
  const byPid = new Map<number, { staging?: string; previous?: string }>();
  for (const name of names) {
    if (!name.startsWith(`${base}.flowsmith-`)) continue;
    const match = /^\.flowsmith-(staging|previous)-(\d+)$/.exec(name.slice(base.length));
    if (!match) continue;
    const pid = Number(match[2]);
    const leftover = byPid.get(pid) ?? {};
    leftover[match[1] as "staging" | "previous"] = path.join(path.dirname(outputDir), name);
    byPid.set(pid, leftover);
  }
  const leftovers = [...byPid].sort(([a], [b]) => a - b).map(([pid, folders]) => ({ pid, ...folders }));
  const running = leftovers.find((leftover) => leftover.pid !== process.pid && isProcessRunning(leftover.pid));
  if (running) {
    const folder = path.basename(running.previous ?? running.staging ?? "");
    throw new CodegenError(
      "OUTPUT_BUSY",
      `process ${running.pid} is writing ${display}/ (${folder}); wait for it to finish. If no flowsmith is running, that process id was reused: stop the process or rename ${folder} so flowsmith no longer sees it`,
      { file: display },
    );
  }
  return leftovers;
}

async function exists(dir: string): Promise<boolean> {
  return readdir(dir).then(
    () => true,
    () => false,
  );
}
