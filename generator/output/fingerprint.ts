/**
 * Who generated the output, stamped in the manifest: flowsmith's and
 * @flowsmith/runtime's versions, and a hash of everything besides the
 * descriptions that shapes generated code (the reader, model and emitter
 * sources and templates when present, the service's constants the model
 * reads from the runtime, the versions of the libraries that emit and
 * format). A write reuses a flow's files only under the same stamp;
 * --check never relies on it (it regenerates and compares bytes).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as serviceLimits from "@flowsmith/runtime/service-limits";
import { flowsmithVersion, packageRoot, packageVersion, runtimeVersion } from "../versions.js";
import { listRelativeFiles } from "./file-tree.js";
import { sha256, type GeneratorStamp } from "./manifest.js";

const OUTPUT_SHAPING_PACKAGES = ["ts-morph", "prettier", "ajv", "ajv-formats"];
/** What turns a description into output; the CLI, config and pipeline code do not change a file's bytes. */
const OUTPUT_SHAPING_FOLDERS = ["generator/read", "generator/model", "generator/emit", "templates"];
/**
 * Single files that shape output: the normalised descriptions (each flow's entry in descriptions.json, whose sha256
 * its manifest entry records). descriptions.json itself is made whole by every write, kept flows' entries included.
 */
const OUTPUT_SHAPING_FILES = ["generator/output/description-json.ts"];

let cached: Promise<GeneratorStamp> | undefined;

export function generatorStamp(): Promise<GeneratorStamp> {
  cached ??= computeStamp();
  return cached;
}

async function computeStamp(): Promise<GeneratorStamp> {
  const flowsmith = flowsmithVersion();
  const runtimeAt = runtimeVersion();
  const parts = [
    `flowsmith@${flowsmith}`,
    `@flowsmith/runtime@${runtimeAt}`,
    `service constants ${serviceConstants()}`,
  ];
  const root = packageRoot();
  for (const folder of OUTPUT_SHAPING_FOLDERS) {
    // The .ts sources, whether running from them (tests) or from dist (CLI), so both agree; an
    // installed package ships none of generator/'s, and its version stands for them.
    for (const file of await listRelativeFiles(path.join(root, folder))) {
      if (file.endsWith(".ts"))
        parts.push(`${folder}/${file}:${sha256(await readFile(path.join(root, folder, file)))}`);
    }
  }
  for (const file of OUTPUT_SHAPING_FILES) {
    const content = await readFile(path.join(root, file)).catch(() => undefined);
    if (content) parts.push(`${file}:${sha256(content)}`);
  }
  for (const name of OUTPUT_SHAPING_PACKAGES) parts.push(`${name}@${packageVersion(name)}`);
  return { flowsmith, runtime: runtimeAt, fingerprint: sha256(parts.join("\n")) };
}

/**
 * The service's constants the model reads (limits, locales, keys), from the runtime's
 * service-limits entry, which loads nothing else: a changed limit changes generated validators.
 */
function serviceConstants(): string {
  const data = Object.entries(serviceLimits)
    .filter(([, value]) => typeof value !== "function")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256(JSON.stringify(data));
}
