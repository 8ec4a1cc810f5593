/**
 * What a suite does on the platform jest gives it (jest.config.js runs the
 * runtime's exchange suites on Node's platform and on the Web one): which
 * tests only Node's can run, and a file on disk as an upload on either.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { platform } from "#platform";
import { fileFromPath, type NamedFile } from "../../../runtime/index.js";

/** Reads files from disk (fileFromPath): Node's, Deno's and Bun's; the Web platform has no disk. */
const readsDisk = platform.name !== "web";

/** A describe that runs where fileFromPath reads from disk, and is skipped (said in jest's report) elsewhere. */
export const describeWithDisk = readsDisk ? describe : describe.skip;

/** The file as an upload: fileFromPath where the platform reads disk, else its bytes in a File, as a Worker would have it. */
export async function uploadOf(path: string): Promise<NamedFile> {
  if (readsDisk) return fileFromPath(path);
  return { data: new File([await readFile(path)], basename(path)) };
}
