/**
 * What a run wants outputDir to hold, and the two things done with it:
 * compare it with the disk (--check) or make the disk hold it, all at once.
 */
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { CodegenError } from "../errors.js";

export interface OutputPlan {
  /** Relative posix path → content to write. */
  readonly files: ReadonlyMap<string, string>;
  /** Relative paths already on disk and already known to be right: carried over as they are. */
  readonly keep: ReadonlySet<string>;
}

export type StaleReason = "missing" | "changed" | "extra";
export interface StaleFile {
  readonly path: string;
  readonly reason: StaleReason;
}

export async function findStaleFiles(plan: OutputPlan, outputDir: string): Promise<StaleFile[]> {
  const stale: StaleFile[] = [];
  for (const [relative, content] of plan.files) {
    const current = await readIfExists(path.join(outputDir, relative));
    if (current === undefined) stale.push({ path: relative, reason: "missing" });
    else if (current !== content) stale.push({ path: relative, reason: "changed" });
  }
  for (const relative of await listRelativeFiles(outputDir)) {
    if (!plan.files.has(relative) && !plan.keep.has(relative)) stale.push({ path: relative, reason: "extra" });
  }
  return stale.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Stages the whole new tree beside outputDir and swaps it in with renames,
 * so a failure leaves outputDir exactly as it was. Writes nothing when the
 * disk already matches. Returns the paths that changed.
 */
export async function writeOutputAtomically(plan: OutputPlan, outputDir: string): Promise<StaleFile[]> {
  const changes = await findStaleFiles(plan, outputDir);
  if (changes.length === 0) return changes;
  const staging = `${outputDir}.flowsmith-staging-${process.pid}`;
  const previous = `${outputDir}.flowsmith-previous-${process.pid}`;
  try {
    await rm(staging, { recursive: true, force: true });
    for (const relative of plan.keep) await copyInto(path.join(outputDir, relative), path.join(staging, relative));
    for (const [relative, content] of plan.files) await writeInto(path.join(staging, relative), content);
    const hadOutput = await exists(outputDir);
    if (hadOutput) await rename(outputDir, previous);
    try {
      await rename(staging, outputDir);
    } catch (error) {
      if (hadOutput) await rename(previous, outputDir);
      throw error;
    }
    await rm(previous, { recursive: true, force: true });
    return changes;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new CodegenError("WRITE_FAILED", `could not write the output: ${(error as Error).message}`, {
      file: outputDir,
    }, { cause: error });
  }
}

async function copyInto(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await copyFile(from, to);
}

async function writeInto(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

async function exists(dir: string): Promise<boolean> {
  try {
    await readdir(dir);
    return true;
  } catch {
    return false;
  }
}

export async function listRelativeFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const parent = entry.parentPath ?? (entry as unknown as { path: string }).path;
      return path.relative(dir, path.join(parent, entry.name)).split(path.sep).join("/");
    })
    .sort();
}
