/**
 * outputDir must be a folder flowsmith owns. Checked right after the config
 * is loaded, before any description or manifest is read, so a config that
 * points outputDir at the project (".", "..", "flows", "src") is refused
 * before anything could be written or deleted there.
 */
import { realpathSync } from "node:fs";
import { lstat, readdir, readlink } from "node:fs/promises";
import path from "node:path";
import type { ResolvedConfig } from "../config/config-types.js";
import { CodegenError } from "../errors.js";
import { isSameOrInside } from "./file-tree.js";

/** Names that mark a folder as someone's project or repository, anywhere under outputDir. */
const PROJECT_MARKERS = ["package.json", ".git"];

/** `fromFlag`: the folder came from `init --output-dir` (or its question), not a config on disk, so the message names that. */
export async function assertOutputDirSafeOrThrow(config: ResolvedConfig, fromFlag = false): Promise<void> {
  const unsafe = (reason: string) =>
    new CodegenError(
      "UNSAFE_OUTPUT_DIR",
      `outputDir ${config.outputDisplay} ${reason}. flowsmith replaces what is in outputDir, so it must be a folder of its own, such as "generated"; ` +
        (fromFlag ? "choose another with --output-dir" : 'change "outputDir"'),
      fromFlag ? {} : { file: config.configDisplay, pointer: "#/outputDir" },
    );
  const outputDir = config.outputDir;
  const stat = await lstat(outputDir).catch(async (error: unknown) => {
    // Not "absent": a folder on the way is a file (ENOTDIR), or the path cannot be looked at.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    const file = code === "ENOTDIR" ? await fileOnTheWay(outputDir) : undefined;
    throw unsafe(
      file !== undefined
        ? `lies under ${path.relative(path.dirname(config.configPath), file) || file}, which is a file, not a folder`
        : `cannot be looked at (${code ?? String(error)})`,
    );
  });
  if (stat?.isSymbolicLink()) throw unsafe(`is a symbolic link (to ${await readlink(outputDir)})`);
  if (stat && !stat.isDirectory()) throw unsafe("is a file, not a folder");

  // Compared as written and through real paths, so neither a symlinked parent nor `a/../b` hides an overlap.
  const outputDirs = [outputDir, realPathOfExisting(outputDir)];
  const configDir = path.dirname(config.configPath);
  const configDirs = [configDir, realPathOfExisting(configDir)];
  if (outputDirs.some((out) => configDirs.includes(out)))
    throw unsafe(`is the folder of the config (${config.configDisplay})`);
  if (outputDirs.some((out) => configDirs.some((dir) => isSameOrInside(dir, out)))) {
    throw unsafe(`contains the config (${config.configDisplay})`);
  }
  for (const flow of config.flows) {
    // A snapshot is a description too: one inside outputDir would be replaced by the output.
    const source = flow.source.kind === "file" ? flow.source : flow.source.snapshot;
    const description = [source.path, realPathOfExisting(source.path)];
    if (outputDirs.some((out) => description.some((file) => isSameOrInside(file, out)))) {
      const what = flow.source.kind === "file" ? "the description" : "the snapshot";
      throw unsafe(`contains ${what} ${source.display} (${flow.pointer})`);
    }
  }
  if (stat) {
    const marker = await findMarker(outputDir);
    if (marker) throw unsafe(`contains ${marker}, so it holds a project of its own`);
  }
}

/** The nearest folder on the way to `dir` that is a file. */
async function fileOnTheWay(dir: string): Promise<string | undefined> {
  for (let parent = path.dirname(dir); parent !== path.dirname(parent); parent = path.dirname(parent)) {
    const stat = await lstat(parent).catch(() => undefined);
    if (stat && !stat.isDirectory()) return parent;
  }
  return undefined;
}

/**
 * The real path of `file`, or of its nearest existing folder joined with the
 * rest. Synchronous: one per description, and awaited one at a time they
 * were most of this check at 1000 flows (bench/analysis.md, "One file of
 * descriptions"); nothing else runs while the config is checked.
 */
function realPathOfExisting(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    const parent = path.dirname(file);
    return parent === file ? file : path.join(realPathOfExisting(parent), path.basename(file));
  }
}

/** Breadth first, without following links: a marker near the top is found without walking a big tree. */
async function findMarker(root: string): Promise<string | undefined> {
  const queue = [""];
  for (let relative = queue.shift(); relative !== undefined; relative = queue.shift()) {
    const children = await readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
    for (const child of children) {
      const childPath = relative === "" ? child.name : `${relative}/${child.name}`;
      if (PROJECT_MARKERS.includes(child.name)) return childPath;
      if (child.isDirectory()) queue.push(childPath);
    }
  }
  return undefined;
}
