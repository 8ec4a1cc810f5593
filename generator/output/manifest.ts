/**
 * generated/.flowsmith-manifest.json records, per flow, the hash of every
 * input that shapes its output and the hash of every file written. A rerun
 * whose inputs and files both match skips the flow: no parse, no emit, no
 * format. Committed with the output; sorted keys, no timestamps.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Environment } from "@flowsmith/runtime";

export const MANIFEST_FILE = ".flowsmith-manifest.json";

export interface ManifestFlow {
  readonly source: string;
  readonly inputsHash: string;
  readonly id: string;
  readonly version: number;
  readonly environment: Environment;
  /** Output path (relative to outputDir) → sha256 of its content. */
  readonly files: Readonly<Record<string, string>>;
}

export interface ManifestIndex {
  readonly inputsHash: string;
  readonly sha256: string;
}

export interface Manifest {
  readonly flows: Readonly<Record<string, ManifestFlow>>;
  readonly index?: ManifestIndex;
}

export async function readManifest(outputDir: string): Promise<Manifest> {
  try {
    const parsed = JSON.parse(await readFile(path.join(outputDir, MANIFEST_FILE), "utf8")) as Manifest;
    return parsed && typeof parsed.flows === "object" && parsed.flows !== null ? parsed : { flows: {} };
  } catch {
    // Missing or unreadable: nothing is reused, everything is regenerated.
    return { flows: {} };
  }
}

export function serializeManifest(flows: ReadonlyMap<string, ManifestFlow>, index: ManifestIndex): string {
  const sorted: Record<string, ManifestFlow> = {};
  for (const name of [...flows.keys()].sort()) {
    const flow = flows.get(name)!;
    sorted[name] = { ...flow, files: Object.fromEntries(Object.entries(flow.files).sort(([a], [b]) => compare(a, b))) };
  }
  return `${JSON.stringify({ generatedBy: "flowsmith", flows: sorted, index }, null, 2)}\n`;
}

export function sha256(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
