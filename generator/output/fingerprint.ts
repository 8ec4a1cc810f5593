/**
 * A hash of everything besides the description that shapes generated code:
 * the reader, model and emitter sources, the templates, and the versions of
 * the libraries that emit and format. Part of each flow's inputs hash, so a
 * changed generator never reuses stale output.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { sha256 } from "./manifest.js";
import { listRelativeFiles } from "./output-plan.js";

const OUTPUT_SHAPING_PACKAGES = ["ts-morph", "prettier", "ajv", "ajv-formats"];
/** What turns a description into output; the CLI, config and pipeline code do not change a file's bytes. */
const OUTPUT_SHAPING_FOLDERS = ["generator/read", "generator/model", "generator/emit", "templates"];

let cached: Promise<string> | undefined;

export function generatorFingerprint(): Promise<string> {
  cached ??= computeFingerprint();
  return cached;
}

async function computeFingerprint(): Promise<string> {
  const root = packageRoot();
  const parts: string[] = [];
  for (const folder of OUTPUT_SHAPING_FOLDERS) {
    // The .ts sources, whether running from them (tests) or from dist (CLI), so both agree.
    for (const file of await listRelativeFiles(path.join(root, folder))) {
      if (file.endsWith(".ts")) parts.push(`${folder}/${file}:${sha256(await readFile(path.join(root, folder, file)))}`);
    }
  }
  for (const name of OUTPUT_SHAPING_PACKAGES) {
    const manifest = JSON.parse(await readFile(require.resolve(`${name}/package.json`), "utf8")) as { version: string };
    parts.push(`${name}@${manifest.version}`);
  }
  return sha256(parts.join("\n"));
}

/** The folder holding flowsmith's package.json, from generator/output or dist/generator/output. */
function packageRoot(): string {
  const up = path.resolve(__dirname, "..", "..");
  return path.basename(up) === "dist" ? path.dirname(up) : up;
}
