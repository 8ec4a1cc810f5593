/**
 * <outputDir>/.flowsmith-manifest.json: which files flowsmith wrote (and
 * their sha256), per flow the hash of the inputs that shaped them, and the
 * generator that wrote them. It decides two things: which files a later run
 * may delete (only those listed), and which flows a write may skip (inputs,
 * generator and files unchanged). `--check` never trusts it: it regenerates
 * and compares bytes. Committed with the output; sorted keys, no timestamps.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Environment } from "@flowsmith/runtime";
import { isRecord } from "@flowsmith/runtime/internal/json";
import { compare, isSafeRelativePath } from "./file-tree.js";

export const MANIFEST_FILE = ".flowsmith-manifest.json";

/** What generated the files: versions for people, the fingerprint for reuse. */
export interface GeneratorStamp {
  readonly flowsmith: string;
  readonly runtime: string;
  /** generatorFingerprint(): sources and library versions that shape output. */
  readonly fingerprint: string;
}

export interface ManifestFlow {
  readonly source: string;
  /** sha256 of the flow's own inputs (description bytes, name, runtimeImport); the generator is in `generator`. */
  readonly inputsHash: string;
  readonly id: string;
  readonly version: number;
  readonly environment: Environment;
  /** Output path (relative to outputDir, posix) → sha256 of its content. */
  readonly files: Readonly<Record<string, string>>;
  /**
   * sha256 of the normalised description the files were made from, as
   * descriptions.json holds it (description-copies.ts). Absent in manifests
   * from before that file, which listed `<name>/description.json` in `files`.
   */
  readonly description?: string;
}

export interface ManifestIndex {
  readonly inputsHash: string;
  readonly files: Readonly<Record<string, string>>;
}

export interface Manifest {
  /** Absent in manifests written before flowsmith recorded it: nothing from them is reused. */
  readonly generator?: GeneratorStamp;
  readonly flows: Readonly<Record<string, ManifestFlow>>;
  readonly index?: ManifestIndex;
  /** descriptions.json → its sha256 (description-copies.ts); absent before that file. */
  readonly descriptions?: Readonly<Record<string, string>>;
}

export type ManifestRead =
  | { readonly kind: "absent" }
  | { readonly kind: "read"; readonly manifest: Manifest }
  /** Present but not a manifest flowsmith can trust to say what it owns. */
  | { readonly kind: "unreadable"; readonly reason: string };

export async function readManifest(outputDir: string): Promise<ManifestRead> {
  let text: string;
  try {
    text = await readFile(path.join(outputDir, MANIFEST_FILE), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? { kind: "absent" }
      : { kind: "unreadable", reason: `cannot read it (${code ?? String(error)})` };
  }
  try {
    return { kind: "read", manifest: parseManifestOrThrow(JSON.parse(text)) };
  } catch (error) {
    return { kind: "unreadable", reason: (error as Error).message };
  }
}

/**
 * Checked before it is believed: a later run deletes the files it lists, so
 * every path must stay inside outputDir.
 */
function parseManifestOrThrow(raw: unknown): Manifest {
  if (!isRecord(raw) || !isRecord(raw["flows"])) throw new Error("it has no `flows` object");
  const flows = recordOf<ManifestFlow>([]);
  for (const [name, flow] of Object.entries(raw["flows"])) {
    if (!isRecord(flow)) throw new Error(`flows.${name} is not an object`);
    if (flow["description"] !== undefined && typeof flow["description"] !== "string")
      throw new Error(`flows.${name}.description is not a sha256`);
    // A spread, not Object.assign: an entry read from disk may have a key `__proto__`, which a spread copies as a key
    // and Object.assign would make the copy's prototype.
    flows[name] = { ...(flow as unknown as ManifestFlow), files: filesOrThrow(flow["files"], `flows.${name}.files`) };
  }
  const index = isRecord(raw["index"]) ? indexOrThrow(raw["index"]) : undefined;
  const descriptions =
    raw["descriptions"] === undefined ? undefined : filesOrThrow(raw["descriptions"], "descriptions");
  const generator = isRecord(raw["generator"]) ? (raw["generator"] as unknown as GeneratorStamp) : undefined;
  return {
    flows,
    ...(index ? { index } : {}),
    ...(descriptions ? { descriptions } : {}),
    ...(generator ? { generator } : {}),
  };
}

/** `{ inputsHash, files }`; manifests before 0.2 wrote `{ inputsHash, sha256 }` for index.ts. */
function indexOrThrow(raw: Record<string, unknown>): ManifestIndex {
  const inputsHash = String(raw["inputsHash"]);
  if (typeof raw["sha256"] === "string") return { inputsHash, files: { "index.ts": raw["sha256"] } };
  return { inputsHash, files: filesOrThrow(raw["files"], "index.files") };
}

function filesOrThrow(raw: unknown, where: string): Record<string, string> {
  if (!isRecord(raw)) throw new Error(`${where} is not an object`);
  for (const [file, hash] of Object.entries(raw)) {
    if (!isSafeRelativePath(file) || file === MANIFEST_FILE)
      throw new Error(`${where} lists ${JSON.stringify(file)}, which is not a path inside outputDir`);
    if (typeof hash !== "string") throw new Error(`${where}.${file} is not a sha256`);
  }
  return raw as Record<string, string>;
}

/** Every file the manifest says flowsmith wrote, with its sha256; the manifest itself included (its hash unknown). */
export function filesWrittenBy(manifest: Manifest | undefined): Map<string, string | undefined> {
  const files = new Map<string, string | undefined>();
  if (!manifest) return files;
  files.set(MANIFEST_FILE, undefined);
  for (const flow of Object.values(manifest.flows))
    for (const [file, hash] of Object.entries(flow.files)) files.set(file, hash);
  for (const [file, hash] of Object.entries(manifest.index?.files ?? {})) files.set(file, hash);
  for (const [file, hash] of Object.entries(manifest.descriptions ?? {})) files.set(file, hash);
  return files;
}

export function serializeManifest(manifest: Manifest): string {
  const flows = recordOf(
    Object.entries(manifest.flows)
      .sort(([a], [b]) => compare(a, b))
      // A spread: a kept flow's entry was read from disk (parseManifestOrThrow says why).
      .map(([name, flow]) => [name, { ...flow, files: sortedRecord(flow.files) }] as const),
  );
  const index = manifest.index && { inputsHash: manifest.index.inputsHash, files: sortedRecord(manifest.index.files) };
  const descriptions = manifest.descriptions && sortedRecord(manifest.descriptions);
  return `${JSON.stringify({ generatedBy: "flowsmith", generator: manifest.generator, flows, index, descriptions }, null, 2)}\n`;
}

/**
 * Two manifest texts that differ only in `generator`: the same files, written
 * by another flowsmith. Returns the stamp on disk (`{}` for a manifest from
 * before stamps), or undefined when anything else differs.
 */
export function differsOnlyInGenerator(
  onDisk: string,
  planned: string,
): { readonly generator?: GeneratorStamp } | undefined {
  let disk: unknown;
  let plan: unknown;
  try {
    disk = JSON.parse(onDisk);
    plan = JSON.parse(planned);
  } catch {
    return undefined;
  }
  if (!isRecord(disk) || !isRecord(plan)) return undefined;
  const withoutGenerator = (manifest: Record<string, unknown>) =>
    serializeCanonical({ ...manifest, generator: undefined });
  if (withoutGenerator(disk) !== withoutGenerator(plan)) return undefined;
  return isRecord(disk["generator"]) ? { generator: disk["generator"] as unknown as GeneratorStamp } : {};
}

export function sha256(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

function serializeCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(serializeCanonical).join(",")}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort(compare)
      .map((key) => `${JSON.stringify(key)}:${serializeCanonical(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

function sortedRecord(record: Readonly<Record<string, string>>): Record<string, string> {
  return recordOf(Object.entries(record).sort(([a], [b]) => compare(a, b)));
}

/**
 * A record keyed by flow names or paths, made a dictionary from the start (no
 * prototype). V8 gives an ordinary object a new hidden class for each key it
 * gains and copies the class's descriptors each time, so the manifest's record
 * of every flow, built key by key, left garbage that grew with the square of
 * the flows, at the very end of a run (bench/analysis.md, "Peak memory"). No
 * prototype also means a name like `constructor` finds nothing it was not given.
 */
export function recordOf<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) record[key] = value;
  return record;
}
