/**
 * What a run wants outputDir to hold (the plan), and how that differs from
 * what it holds now: the one comparison both --check and a write use.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { compare, listTree } from "./file-tree.js";
import { MANIFEST_FILE, serializeManifest, sha256, type GeneratorStamp, type Manifest, type ManifestFlow, type ManifestIndex } from "./manifest.js";
import type { OutputDirState } from "./output-dir.js";

/**
 * One flow's (or the index's) part of the plan: new content by path, or
 * flowsmith's files on disk kept as they are (reused, or left out by --flow).
 */
export type PlannedFiles<Entry> =
  | { readonly kind: "written"; readonly entry: Entry; readonly files: ReadonlyMap<string, string> }
  | { readonly kind: "kept"; readonly entry: Entry };

export interface OutputPlan {
  /** Relative posix path → content: every file this run generated, the manifest included. */
  readonly files: ReadonlyMap<string, string>;
  /** Files flowsmith wrote earlier that stay as they are. */
  readonly keep: ReadonlySet<string>;
  /** The manifest the plan writes (its text is in `files`). */
  readonly manifest: Manifest;
}

export function planOutput(
  flows: ReadonlyMap<string, PlannedFiles<ManifestFlow>>,
  index: PlannedFiles<ManifestIndex>,
  generator: GeneratorStamp,
): OutputPlan {
  const files = new Map<string, string>();
  const keep = new Set<string>();
  for (const planned of [...flows.values(), index]) {
    if (planned.kind === "written") for (const [file, content] of planned.files) files.set(file, content);
    else for (const file of Object.keys(planned.entry.files)) keep.add(file);
  }
  const manifest = { generator, flows: Object.fromEntries([...flows].map(([name, planned]) => [name, planned.entry])), index: index.entry };
  files.set(MANIFEST_FILE, serializeManifest(manifest));
  return { files, keep, manifest };
}

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
}

export async function compareWithDisk(plan: OutputPlan, output: OutputDirState): Promise<Comparison> {
  const changes: FileChange[] = [];
  const kept: KeptFile[] = [];
  const conflicts: string[] = [];
  // Read all at once: one after another, the thread waited on the disk for each of some 300 files.
  const planned = [...plan.files];
  // CRLF read as LF: generated text has no CR of its own, and a Windows checkout (git autocrlf) is the same output.
  const current = await Promise.all(
    planned.map(([file]) =>
      readFile(path.join(output.dir, file), "utf8").then(
        (text) => text.replace(/\r\n/g, "\n"),
        () => undefined,
      ),
    ),
  );
  for (const [index, [file, content]] of planned.entries()) {
    if (current[index] === undefined) changes.push({ path: file, reason: "missing" });
    else if (current[index] !== content) changes.push({ path: file, reason: "changed" });
  }
  for (const entry of await listTree(output.dir)) {
    if (plan.keep.has(entry.path)) continue;
    const file = path.join(output.dir, entry.path);
    const flowsmiths = entry.kind === "file" && output.written.has(entry.path);
    if (plan.files.has(entry.path)) {
      // Replacing what flowsmith wrote is the point; replacing anything else loses it, unless it is the same bytes.
      const same = entry.kind === "file" && (await readFile(file, "utf8")) === plan.files.get(entry.path);
      if (!flowsmiths && !same) conflicts.push(entry.path);
      continue;
    }
    const edited = flowsmiths && sha256(await readFile(file)) !== output.written.get(entry.path) && output.written.get(entry.path) !== undefined;
    if (blocksPlannedPath(entry.path, plan)) {
      // An empty folder where a planned folder goes is simply used.
      if (entry.kind !== "empty-dir" && (!flowsmiths || edited)) conflicts.push(entry.path);
      else if (flowsmiths) changes.push({ path: entry.path, reason: "extra" });
      continue;
    }
    if (!flowsmiths) kept.push({ path: entry.path, why: "not written by flowsmith" });
    else if (edited) kept.push({ path: entry.path, why: "edited since flowsmith wrote it" });
    else changes.push({ path: entry.path, reason: "extra" });
  }
  return { changes: changes.sort((a, b) => compare(a.path, b.path)), kept, conflicts };
}

/** A file where a planned file needs a folder (`signing` for `signing/index.ts`), or a folder's content where a planned file goes. */
function blocksPlannedPath(entry: string, plan: OutputPlan): boolean {
  for (const planned of plan.files.keys()) {
    if (planned.startsWith(`${entry}/`) || entry.startsWith(`${planned}/`)) return true;
  }
  return false;
}
