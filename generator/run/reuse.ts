/**
 * A write without --force keeps a flow's files (and the index's) when the
 * manifest shows them made from the same inputs by the same generator, and
 * every file is still as written: nothing to regenerate.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ResolvedFlowConfig } from "../config/config-types.js";
import { sha256, type ManifestFlow, type ManifestIndex } from "../output/manifest.js";
import type { OutputDirState } from "../output/output-dir.js";
import type { Run } from "./run-context.js";

/** A flow without a name in the config: the name it was generated under last time, if the manifest knows its source. */
export function nameInManifestOrUndefined(flow: ResolvedFlowConfig, run: Run): string | undefined {
  const display = flow.source.kind === "file" ? flow.source.display : flow.source.snapshot.display;
  return Object.entries(run.output.manifest?.flows ?? {}).find(([, entry]) => entry.source === display)?.[0];
}

/**
 * The flow the manifest shows made from these inputs, when its files can be
 * kept, and its description's copy with them (without it, the flow is made
 * again, and descriptions.json gets it back).
 */
export async function reusableOrUndefined(
  inputsHash: string,
  run: Run,
): Promise<{ name: string; entry: ManifestFlow; copy: string } | undefined> {
  const manifest = run.output.manifest;
  if (manifest?.generator?.fingerprint !== run.generator.fingerprint) return undefined;
  const found = Object.entries(manifest.flows).find(([, entry]) => entry.inputsHash === inputsHash);
  if (!found || !(await filesAsWritten(found[1].files, run.output))) return undefined;
  const copy = await run.previous.copyOrUndefined(found[0]);
  return copy ? { name: found[0], entry: found[1], copy: copy.text } : undefined;
}

/** The index made from these inputs, when its file can be kept. */
export async function reusableIndexOrUndefined(inputsHash: string, run: Run): Promise<ManifestIndex | undefined> {
  const manifest = run.output.manifest;
  const previous = manifest?.index;
  if (
    !run.reuse ||
    manifest?.generator?.fingerprint !== run.generator.fingerprint ||
    previous?.inputsHash !== inputsHash
  )
    return undefined;
  return (await filesAsWritten(previous.files, run.output)) ? previous : undefined;
}

async function filesAsWritten(files: Readonly<Record<string, string>>, output: OutputDirState): Promise<boolean> {
  for (const [file, hash] of Object.entries(files)) {
    const content = await readFile(path.join(output.dir, file)).catch(() => undefined);
    if (!content || sha256(content) !== hash) return false;
  }
  return true;
}
