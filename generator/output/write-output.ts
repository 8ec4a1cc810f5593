/**
 * The two ways a run ends: compare the plan with outputDir (--check), or
 * make outputDir hold it, all at once. A write has staged each generated file
 * that differs from outputDir's as it was made (output-plan.ts, staging.ts);
 * here it carries over the rest and swaps the staged set in with two renames
 * (interrupted-write.ts says how an interruption at any point is finished or
 * undone by the next run). Files flowsmith did not write are carried over as
 * they are and reported; a planned path taken by one of them stops the write
 * before it starts, and so does a generated file edited by hand (its bytes
 * differ from the sha256 the manifest records), unless the run is told to
 * replace edits (--force), and so does any entry changed while the run was
 * writing (after it was read): an edit is never discarded unseen.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { CodegenError } from "../errors.js";
import { crashPoint, pausePoint } from "./crash-points.js";
import { identityOf, identityOfOrUndefined } from "./entry-identity.js";
import { listTree } from "./file-tree.js";
import { previousDirOf, removePreviousDir } from "./interrupted-write.js";
import { differsOnlyInGenerator, MANIFEST_FILE, type GeneratorStamp } from "./manifest.js";
import { assertUnchangedOrThrow, type OutputDirState } from "./output-dir.js";
import type { Comparison, FileChange, KeptFile, OutputPlan } from "./output-plan.js";
import type { StagingFolder } from "./staging.js";
import { lstat } from "node:fs/promises";
import { DESCRIPTIONS_FILE } from "./description-copies.js";

/** The files at the top of outputDir whatever the flows are called (the index's and descriptions.json). */
const TOP_FILES = ["index.ts", DESCRIPTIONS_FILE];

export interface CheckOutcome {
  /** Files a write would add, change or delete; empty when outputDir is up to date. */
  readonly changes: readonly FileChange[];
  /** Found under outputDir and not flowsmith's to replace or delete: a write would keep them as they are. */
  readonly kept: readonly KeptFile[];
  /** Set when the manifest differs only in the generator that wrote it (the files are the same): that generator. */
  readonly otherGenerator?: { readonly generator?: GeneratorStamp };
  /**
   * Changed files whose hash the manifest records as it is on disk: edited
   * along with the manifest, so a write would reuse them; only --force
   * replaces them.
   */
  readonly editedWithManifest: readonly string[];
  /** Changed files whose bytes differ from the hash the manifest records: edited by hand; a write refuses to replace them without --force. */
  readonly editedByHand: readonly string[];
}

export async function checkOutput(plan: OutputPlan, output: OutputDirState): Promise<CheckOutcome> {
  const { changes, kept, editedByHand, editedWithManifest, manifest: planned } = await plan.compareRestOrThrow();
  const manifest = changes.find((change) => change.path === MANIFEST_FILE && change.reason === "changed");
  const otherGenerator =
    manifest && differsOnlyInGenerator(await readFile(path.join(output.dir, MANIFEST_FILE), "utf8"), planned);
  await assertUnchangedOrThrow(output);
  // Only then may the note say every generated file is identical.
  if (!otherGenerator || changes.some((change) => change !== manifest))
    return { changes, kept, editedWithManifest, editedByHand };
  return {
    changes: changes.filter((change) => change !== manifest),
    kept,
    otherGenerator,
    editedWithManifest,
    editedByHand,
  };
}

export interface WriteOutcome {
  /** What differed before the write: files added, changed or deleted. Empty when nothing was written. */
  readonly changes: readonly FileChange[];
  /** Found under outputDir and not flowsmith's to replace or delete: kept as they are. */
  readonly kept: readonly KeptFile[];
  /** Files of the old outputDir that could not be matched with the new one, left in the previous folder (never expected). */
  readonly unverified: readonly string[];
}

/** The staging folder is the caller's to discard when this throws. */
export async function writeOutputOrThrow(
  plan: OutputPlan,
  output: OutputDirState,
  staging: StagingFolder,
  options: { readonly replaceEdits: boolean },
): Promise<WriteOutcome> {
  await pausePoint("planned");
  const comparison = await plan.compareRestOrThrow();
  const { changes, kept, conflicts } = comparison;
  if (conflicts.length > 0) {
    // Another name helps where a flow's folder is in the way, not for the files every run writes at the top.
    const rename = conflicts.some((file) => !TOP_FILES.includes(file)) ? ' (or give the flow another "name")' : "";
    throw new CodegenError(
      "OUTPUT_CONFLICT",
      `flowsmith would replace ${conflicts.map((file) => `${output.display}/${file}`).join(", ")}, which it did not write; move it out of outputDir${rename} and run again`,
      { file: output.display },
    );
  }
  const edited = options.replaceEdits ? [] : comparison.editedByHand;
  if (edited.length > 0) {
    const files = edited.map((file) => `${output.display}/${file}`).join(", ");
    throw new CodegenError(
      "OUTPUT_EDITED",
      `${files} ${edited.length === 1 ? "was" : "were"} edited since flowsmith wrote ${edited.length === 1 ? "it" : "them"} (the bytes differ from the sha256 in ${output.display}/${MANIFEST_FILE}), ` +
        `and this run would replace ${edited.length === 1 ? "it" : "them"}; nothing was written. flowsmith regenerates these files on every run: ` +
        "move your change out of outputDir (into your own code), or discard it with `npx flowsmith codegen --force`",
      { file: output.display },
    );
  }
  if (changes.length === 0) return { changes, kept, unverified: [] };
  await stageRestOrThrow(comparison, plan, output, staging);
  const unverified = await swapInOrThrow(plan, output, staging);
  return { changes, kept, unverified };
}

/** What outputDir keeps into the staging folder, then the manifest last, so a complete manifest means a complete set. */
async function stageRestOrThrow(
  comparison: Comparison,
  plan: OutputPlan,
  output: OutputDirState,
  staging: StagingFolder,
): Promise<void> {
  const changed: string[] = [];
  try {
    for (const file of [...comparison.carried, ...comparison.kept.map((entry) => entry.path)]) {
      const from = path.join(output.dir, file);
      // Carried as it is now: if it is not what the run read, it changed since.
      const identity = await identityOfOrUndefined(from);
      const seen = plan.seen.get(file);
      if (identity !== undefined && seen !== undefined && seen !== identity) changed.push(file);
      if (identity !== undefined && seen === undefined) plan.seen.set(file, identity);
      await staging.carryOrThrow(from, file);
    }
    if (changed.length > 0) throw changedWhileWriting(changed, output);
    const manifest = path.join(staging.startOrThrow(), `${MANIFEST_FILE}.partial`);
    await writeFile(manifest, comparison.manifest);
    await rename(manifest, path.join(staging.dir, MANIFEST_FILE));
  } catch (error) {
    throw error instanceof CodegenError ? error : writeFailed(error, output);
  }
  crashPoint("staging-complete");
}

/**
 * outputDir aside, then checked against what the run saw (an edit made while
 * it ran puts it back and stops the write), then the staged set in its place.
 */
async function swapInOrThrow(plan: OutputPlan, output: OutputDirState, staging: StagingFolder): Promise<string[]> {
  await pausePoint("staged");
  const previous = previousDirOf(output.dir);
  const hadOutput = await lstat(output.dir).then(
    () => true,
    () => false,
  );
  try {
    if (hadOutput) await rename(output.dir, previous);
    crashPoint("old-moved-aside");
    const changed = hadOutput ? await changedSince(previous, plan.seen) : [];
    if (changed.length > 0) {
      await rename(previous, output.dir);
      throw changedWhileWriting(changed, output);
    }
    try {
      await rename(staging.dir, output.dir);
    } catch (error) {
      if (hadOutput) await rename(previous, output.dir);
      throw error;
    }
  } catch (error) {
    throw error instanceof CodegenError ? error : writeFailed(error, output);
  }
  staging.swapped();
  crashPoint("swapped");
  return hadOutput ? removePreviousDir(previous, output.dir, plan.seen) : [];
}

/** Entries of `dir` (files and links) added or changed since the run saw them. */
async function changedSince(dir: string, seen: ReadonlyMap<string, string>): Promise<string[]> {
  const changed: string[] = [];
  for (const entry of await listTree(dir)) {
    if (entry.kind === "empty-dir") continue;
    const stats = await lstat(path.join(dir, entry.path), { bigint: true }).catch(() => undefined);
    if (stats && seen.get(entry.path) !== identityOf(stats)) changed.push(entry.path);
  }
  return changed;
}

function changedWhileWriting(files: readonly string[], output: OutputDirState): CodegenError {
  const named = files.map((file) => `${output.display}/${file}`).join(", ");
  return new CodegenError(
    "OUTPUT_EDITED",
    `${named} ${files.length === 1 ? "was" : "were"} changed or added while this run was writing ${output.display}/ (after it read ${output.display}/), ` +
      "so the output it planned would have lost the change; nothing was written. Run again once the change is saved",
    { file: output.display },
  );
}

function writeFailed(error: unknown, output: OutputDirState): CodegenError {
  return new CodegenError(
    "WRITE_FAILED",
    `could not write the output, nothing was changed: ${(error as Error).message}`,
    { file: output.dir },
    { cause: error },
  );
}
