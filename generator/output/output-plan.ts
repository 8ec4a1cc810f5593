/**
 * What a run wants outputDir to hold (the plan), and how that differs from
 * what it holds now: the one comparison both --check and a write use.
 *
 * The plan is made as the flows are generated, one at a time: each flow's
 * files are compared with outputDir's when they arrive, and a write stages
 * them at once (staging.ts), so no flow's text is kept once the next one is
 * emitted. What needs the whole set (the manifest, files no longer planned,
 * files flowsmith did not write) is compared at the end (compareRestOrThrow).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { DescriptionsFile, DESCRIPTIONS_FILE } from "./description-copies.js";
import { identityOfOrUndefined, readWithIdentityOrUndefined } from "./entry-identity.js";
import { compare, listTree } from "./file-tree.js";
import {
  MANIFEST_FILE,
  recordOf,
  serializeManifest,
  sha256,
  type GeneratorStamp,
  type ManifestFlow,
  type ManifestIndex,
} from "./manifest.js";
import type { OutputDirState } from "./output-dir.js";
import type { StagingFolder } from "./staging.js";

/**
 * One flow's (or the index's) part of the plan: new content by path, or
 * flowsmith's files on disk kept as they are (reused, or left out by --flow).
 */
export type PlannedFiles<Entry> =
  | { readonly kind: "written"; readonly entry: Entry; readonly files: ReadonlyMap<string, string> }
  | { readonly kind: "kept"; readonly entry: Entry };

export interface FileChange {
  readonly path: string;
  /** missing: planned, not on disk; changed: planned, different on disk; extra: flowsmith's, no longer planned (a write deletes it). */
  readonly reason: "missing" | "changed" | "extra";
}

export interface KeptFile {
  readonly path: string;
  readonly why: "not written by flowsmith" | "edited since flowsmith wrote it";
}

export interface Comparison {
  /** Sorted by path. */
  readonly changes: readonly FileChange[];
  /** Found under outputDir, not planned, and not flowsmith's to delete: a write carries them over as they are. */
  readonly kept: readonly KeptFile[];
  /** Planned paths taken by something flowsmith did not write: a write refuses to replace them. */
  readonly conflicts: readonly string[];
  /** Changed files whose bytes differ from the sha256 the manifest records: edited by hand. */
  readonly editedByHand: readonly string[];
  /** Changed files a write would reuse, whose hash the manifest records as it is on disk: edited along with the manifest. */
  readonly editedWithManifest: readonly string[];
  /** The manifest's text, which a write writes last. */
  readonly manifest: string;
  /** Files flowsmith wrote that stay as they are (reused and left-out flows, generated files already on disk): carried over. */
  readonly carried: readonly string[];
}

export class OutputPlan {
  /** Every path of the new set but the manifest. */
  private readonly planned = new Set<string>();
  private readonly kept = new Set<string>();
  /** Generated files outputDir holds with exactly these bytes. */
  private readonly onDisk = new Set<string>();
  private readonly changes: FileChange[] = [];
  private readonly editedByHand: string[] = [];
  private readonly editedWithManifest: string[] = [];
  private readonly flows = new Map<string, ManifestFlow>();
  private index: ManifestIndex | undefined;
  /** descriptions.json, made as the flows come: each flow's copy, kept flows' from the last run. */
  private readonly descriptions: DescriptionsFile;
  /**
   * Each entry of outputDir this run read or will carry over, by path, with
   * its identity at that moment (entry-identity.ts): a write swaps its set in
   * only while outputDir holds exactly these.
   */
  readonly seen = new Map<string, string>();

  /** `staging`: a write's, which takes each generated file that differs from outputDir's; --check has none. */
  constructor(
    private readonly output: OutputDirState,
    private readonly generator: GeneratorStamp,
    private readonly staging: StagingFolder | undefined,
  ) {
    this.descriptions = new DescriptionsFile(staging);
  }

  /** `copy`: the flow's normalised description for descriptions.json; undefined for a kept flow whose copy is lost. */
  addFlow(name: string, planned: PlannedFiles<ManifestFlow>, copy: string | undefined): void {
    this.flows.set(name, planned.entry);
    this.add(planned, this.output.manifest?.flows[name]?.inputsHash === planned.entry.inputsHash);
    // After the flow's files: once they are staged, so is descriptions.json, as it comes.
    if (copy !== undefined) this.descriptions.add(name, copy);
  }

  setIndex(planned: PlannedFiles<ManifestIndex>): void {
    this.index = planned.entry;
    this.add(planned, this.output.manifest?.index?.inputsHash === planned.entry.inputsHash);
  }

  /** `sameInputs`: the manifest shows the flow made from these inputs, so a write without --force would reuse its files. */
  private add(planned: PlannedFiles<ManifestFlow | ManifestIndex>, sameInputs: boolean): void {
    if (planned.kind === "kept") {
      for (const file of Object.keys(planned.entry.files)) {
        this.planned.add(file);
        this.kept.add(file);
      }
      return;
    }
    const reusable = sameInputs && this.output.manifest?.generator?.fingerprint === this.generator.fingerprint;
    for (const [file, content] of planned.files) {
      this.planned.add(file);
      this.compareFile(file, content, reusable);
    }
  }

  private compareFile(file: string, content: string, reusable: boolean): void {
    // Without a manifest outputDir is new or empty (output-dir.ts refuses anything else): nothing to read.
    const disk = this.output.manifest ? readWithIdentityOrUndefined(path.join(this.output.dir, file)) : undefined;
    if (!disk) {
      this.changes.push({ path: file, reason: "missing" });
      this.staging?.write(file, content);
      return;
    }
    this.seen.set(file, disk.identity);
    const text = disk.bytes.toString("utf8");
    if (text === content) {
      this.onDisk.add(file);
      return;
    }
    this.staging?.write(file, content);
    // CRLF read as LF: generated text has no CR of its own, and a Windows checkout (git autocrlf) is the same output.
    const asLf = text.replace(/\r\n/g, "\n");
    if (asLf === content) return;
    this.changes.push({ path: file, reason: "changed" });
    const recorded = this.output.written.get(file);
    if (recorded === undefined) return;
    const hash = sha256(disk.bytes);
    if (hash !== recorded && sha256(asLf) !== recorded) this.editedByHand.push(file);
    else if (reusable && hash === recorded) this.editedWithManifest.push(file);
  }

  /**
   * descriptions.json, compared by hash (DescriptionsFile says when a write
   * has staged it and when it stages it now): the one planned file whose text
   * a run does not hold whole.
   */
  private compareDescriptions(hash: string): void {
    const file = DESCRIPTIONS_FILE;
    this.planned.add(file);
    const disk = this.output.manifest ? readWithIdentityOrUndefined(path.join(this.output.dir, file)) : undefined;
    if (!disk) {
      this.changes.push({ path: file, reason: "missing" });
      this.descriptions.stageHeld();
      return;
    }
    this.seen.set(file, disk.identity);
    const onDisk = sha256(disk.bytes);
    if (onDisk === hash) {
      if (!this.descriptions.isStaged) this.onDisk.add(file);
      return;
    }
    this.descriptions.stageHeld();
    const asLf = sha256(disk.bytes.toString("utf8").replace(/\r\n/g, "\n"));
    if (asLf === hash) return;
    this.changes.push({ path: file, reason: "changed" });
    // Rewritten by every write, so never "edited along with the manifest": only an edit by hand stops a write.
    const recorded = this.output.written.get(file);
    if (recorded !== undefined && onDisk !== recorded && asLf !== recorded) this.editedByHand.push(file);
  }

  /** The manifest, then what outputDir holds that is not planned: files to delete, to carry over, or in the way. */
  async compareRestOrThrow(): Promise<Comparison> {
    const descriptions = this.descriptions.finish();
    this.compareDescriptions(descriptions);
    const manifest = serializeManifest({
      generator: this.generator,
      flows: recordOf(this.flows),
      ...(this.index ? { index: this.index } : {}),
      descriptions: { [DESCRIPTIONS_FILE]: descriptions },
    });
    const onDisk = this.output.manifest
      ? readWithIdentityOrUndefined(path.join(this.output.dir, MANIFEST_FILE))
      : undefined;
    if (onDisk === undefined) this.changes.push({ path: MANIFEST_FILE, reason: "missing" });
    else {
      this.seen.set(MANIFEST_FILE, onDisk.identity);
      if (onDisk.bytes.toString("utf8").replace(/\r\n/g, "\n") !== manifest)
        this.changes.push({ path: MANIFEST_FILE, reason: "changed" });
    }

    const kept: KeptFile[] = [];
    const conflicts: string[] = [];
    const plannedFolders = foldersOf(this.planned);
    for (const entry of await listTree(this.output.dir)) {
      if (this.kept.has(entry.path) || entry.path === MANIFEST_FILE) continue;
      const file = path.join(this.output.dir, entry.path);
      const flowsmiths = entry.kind === "file" && this.output.written.has(entry.path);
      if (this.planned.has(entry.path)) {
        // Replacing what flowsmith wrote is the point; replacing anything else loses it, unless it is the same bytes.
        if (!flowsmiths && !(entry.kind === "file" && this.onDisk.has(entry.path))) conflicts.push(entry.path);
        continue;
      }
      const identity = await identityOfOrUndefined(file);
      if (identity !== undefined) this.seen.set(entry.path, identity);
      const recorded = this.output.written.get(entry.path);
      const edited = flowsmiths && recorded !== undefined && sha256(await readFile(file)) !== recorded;
      if (plannedFolders.has(entry.path) || [...foldersOf([entry.path])].some((folder) => this.planned.has(folder))) {
        // An empty folder where a planned folder goes is simply used.
        if (entry.kind !== "empty-dir" && (!flowsmiths || edited)) conflicts.push(entry.path);
        else if (flowsmiths) this.changes.push({ path: entry.path, reason: "extra" });
        continue;
      }
      if (!flowsmiths) kept.push({ path: entry.path, why: "not written by flowsmith" });
      else if (edited) kept.push({ path: entry.path, why: "edited since flowsmith wrote it" });
      else this.changes.push({ path: entry.path, reason: "extra" });
    }
    return {
      changes: [...this.changes].sort((a, b) => compare(a.path, b.path)),
      kept,
      conflicts,
      editedByHand: [...this.editedByHand].sort(compare),
      editedWithManifest: [...this.editedWithManifest].sort(compare),
      manifest,
      carried: [...this.kept, ...this.onDisk],
    };
  }
}

/** Every folder on the way to each path (`a` and `a/b` for `a/b/c.ts`). */
function foldersOf(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const file of paths) {
    for (let slash = file.indexOf("/"); slash > 0; slash = file.indexOf("/", slash + 1))
      folders.add(file.slice(0, slash));
  }
  return folders;
}
