/**
 * What a folder holds, read without following symbolic links (a link inside
 * outputDir is an entry of its own, never a way out of it), and the path
 * rules that keep every write and delete inside outputDir.
 */
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import path from "node:path";

export interface TreeEntry {
  /** Relative to the folder listed, posix separators. */
  readonly path: string;
  readonly kind: "file" | "symlink" | "empty-dir" | "other";
}

/** Files, links, empty folders and anything else, sorted by path; [] when the folder does not exist. */
export async function listTree(dir: string): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  await walk(dir, "", entries);
  return entries.sort((a, b) => compare(a.path, b.path));
}

async function walk(root: string, relative: string, into: TreeEntry[]): Promise<void> {
  let children;
  try {
    children = await readdir(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    if (relative === "" && (error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (children.length === 0 && relative !== "") into.push({ path: relative, kind: "empty-dir" });
  for (const child of children) {
    const childPath = relative === "" ? child.name : `${relative}/${child.name}`;
    if (child.isDirectory()) await walk(root, childPath, into);
    else into.push({ path: childPath, kind: child.isFile() ? "file" : child.isSymbolicLink() ? "symlink" : "other" });
  }
}

/** The regular files under `dir`, relative and sorted. */
export async function listRelativeFiles(dir: string): Promise<string[]> {
  return (await listTree(dir)).filter((entry) => entry.kind === "file").map((entry) => entry.path);
}

/** A relative posix path that stays inside the folder it is relative to: no `..`, `.`, empty or absolute parts. */
export function isSafeRelativePath(relative: string): boolean {
  if (relative === "" || relative.includes("\\") || relative.includes("\0") || path.posix.isAbsolute(relative))
    return false;
  return relative.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/** `child` is `parent` or lies under it (both absolute). */
export function isSameOrInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

/** Same kind and same bytes (files) or the same target (links). */
export async function sameEntry(a: string, b: string): Promise<boolean> {
  const [statA, statB] = await Promise.all([lstat(a).catch(() => undefined), lstat(b).catch(() => undefined)]);
  if (!statA || !statB) return false;
  if (statA.isSymbolicLink() && statB.isSymbolicLink()) return (await readlink(a)) === (await readlink(b));
  if (!statA.isFile() || !statB.isFile() || statA.size !== statB.size) return false;
  const [bytesA, bytesB] = await Promise.all([readFile(a), readFile(b)]);
  return bytesA.equals(bytesB);
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
