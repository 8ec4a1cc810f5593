/**
 * `flowsmith init` looks for flow descriptions under the working directory:
 * YAML and JSON files that read and model as codegen reads them. It never
 * looks inside node_modules, .git or another dot-folder, nor inside a folder
 * flowsmith generated (one holding `.flowsmith-manifest.json`: it keeps a
 * normalised copy of each description). The walk is bounded in files and
 * bytes, so a large repository costs a bounded time.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { CodegenError } from "../errors.js";
import { buildFlowModelOrThrow } from "../model/build-flow-model.js";
import type { FlowModel } from "../model/types.js";
import { MANIFEST_FILE } from "../output/manifest.js";
import { parseDescriptionOrThrow } from "../read/load-description.js";

export interface FoundDescription {
  /** Absolute. */
  readonly path: string;
  /** Relative to the folder searched, posix separators: what the config says. */
  readonly display: string;
  readonly model: FlowModel;
}

export interface SkippedFile {
  readonly display: string;
  /** Why it is not a flow description flowsmith can generate. */
  readonly why: string;
}

export const FIND_LIMITS = {
  /** Files looked at (of every kind), at most. */
  maxFiles: 20_000,
  /** A larger file is not read: descriptions are a few kilobytes. */
  maxBytes: 5 * 1024 * 1024,
} as const;

const SKIPPED_FOLDERS = new Set(["node_modules"]);
const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

export async function findDescriptions(
  root: string,
): Promise<{ found: FoundDescription[]; skipped: SkippedFile[]; truncated: boolean }> {
  const found: FoundDescription[] = [];
  const skipped: SkippedFile[] = [];
  const { candidates, truncated } = await candidateFiles(root);
  for (const file of candidates) {
    const display = path.relative(root, file).split(path.sep).join("/");
    // A file that cannot be read (no permission, gone since the walk) is said and passed over, as a broken one is.
    const bytes = await readSmallFileOrUndefined(file).catch((error: unknown) => {
      skipped.push({ display, why: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` });
      return undefined;
    });
    if (bytes === undefined) continue;
    // Only a file that names a flow id is read in full: package.json and tsconfig.json are not descriptions.
    if (!bytes.includes("x-flow-id")) continue;
    try {
      found.push({ path: file, display, model: buildFlowModelOrThrow(parseDescriptionOrThrow(bytes, display)) });
    } catch (error) {
      if (!(error instanceof CodegenError)) throw error;
      skipped.push({ display, why: `${error.code}: ${error.message}` });
    }
  }
  return { found, skipped, truncated };
}

/**
 * Breadth first, so descriptions near the top are among the files looked at
 * when the walk stops at its bound (what it gathered is still read).
 */
async function candidateFiles(root: string): Promise<{ candidates: string[]; truncated: boolean }> {
  const candidates: string[] = [];
  let seen = 0;
  const folders = [root];
  for (let folder = folders.shift(); folder !== undefined; folder = folders.shift()) {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    if (entries.some((entry) => entry.name === MANIFEST_FILE)) continue;
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if ((seen += 1) > FIND_LIMITS.maxFiles) return { candidates, truncated: true };
      const full = path.join(folder, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith(".") && !SKIPPED_FOLDERS.has(entry.name)) folders.push(full);
      else if (entry.isFile() && EXTENSIONS.has(path.extname(entry.name).toLowerCase())) candidates.push(full);
    }
  }
  return { candidates, truncated: false };
}

/** The file's bytes; undefined when it is larger than a description can be. */
async function readSmallFileOrUndefined(file: string): Promise<Buffer | undefined> {
  if ((await stat(file)).size > FIND_LIMITS.maxBytes) return undefined;
  return readFile(file);
}
