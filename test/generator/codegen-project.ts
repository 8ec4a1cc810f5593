/**
 * Test helpers for the codegen pipeline: a throwaway project (the sample
 * flows and a config in a temp folder) and a snapshot of a folder's whole
 * tree, to prove what a run changed and what it left alone.
 */
import { execFile } from "node:child_process";
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { listTree } from "../../generator/output/file-tree";

export const REPO = path.resolve(__dirname, "../..");
export const SAMPLES = ["signing", "document-verification", "aml-screening"] as const;

export interface Project {
  /** The temp folder everything lives in (the project is `dir`, one level down). */
  readonly root: string;
  /** The project folder: flows/ and codegen.config.json. */
  readonly dir: string;
  readonly config: string;
  /** outputDir, absolute. */
  readonly out: string;
}

const made: string[] = [];

/** Removes every project made so far; call from afterAll. */
export async function removeProjects(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export async function makeProject(
  options: { flows?: readonly string[]; outputDir?: string; runtimeImport?: string; named?: boolean } = {},
): Promise<Project> {
  const root = await mkdtemp(path.join(os.tmpdir(), "flowsmith-codegen-"));
  made.push(root);
  const dir = path.join(root, "project");
  await mkdir(dir);
  await cp(path.join(REPO, "flows"), path.join(dir, "flows"), { recursive: true });
  const config = path.join(dir, "codegen.config.json");
  const outputDir = options.outputDir ?? "generated";
  await writeConfig(config, {
    outputDir,
    ...(options.runtimeImport === undefined ? {} : { runtimeImport: options.runtimeImport }),
    flows: (options.flows ?? SAMPLES).map((name) => ({
      ...(options.named === false ? {} : { name }),
      source: { file: `flows/${name}.yaml` },
    })),
  });
  return { root, dir, config, out: path.resolve(dir, outputDir) };
}

export function writeConfig(config: string, content: unknown): Promise<void> {
  return writeFile(config, JSON.stringify(content, null, 2));
}

/** Every entry under `dir`: file contents, link targets (`-> target`) and empty folders (`<empty folder>`). */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  for (const entry of await listTree(dir)) {
    const full = path.join(dir, entry.path);
    if (entry.kind === "file") entries.set(entry.path, await readFile(full, "utf8"));
    else if (entry.kind === "symlink") entries.set(entry.path, `-> ${await readlink(full)}`);
    else entries.set(entry.path, `<${entry.kind}>`);
  }
  return entries;
}

export async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

export interface CliRun {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

const execFileAsync = promisify(execFile);

/** The built CLI (bin/flowsmith.js → dist/), as a user runs it; `npm test` builds dist/ before jest. */
export async function flowsmith(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [path.join(REPO, "bin/flowsmith.js"), ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, ...options.env },
    });
    return { code: 0, signal: null, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | null; signal: string | null; stdout: string; stderr: string };
    return { code: failed.code, signal: failed.signal, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The parts of <outputDir>/.flowsmith-manifest.json that tests edit. */
export interface ManifestJson {
  generator?: { flowsmith: string; runtime: string; fingerprint: string };
  flows: Record<
    string,
    { source: string; inputsHash: string; version: number; description?: string; files: Record<string, string> }
  >;
  descriptions?: Record<string, string>;
}

export async function readManifestJson(out: string): Promise<ManifestJson> {
  return JSON.parse(await readFile(path.join(out, ".flowsmith-manifest.json"), "utf8")) as ManifestJson;
}

export async function writeManifestJson(out: string, manifest: ManifestJson): Promise<void> {
  await writeFile(path.join(out, ".flowsmith-manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Files beside outputDir that belong to flowsmith (lock, staging, previous). */
export async function besideOutput(project: Project): Promise<string[]> {
  return (await readdir(project.dir)).filter((name) => name.startsWith(`${path.basename(project.out)}.flowsmith-`));
}

/** A flow's normalised description as <outputDir>/descriptions.json keeps it: the text of its own file. */
export async function copyIn(out: string, name: string): Promise<string> {
  const copies = JSON.parse(await readFile(path.join(out, "descriptions.json"), "utf8")) as Record<string, unknown>;
  return `${JSON.stringify(defined(copies[name], `descriptions.json's ${name}`), null, 2)}\n`;
}

/** `value`, which the test has just arranged to exist. */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}
