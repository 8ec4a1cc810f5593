/**
 * One write at a time per outputDir. A write holds `<outputDir>.flowsmith-lock`
 * from before it reads the manifest (or finishes an interrupted write) until
 * it has written; a second run that finds it stops with OUTPUT_BUSY before it
 * has read or changed anything. The lock sits beside outputDir because a write
 * replaces outputDir as a whole (write-output.ts).
 *
 * Not a lock library: Node's usual ones judge a lock abandoned by its age,
 * kept fresh by a timer, so a run whose thread is busy emitting for longer
 * than that loses its lock to the next run, and a killed run blocks the next
 * ones for that long; and they record no holder a message could name. Here the lock records its holder's process id and
 * host, and on the same host the kernel answers whether that process still
 * runs: a lock whose process is gone (killed, crashed) is taken over at once.
 * Only a holder that cannot be asked (another host on a shared folder, a record
 * that cannot be read) falls back to age, counted from the lock's mtime.
 *
 * The lock is created with link(2) from a complete record written beside it:
 * an exclusive create (the one that also holds on network file systems) after
 * which the record is whole, so a reader never sees half of one. Taking over a
 * lock that is gone happens under a second lock (`.break`), so two runs that
 * find the same dead lock cannot remove a lock the other one has just taken.
 * The one case this does not guard: a run killed inside those few system calls
 * while two others take its place at that moment.
 */
import { randomUUID } from "node:crypto";
import { link, lstat, mkdir, readdir, readFile, readlink, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import type { Stats } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CodegenError } from "../errors.js";
import { isSameOrInside } from "./file-tree.js";

/** A holder flowsmith cannot ask whether it runs counts as gone once its lock is this old. */
export const UNCHECKABLE_LOCK_MS = 10 * 60 * 1000;

/** Bounded: each round either takes the lock, stops at a live holder, or removed a dead one. */
const ATTEMPTS = 5;

interface LockRecord {
  readonly pid: number;
  readonly host: string;
  /** ISO time the lock was taken, for the message. */
  readonly since: string;
  /** The config of the run that holds it, as that run displayed it. */
  readonly config: string;
  readonly id: string;
}

interface Holder {
  /** The lock file's content, exactly: a takeover removes the lock only while it still holds this. */
  readonly text: string;
  readonly record?: LockRecord;
  /** alive: running, or cannot be asked and younger than UNCHECKABLE_LOCK_MS. */
  readonly state: "alive" | "gone";
  readonly modified: Date;
}

export interface OutputLock {
  /** Set when the lock of a run that is gone was taken over: one sentence, for the CLI. */
  readonly tookOver?: string;
  /** Removes the lock if it is still this run's; safe to call twice. */
  release(): Promise<void>;
}

/** Ids of the locks this process holds: a lock with this process id and another id is a dead process's. */
const heldHere = new Set<string>();

export function lockPathOf(outputDir: string): string {
  return `${outputDir}.flowsmith-lock`;
}

/** Takes outputDir's lock, or throws OUTPUT_BUSY naming the run that holds it. */
export async function lockOutputDirOrThrow(
  outputDir: string,
  display: string,
  configDisplay: string,
): Promise<OutputLock> {
  const lockPath = lockPathOf(outputDir);
  const record: LockRecord = {
    pid: process.pid,
    host: os.hostname(),
    since: new Date().toISOString(),
    config: configDisplay,
    id: randomUUID(),
  };
  const text = `${JSON.stringify(record)}\n`;
  const mine = `${lockPath}.${record.pid}.${record.id}`;
  let created: string | undefined;
  try {
    created = await mkdir(path.dirname(outputDir), { recursive: true });
    await writeFile(mine, text, { flag: "wx" });
  } catch (error) {
    throw cannotLock(error, display);
  }
  // Folders made for the lock alone go with it: a run that fails leaves no empty `src/` behind.
  const removeMadeFolders = () => removeEmptyUpTo(path.dirname(outputDir), created);
  let held = false;
  try {
    let tookOver: string | undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      if (await createdOrThrow(mine, lockPath, display)) {
        held = true;
        heldHere.add(record.id);
        await removeAbandonedRecords(lockPath);
        return {
          ...(tookOver ? { tookOver } : {}),
          release: async () => {
            if (await releaseLock(lockPath, record.id, text)) await removeMadeFolders();
          },
        };
      }
      const holder = await readHolderOrThrow(lockPath, display);
      if (!holder) continue; // Released between the two calls.
      if (holder.state === "alive") throw busy(holder, display, "write");
      if (await takeOverOrThrow(lockPath, holder, mine, display)) tookOver = tookOverSentence(holder, display);
    }
    throw new CodegenError(
      "OUTPUT_BUSY",
      `other runs kept taking the lock of ${display}/ (${lockDisplay(display)}); nothing was changed, run again`,
      { file: display },
    );
  } finally {
    await unlink(mine).catch(() => undefined);
    if (!held) await removeMadeFolders();
  }
}

/** `dir` and its parents up to `top` (the first folder mkdir made), while they are empty. */
async function removeEmptyUpTo(dir: string, top: string | undefined): Promise<void> {
  if (top === undefined) return;
  for (let folder = dir; isSameOrInside(folder, top); folder = path.dirname(folder)) {
    if (
      !(await rmdir(folder).then(
        () => true,
        () => false,
      ))
    )
      return;
    if (folder === top) return;
  }
}

/**
 * --check takes no lock (it writes nothing, and works in a read-only checkout)
 * but refuses to read a folder a write is replacing; output-dir.ts also makes
 * sure no write replaced it while it was read.
 */
export async function assertNotBeingWrittenOrThrow(outputDir: string, display: string): Promise<void> {
  const lockPath = lockPathOf(outputDir);
  const holder = await readHolderOrThrow(lockPath, display);
  if (holder?.state === "alive") throw busy(holder, display, "check");
}

/** Whether process `pid` runs on this host (EPERM: it runs, as another user). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** true: `target` now names our record; false: something is there already. */
async function createdOrThrow(record: string, target: string, display: string): Promise<boolean> {
  try {
    await link(record, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw cannotLock(error, display);
  }
}

function cannotLock(error: unknown, display: string): CodegenError {
  const why = (error as NodeJS.ErrnoException).code ?? String(error);
  return new CodegenError(
    "WRITE_FAILED",
    `could not create ${lockDisplay(display)}, the lock a write holds beside outputDir (${why}); nothing was changed. The folder that holds ${display}/ must be writable`,
    { file: display },
    { cause: error },
  );
}

/**
 * The holder a lock file names; undefined when there is none. Anything else
 * at the path (a link, even one to a lock, a folder, a pipe) is nothing
 * flowsmith makes there: it is named and left alone, never read through or
 * waited on (a dangling link would look released forever).
 */
async function readHolderOrThrow(lockPath: string, display: string): Promise<Holder | undefined> {
  const found = await lstat(lockPath).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  });
  if (!found) return undefined;
  if (!found.isFile()) throw await oddLockPath(lockPath, found, display);
  let text: string;
  let modified: Date;
  try {
    [text, modified] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath).then((info) => info.mtime)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const record = parseRecord(text);
  return { text, modified, state: holderState(record, modified), ...(record ? { record } : {}) };
}

function parseRecord(text: string): LockRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockRecord> | null;
    const valid =
      typeof value === "object" &&
      value !== null &&
      Number.isSafeInteger(value.pid) &&
      (value.pid ?? 0) > 0 &&
      typeof value.host === "string";
    return valid
      ? {
          pid: value.pid ?? 0,
          host: value.host ?? "",
          since: String(value.since),
          config: String(value.config),
          id: String(value.id),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

function holderState(record: LockRecord | undefined, modified: Date): Holder["state"] {
  if (record && record.host === os.hostname()) {
    if (record.pid === process.pid) return heldHere.has(record.id) ? "alive" : "gone";
    return isProcessRunning(record.pid) ? "alive" : "gone";
  }
  return Date.now() - modified.getTime() < UNCHECKABLE_LOCK_MS ? "alive" : "gone";
}

/** Removes a dead holder's lock, unless another run changed it meanwhile; true when it did. */
async function takeOverOrThrow(lockPath: string, dead: Holder, mine: string, display: string): Promise<boolean> {
  const breaker = `${lockPath}.break`;
  if (!(await createdOrThrow(mine, breaker, display))) {
    // Another run is taking over right now (try again), or one was killed doing so: its breaker goes.
    const other = await readHolderOrThrow(breaker, display);
    if (other?.state === "gone") await unlink(breaker).catch(() => undefined);
    return false;
  }
  try {
    const current = await readFile(lockPath, "utf8").catch(() => undefined);
    if (current !== dead.text) return false;
    await unlink(lockPath);
    return true;
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}

/** true the first time (the lock is this run's no more), false after. */
async function releaseLock(lockPath: string, id: string, text: string): Promise<boolean> {
  if (!heldHere.delete(id)) return false;
  const current = await readFile(lockPath, "utf8").catch(() => undefined);
  if (current === text) await unlink(lockPath).catch(() => undefined);
  return true;
}

/**
 * Records beside the lock whose run was killed between writing one and
 * linking it (a few system calls): removed once their process is gone.
 */
async function removeAbandonedRecords(lockPath: string): Promise<void> {
  const prefix = `${path.basename(lockPath)}.`;
  const names = await readdir(path.dirname(lockPath)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+\.[0-9a-f-]{36}$/.test(name.slice(prefix.length))) continue;
    const file = path.join(path.dirname(lockPath), name);
    const holder = await readHolderOrThrow(file, file).catch(() => undefined);
    const record = holder?.record;
    if (record && record.host === os.hostname() && record.pid !== process.pid && holder.state === "gone")
      await unlink(file).catch(() => undefined);
  }
}

/** Something flowsmith did not make where its lock (or the lock's breaker) goes: named, with what to do. */
async function oddLockPath(lockPath: string, found: Stats, display: string): Promise<CodegenError> {
  const shown = `${display}${lockPath.slice(lockPath.lastIndexOf(".flowsmith-lock"))}`;
  let what: string;
  if (found.isSymbolicLink()) {
    const target = await readlink(lockPath).catch(() => "?");
    const pointsAt = await stat(lockPath).catch(() => undefined);
    what = `a symbolic link to ${target}, ${pointsAt === undefined ? "which does not exist" : pointsAt.isDirectory() ? "a folder" : "not a lock flowsmith made"}`;
  } else what = found.isDirectory() ? "a folder" : "neither a file nor a folder (a pipe, socket or device)";
  return new CodegenError(
    "OUTPUT_CONFLICT",
    `${shown}, where a write keeps the lock of ${display}/, is ${what}: flowsmith's lock is a file it makes itself, and it removes nothing it did not make; nothing was changed. Remove ${shown} and run again`,
    { file: display },
  );
}

function busy(holder: Holder, display: string, mode: "write" | "check"): CodegenError {
  const lock = lockDisplay(display);
  const record = holder.record;
  const sameHost = record?.host === os.hostname();
  const who = record
    ? `process ${record.pid}${sameHost ? "" : ` on ${record.host}`} (config ${record.config}), since ${record.since}`
    : `a run whose lock ${lock} holds no record flowsmith can read, since ${holder.modified.toISOString()}`;
  const what =
    mode === "write"
      ? "This run changed nothing; run it again once that one has finished"
      : "--check compares what a write leaves, so check again once that write has finished";
  const abandonedAt = new Date(holder.modified.getTime() + UNCHECKABLE_LOCK_MS).toISOString();
  const abandoned =
    record && sameHost
      ? `If no flowsmith is running, the lock is left by a run that is gone and whose process id another program now has: delete ${lock}`
      : `flowsmith cannot ${record ? `ask ${record.host}` : "tell"} whether that run goes on: the lock counts as abandoned at ${abandonedAt}; delete ${lock} sooner if no flowsmith is running`;
  return new CodegenError(
    "OUTPUT_BUSY",
    `${display}/ is being written by another flowsmith run: ${who}. ${what}. ${abandoned}`,
    { file: display },
  );
}

function tookOverSentence(dead: Holder, display: string): string {
  const record = dead.record;
  const who = record
    ? `process ${record.pid}${record.host === os.hostname() ? "" : ` on ${record.host}`} (config ${record.config}, since ${record.since})`
    : "a run whose record could not be read";
  const why =
    record?.host === os.hostname()
      ? "which is no longer running"
      : `abandoned: it was last changed at ${dead.modified.toISOString()}`;
  return `took over the lock of ${display}/ from ${who}, ${why}`;
}

function lockDisplay(outputDisplay: string): string {
  return lockPathOf(outputDisplay);
}
