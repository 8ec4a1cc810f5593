/**
 * What a run saw of an entry of outputDir, to tell later whether it changed
 * since: an edit (new bytes, new mode, a file replaced by another) changes
 * its identity, and moving outputDir aside does not. A write records the
 * identity of every entry it read or carries over, and swaps its new set in
 * only while outputDir still holds exactly those (write-output.ts), so an
 * edit made while it ran is never discarded.
 */
import { lstatSync, readFileSync, type BigIntStats } from "node:fs";
import { lstat } from "node:fs/promises";

export function identityOf(stats: BigIntStats): string {
  return `${stats.mode}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** The entry's identity, or undefined when nothing is there. */
export async function identityOfOrUndefined(file: string): Promise<string | undefined> {
  const stats = await lstat(file, { bigint: true }).catch(() => undefined);
  return stats && identityOf(stats);
}

/**
 * A file's bytes (a link read through, as the comparison always read it) with
 * the identity it had before they were read: an edit in between shows as a
 * change later, never the other way round. Undefined when there is nothing to
 * read (absent, or a folder). Synchronous: small files, read while this thread
 * has nothing else to do (see read/read-source.ts).
 */
export function readWithIdentityOrUndefined(
  file: string,
): { readonly bytes: Buffer; readonly identity: string } | undefined {
  try {
    const identity = identityOf(lstatSync(file, { bigint: true }));
    return { bytes: readFileSync(file), identity };
  } catch {
    return undefined;
  }
}
