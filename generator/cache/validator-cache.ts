/**
 * The validator cache: the validators emit/validator.ts made from ajv's
 * code, kept on disk by the key of what ajv compiled, so that a later run (a
 * fresh outputDir, another checkout, CI with node_modules/.cache restored)
 * reuses them instead of compiling again: ajv's compile and the rewrite of
 * its code were the largest part of a cold run (bench/analysis.md, rows 1
 * and 1b).
 *
 * An entry's file is named by sha256 of the generator's fingerprint
 * (output/fingerprint.ts: flowsmith's version and generator sources, ajv's
 * version...) and the input's key (emit/validator-input.ts), so another
 * flowsmith or another ajv never reads it. An entry is read whole and checked
 * for its shape; a missing, truncated or reshaped one is a miss, compiled
 * again and written over. Entries are written after the output, each to a
 * temporary file renamed into place; a cache that cannot be written is
 * reported and changes nothing else. `--check` does not use it: it
 * regenerates from the descriptions alone.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { RewiredValidator } from "../emit/validator-code.js";
import type { ValidatorCache } from "../emit/validator.js";
import { sha256 } from "../output/manifest.js";

/** Bumped when an entry's shape changes. */
const FORMAT = 1;
const RUNTIME_BINDINGS: readonly string[] = ["validatorFormats", "validatorRuntime"];

export interface ValidatorCacheReport {
  /** The cache folder, relative to the working directory when inside it. */
  readonly display: string;
  /** Validators read from the cache. */
  readonly reused: number;
  /** Validators the cache did not have, written to it (unless `problem`). */
  readonly added: number;
  /** Why the new entries could not be written. */
  readonly problem?: string;
}

export class ValidatorCacheDir implements ValidatorCache {
  private readonly pending = new Map<string, string>();
  /** Entries read this run, by name: each file is read once. */
  private readonly read = new Map<string, RewiredValidator>();

  /** `dir`: the cache's folder; `fingerprint`: the generator's (output/fingerprint.ts). */
  constructor(
    private readonly dir: string,
    private readonly fingerprint: string,
  ) {}

  get(key: string): RewiredValidator | undefined {
    const name = this.entryName(key);
    const known = this.read.get(name);
    if (known || this.pending.has(name)) return known;
    let text;
    try {
      text = readFileSync(path.join(this.dir, `${name}.json`), "utf8");
    } catch {
      return undefined;
    }
    const validator = entryOrUndefined(text, name);
    if (validator) this.read.set(name, validator);
    return validator;
  }

  set(key: string, validator: RewiredValidator): void {
    const name = this.entryName(key);
    this.pending.set(name, `${JSON.stringify({ format: FORMAT, entry: name, ...validator })}\n`);
  }

  /** Writes the entries made this run; never throws (a cache that cannot be written is a note, not a failure). */
  async flush(): Promise<ValidatorCacheReport> {
    const report = { display: displayPath(this.dir), reused: this.read.size, added: this.pending.size };
    if (this.pending.size === 0) return report;
    try {
      await mkdir(this.dir, { recursive: true });
      for (const [name, text] of this.pending) await writeEntry(path.join(this.dir, `${name}.json`), text);
      this.pending.clear();
      return report;
    } catch (error) {
      return { ...report, problem: (error as Error).message };
    }
  }

  private entryName(key: string): string {
    return sha256(`${this.fingerprint}\n${key}`);
  }
}

/** `node_modules/.cache/flowsmith` of the nearest node_modules above the config, as tools keep their caches; none without one. */
export function defaultCacheDir(configPath: string): string | undefined {
  for (let dir = path.dirname(path.resolve(configPath)); ; dir = path.dirname(dir)) {
    const modules = path.join(dir, "node_modules");
    if (isDirectory(modules)) return path.join(modules, ".cache", "flowsmith", "validators");
    if (path.dirname(dir) === dir) return undefined;
  }
}

function isDirectory(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The entry's validator when the text is one, whole and of this format; else undefined. */
function entryOrUndefined(text: string, name: string): RewiredValidator | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  const { code, name: validatorName, imports } = entry;
  if (entry["format"] !== FORMAT || entry["entry"] !== name) return undefined;
  if (typeof code !== "string" || code === "" || typeof validatorName !== "string" || !/^validate\d+$/.test(validatorName)) return undefined;
  if (!Array.isArray(imports) || !imports.every((binding) => RUNTIME_BINDINGS.includes(binding as string))) return undefined;
  return { code, name: validatorName, imports: imports as RewiredValidator["imports"] };
}

/** Whole or not at all: a reader never sees a half-written entry. */
async function writeEntry(file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function displayPath(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative.startsWith("..") || path.isAbsolute(relative) ? dir : relative.split(path.sep).join("/");
}
