/**
 * `codegen --watch`, as a process (its signals and exit code are the
 * subject), run from a folder below the config's: each edit of a
 * description gives new output and its change report, a broken description
 * keeps the last good output and says why, a config change widens what is
 * watched, and SIGINT ends it with exit 0. Every wait is for a printed line,
 * bounded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { makeProject, removeProjects, REPO, writeConfig, type Project } from "./codegen-project";

const WAIT_MS = 60_000;

let project: Project;
let child: ChildProcessWithoutNullStreams;
let output = "";
let seen = 0;

/** Resolves with the output printed since the last wait once it matches `pattern`; fails after WAIT_MS. */
function printed(pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const fresh = output.slice(seen);
      const match = pattern.exec(fresh);
      if (!match) return false;
      seen += match.index + match[0].length;
      resolve(fresh);
      return true;
    };
    if (check()) return;
    const timer = setTimeout(() => {
      child.stdout.off("data", listener);
      child.stderr.off("data", listener);
      reject(
        new Error(`waited ${WAIT_MS} ms for ${String(pattern)}; printed since the last step:\n${output.slice(seen)}`),
      );
    }, WAIT_MS);
    const listener = () => {
      if (!check()) return;
      clearTimeout(timer);
      child.stdout.off("data", listener);
      child.stderr.off("data", listener);
    };
    child.stdout.on("data", listener);
    child.stderr.on("data", listener);
  });
}

/** As an editor saves: a temporary file renamed over the old one. */
async function save(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

beforeAll(async () => {
  project = await makeProject({ flows: ["aml-screening"] });
  const src = path.join(project.dir, "src");
  await mkdir(src);
  child = spawn(process.execPath, [path.join(REPO, "bin/flowsmith.js"), "codegen", "--watch"], { cwd: src });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
});

afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await removeProjects();
});

const description = () => path.join(project.dir, "flows/aml-screening.yaml");
const generated = () => readFile(path.join(project.out, "aml-screening/index.ts"), "utf8");

it("generates first, found from a folder below the config, then watches the config and the description", async () => {
  const first = await printed(/Watching 2 file\(s\) for changes/);
  expect(first).toMatch(/aml-screening .* generated/);
  expect(await generated()).not.toContain("nationality");
});

it("an edited description gives new output and its change report", async () => {
  const text = await readFile(description(), "utf8");
  await save(
    description(),
    text.replace("        birthPlace:\n", "        nationality:\n          type: string\n        birthPlace:\n"),
  );
  const run = await printed(/Watching 2 file\(s\)/);
  expect(run).toMatch(/flows\/aml-screening\.yaml changed; generating again/);
  expect(run).toMatch(/compatible\s+input\.basicIdentity\.nationality\s+field added/);
  expect(run).toMatch(/Wrote \S*generated\/ \(\d+ file\(s\) changed\)/);
  expect(await generated()).toContain("nationality");
});

it("a broken description keeps the last good output and says why", async () => {
  const good = await generated();
  await save(description(), "openapi: 3.0.3\ninfo: [unclosed\n");
  const run = await printed(/Watching 2 file\(s\)/);
  expect(run).toMatch(/error SYNTAX_ERROR: .*aml-screening\.yaml/);
  expect(run).toMatch(/nothing was written; the output of the last good run stays as it was/);
  expect(await generated()).toBe(good);
  // Nothing half-written or staged is left beside outputDir.
  expect((await readdir(project.dir)).filter((name) => name.includes(".flowsmith-"))).toEqual([]);
});

it("a changed config is read again, and the new flow's description is watched too", async () => {
  const original = await readFile(path.join(REPO, "flows/aml-screening.yaml"), "utf8");
  await save(description(), original);
  await printed(/Watching 2 file\(s\)/);
  await writeConfig(project.config, {
    outputDir: "generated",
    flows: [
      { name: "aml-screening", source: { file: "flows/aml-screening.yaml" } },
      { name: "signing", source: { file: "flows/signing.yaml" } },
    ],
  });
  const run = await printed(/Watching 3 file\(s\)/);
  expect(run).toMatch(/codegen\.config\.json changed/);
  expect(run).toMatch(/signing .* generated/);
});

it("a description's folder removed and made again (a branch checked out) is watched again", async () => {
  const flows = path.join(project.dir, "flows");
  const names = ["aml-screening.yaml", "signing.yaml"];
  const texts = await Promise.all(names.map((name) => readFile(path.join(flows, name), "utf8")));
  await rm(flows, { recursive: true });
  expect(await printed(/nothing was written[\s\S]*?Watching 3 file\(s\)/)).toMatch(/SOURCE_NOT_FOUND/);
  await mkdir(flows);
  const added = (texts[0] ?? "").replace(
    "        birthPlace:\n",
    "        mothersName:\n          type: string\n        birthPlace:\n",
  );
  await Promise.all([writeFile(path.join(flows, "signing.yaml"), texts[1] ?? ""), writeFile(description(), added)]);
  await printed(/input\.basicIdentity\.mothersName\s+field added[\s\S]*?Watching 3 file\(s\)/);
  expect(await generated()).toContain("mothersName");
  // An edit in the folder made again: seen through a watch on it, not on the one removed.
  await save(description(), texts[0] ?? "");
  expect(await printed(/Watching 3 file\(s\)/)).toMatch(/input\.basicIdentity\.mothersName\s+field removed/);
  expect(await generated()).not.toContain("mothersName");
});

it("SIGINT ends it with exit 0", async () => {
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      resolve(code);
    });
  });
  child.kill("SIGINT");
  expect(await exited).toBe(0);
});

it("a folder it may not watch is said on stderr, and the watch goes on (chokidar's error event ended the process)", async () => {
  const locked = await makeProject({ flows: ["signing"] });
  // The folder can be passed through, not listed: codegen reads the description by its path, a watch cannot list the folder.
  await chmod(path.join(locked.dir, "flows"), 0o311);
  for (const dir of [locked.root, locked.dir]) await chmod(dir, 0o777);
  // root may list any folder: the watch then runs as nobody, for whom the mode holds.
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const watching = spawn(process.execPath, [path.join(REPO, "bin/flowsmith.js"), "codegen", "--watch"], {
    cwd: locked.dir,
    ...asNobody,
  });
  let printedHere = "";
  let onStderr = "";
  watching.stderr.on("data", (chunk: Buffer) => (onStderr += chunk.toString("utf8")));
  const until = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`waited ${WAIT_MS} ms for ${String(pattern)}; printed:\n${printedHere}`));
      }, WAIT_MS);
      const listener = (chunk: Buffer) => {
        printedHere += chunk.toString("utf8");
        if (!pattern.test(printedHere)) return;
        clearTimeout(timer);
        resolve();
      };
      watching.stdout.on("data", listener);
      watching.stderr.on("data", listener);
    });
  try {
    await until(/Watching 2 file\(s\)/);
    expect(onStderr).toMatch(/^flowsmith: cannot watch for changes \(EACCES: permission denied, watch '[^']*flows'\)/m);
    expect(watching.exitCode).toBeNull();
    const exited = new Promise<number | null>((resolve) => watching.once("exit", resolve));
    watching.kill("SIGINT");
    expect(await exited).toBe(0);
  } finally {
    if (watching.exitCode === null) watching.kill("SIGKILL");
    await chmod(path.join(locked.dir, "flows"), 0o755);
  }
});
