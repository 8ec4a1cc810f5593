/**
 * What is at a path, for the commands' checks before they write: never
 * throws, a path that cannot be read counts as nothing there.
 */
import { lstat, stat } from "node:fs/promises";

/** Anything at `file`, a dangling symbolic link included: a file a command must not write over. */
export async function isTaken(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

/** A folder at `dir` (through a symbolic link too). */
export async function isFolder(dir: string): Promise<boolean> {
  return stat(dir).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}
