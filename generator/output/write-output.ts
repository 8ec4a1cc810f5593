/**
 * The two ways a run ends: compare the plan with outputDir (--check), or
 * make outputDir hold it, all at once. A write stages the new set beside
 * outputDir and swaps it in with two renames (interrupted-write.ts says how
 * an interruption at any point is finished or undone by the next run).
 * Files flowsmith did not write are carried over as they are and reported;
 * a planned path taken by one of them stops the write before it starts, and
 * so does a generated file edited by hand (its bytes differ from the sha256
 * the manifest records), unless the run is told to replace edits (--force).
 */
import { chmod, copyFile, lstat, mkdir, readFile, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CodegenError } from "../errors.js";
import { crashPoint, pausePoint } from "./crash-points.js";
import { previousDirOf, removePreviousDir, stagingDirOf } from "./interrupted-write.js";
import { differsOnlyInGenerator, MANIFEST_FILE, sha256, type GeneratorStamp } from "./manifest.js";
import { assertUnchangedOrThrow, type OutputDirState } from "./output-dir.js";
import { compareWithDisk, type FileChange, type KeptFile, type OutputPlan } from "./output-plan.js";

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
  const { changes, kept } = await compareWithDisk(plan, output);
  const editedByHand = await editedByHandOf(changes, output);
  const editedWithManifest: string[] = [];
  for (const change of changes) {
    if (change.reason !== "changed" || change.path === MANIFEST_FILE || !wouldReuse(change.path, plan, output)) continue;
    const hash = sha256(await readFile(path.join(output.dir, change.path)));
    if (output.written.get(change.path) === hash) editedWithManifest.push(change.path);
  }
  const manifest = changes.find((change) => change.path === MANIFEST_FILE && change.reason === "changed");
  const otherGenerator =
    manifest && differsOnlyInGenerator(await readFile(path.join(output.dir, MANIFEST_FILE), "utf8"), plan.files.get(MANIFEST_FILE) ?? "");
  await assertUnchangedOrThrow(output);
  // Only then may the note say every generated file is identical.
  if (!otherGenerator || changes.some((change) => change !== manifest)) return { changes, kept, editedWithManifest, editedByHand };
  return { changes: changes.filter((change) => change !== manifest), kept, otherGenerator, editedWithManifest, editedByHand };
}

export interface WriteOutcome {
  /** What differed before the write: files added, changed or deleted. Empty when nothing was written. */
  readonly changes: readonly FileChange[];
  /** Found under outputDir and not flowsmith's to replace or delete: kept as they are. */
  readonly kept: readonly KeptFile[];
  /** Files of the old outputDir that could not be matched with the new one, left in the previous folder (never expected). */
  readonly unverified: readonly string[];
}

export async function writeOutputOrThrow(plan: OutputPlan, output: OutputDirState, options: { readonly replaceEdits: boolean }): Promise<WriteOutcome> {
  await pausePoint("planned");
  const { changes, kept, conflicts } = await compareWithDisk(plan, output);
  if (conflicts.length > 0) {
    throw new CodegenError(
      "OUTPUT_CONFLICT",
      `flowsmith would replace ${conflicts.map((file) => `${output.display}/${file}`).join(", ")}, which it did not write; move it out of outputDir (or give the flow another "name") and run again`,
      { file: output.display },
    );
  }
  const edited = options.replaceEdits ? [] : await editedByHandOf(changes, output);
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
  const unverified = await replaceOutputDirOrThrow(plan, kept, output.dir);
  return { changes, kept, unverified };
}

/**
 * A write regenerates a file only when its flow's inputs (or the index's) or
 * the generator differ from what the manifest records; otherwise it reuses
 * the file as the manifest describes it.
 */
function wouldReuse(file: string, plan: OutputPlan, output: OutputDirState): boolean {
  const before = output.manifest;
  if (!before || before.generator?.fingerprint !== plan.manifest.generator?.fingerprint) return false;
  for (const [name, entry] of Object.entries(plan.manifest.flows)) {
    if (Object.hasOwn(entry.files, file)) return before.flows[name]?.inputsHash === entry.inputsHash;
  }
  const index = plan.manifest.index;
  return index !== undefined && Object.hasOwn(index.files, file) && before.index?.inputsHash === index.inputsHash;
}

/**
 * Changed files flowsmith wrote whose bytes are no longer the ones the
 * manifest records (read as LF too: a CRLF checkout is not an edit).
 */
async function editedByHandOf(changes: readonly FileChange[], output: OutputDirState): Promise<string[]> {
  const edited: string[] = [];
  for (const change of changes) {
    const recorded = output.written.get(change.path);
    if (change.reason !== "changed" || recorded === undefined) continue;
    const bytes = await readFile(path.join(output.dir, change.path));
    if (sha256(bytes) !== recorded && sha256(bytes.toString("utf8").replace(/\r\n/g, "\n")) !== recorded) edited.push(change.path);
  }
  return edited;
}

async function replaceOutputDirOrThrow(plan: OutputPlan, kept: readonly KeptFile[], outputDir: string): Promise<string[]> {
  const staging = stagingDirOf(outputDir);
  const previous = previousDirOf(outputDir);
  const fail = (error: unknown) =>
    new CodegenError("WRITE_FAILED", `could not write the output, nothing was changed: ${(error as Error).message}`, { file: outputDir }, { cause: error });
  try {
    await stageOrThrow(plan, kept, outputDir, staging);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw fail(error);
  }
  const hadOutput = await lstat(outputDir).then(
    () => true,
    () => false,
  );
  try {
    if (hadOutput) await rename(outputDir, previous);
    crashPoint("old-moved-aside");
    try {
      await rename(staging, outputDir);
    } catch (error) {
      if (hadOutput) await rename(previous, outputDir);
      throw error;
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw fail(error);
  }
  crashPoint("swapped");
  return hadOutput ? removePreviousDir(previous, outputDir) : [];
}

/** The whole new set in the staging folder; its manifest last, so a complete manifest means a complete set. */
async function stageOrThrow(plan: OutputPlan, kept: readonly KeptFile[], outputDir: string, staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  let staged = 0;
  // Synchronously: small files each awaited in turn left the thread waiting
  // on the disk, and all at once (a promise each) were slower still than a
  // loop (bench/analysis.md, "No idle end").
  for (const [file, content] of plan.files) {
    if (file === MANIFEST_FILE) continue;
    const target = path.join(staging, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    if ((staged += 1) === 1) crashPoint("staging-partial");
  }
  for (const file of [...plan.keep, ...kept.map((entry) => entry.path)]) {
    await copyEntryOrThrow(path.join(outputDir, file), path.join(staging, file));
    if ((staged += 1) === 1) crashPoint("staging-partial");
  }
  const manifest = path.join(staging, `${MANIFEST_FILE}.partial`);
  await writeFile(manifest, plan.files.get(MANIFEST_FILE) ?? "");
  await rename(manifest, path.join(staging, MANIFEST_FILE));
  crashPoint("staging-complete");
}

/** Files keep their bytes and mode, links their target, empty folders stay folders; nothing else can be carried over. */
async function copyEntryOrThrow(from: string, to: string): Promise<void> {
  const stat = await lstat(from).catch(() => undefined);
  if (!stat) return; // A kept flow's file the user deleted: nothing to carry over.
  await mkdir(path.dirname(to), { recursive: true });
  if (stat.isSymbolicLink()) await symlink(await readlink(from), to);
  else if (stat.isDirectory()) await mkdir(to, { recursive: true });
  else if (stat.isFile()) {
    await copyFile(from, to);
    await chmod(to, stat.mode);
  } else throw new Error(`${from} is not a file, link or folder, so it cannot be carried over; move it out of outputDir`);
}
