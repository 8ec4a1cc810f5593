/**
 * outputDir's lock and hand edits, with real processes where it matters:
 * a real `flowsmith codegen` held still while it holds the lock
 * (FLOWSMITH_TEST_PAUSE_AT, generator/output/crash-points.ts), a second real
 * one started against it, and the held one killed with SIGKILL. No timing:
 * the held run says on stderr when it is there, and stays until told.
 */
import { execFile, spawn } from "node:child_process";
import { appendFile, cp, lstat, mkdir, readdir, readFile, rename, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { listRelativeFiles } from "../../generator/output/file-tree";
import { filesWrittenBy, MANIFEST_FILE, readManifest } from "../../generator/output/manifest";
import { openOutputDirOrThrow, assertUnchangedOrThrow } from "../../generator/output/output-dir";
import { lockPathOf, UNCHECKABLE_LOCK_MS } from "../../generator/output/output-lock";
import { loadConfigOrThrow } from "../../generator/config/load-config";
import { runCodegen } from "../../generator/pipeline";
import {
  besideOutput,
  exists,
  flowsmith,
  makeProject,
  removeProjects,
  REPO,
  snapshot,
  writeConfig,
  type CliRun,
  type Project,
} from "./codegen-project";

afterAll(removeProjects);

/**
 * A real `flowsmith codegen`, held at "planned" (it holds outputDir's lock, has
 * read outputDir and changed nothing in it) or at "staged" (its whole new set
 * is staged beside outputDir, about to be swapped in).
 */
interface HeldRun {
  readonly pid: number;
  /** Lets it go on (a line on its stdin). */
  resume(): void;
  kill(): void;
  readonly ended: Promise<CliRun>;
}

function startHeld(args: readonly string[], cwd: string, point: "planned" | "staged" = "planned"): Promise<HeldRun> {
  const child = spawn(process.execPath, [path.join(REPO, "bin/flowsmith.js"), ...args], {
    cwd,
    env: { ...process.env, FLOWSMITH_TEST_PAUSE_AT: point },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const ended = new Promise<CliRun>((resolve) => {
    child.on("close", (code, signal) => {
      resolve({ code, signal, stdout, stderr });
    });
  });
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`flowsmith-test: paused at ${point}\n`)) {
        resolve({
          pid: child.pid ?? 0,
          resume: () => {
            child.stdin.end("go\n");
          },
          kill: () => {
            child.kill("SIGKILL");
          },
          ended,
        });
      }
    });
    void ended.then((run) => {
      reject(new Error(`the run ended before it held the lock: ${run.stderr}`));
    });
  });
}

/** What outputDir holds is exactly what its manifest lists (the manifest included). */
async function expectManifestListsDisk(out: string): Promise<void> {
  const read = await readManifest(out);
  if (read.kind !== "read") throw new Error(`no manifest in ${out}`);
  expect([...filesWrittenBy(read.manifest).keys()].sort()).toEqual(await listRelativeFiles(out));
}

/** A message with the project's folder left out, as a run in it displays paths. */
function inProject(error: unknown, project: Project): string {
  return (error as Error).message.split(`${project.dir}${path.sep}`).join("");
}

/** A second config in the same project writing the same outputDir with another flow. */
async function secondConfig(project: Project, flow: string): Promise<string> {
  const config = path.join(project.dir, "other.config.json");
  await writeConfig(config, {
    outputDir: path.basename(project.out),
    flows: [{ name: flow, source: { file: `flows/${flow}.yaml` } }],
  });
  return config;
}

/**
 * Three CLI processes and a generation each: a few seconds, but on a
 * machine shared with other builds jest's 30 s per test has come close.
 */
const REAL_PROCESSES_MS = 90_000;

describe("two codegen runs on one outputDir", () => {
  it(
    "the second is refused with OUTPUT_BUSY and changes nothing; the first writes its set, and the manifest lists exactly what is on disk",
    async () => {
      const project = await makeProject({ flows: ["signing"] });
      const other = await secondConfig(project, "aml-screening");
      await runCodegen({ configPath: other });
      const before = await snapshot(project.out);

      const first = await startHeld(["codegen"], project.dir);
      const second = await flowsmith(["codegen", "--config", "other.config.json", "--force"], { cwd: project.dir });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `flowsmith: error OUTPUT_BUSY: generated: generated/ is being written by another flowsmith run: process ${first.pid} (config codegen.config.json), since `,
      );
      expect(second.stderr).toContain("This run changed nothing; run it again once that one has finished.");
      expect(second.stderr).toContain("delete generated.flowsmith-lock");
      expect(second.stdout).toBe("");
      // --check reads without the lock, but not a folder that is being written.
      await expect(runCodegen({ configPath: project.config, check: true })).rejects.toMatchObject({
        code: "OUTPUT_BUSY",
      });
      expect(await snapshot(project.out)).toEqual(before);

      first.resume();
      const done = await first.ended;
      expect(done).toMatchObject({ code: 0 });
      expect(done.stdout).toMatch(/Wrote generated\//);
      expect([...(await snapshot(project.out)).keys()]).toEqual([
        MANIFEST_FILE,
        "descriptions.json",
        "index.ts",
        "signing/index.ts",
      ]);
      await expectManifestListsDisk(project.out);
      expect((await runCodegen({ configPath: project.config, check: true })).changes).toEqual([]);
      expect(await besideOutput(project)).toEqual([]);
    },
    REAL_PROCESSES_MS,
  );

  it(
    "a run killed while it holds the lock does not block the next one, which takes the lock over at once and says so",
    async () => {
      const project = await makeProject({ flows: ["signing"] });
      await runCodegen({ configPath: project.config });
      const other = await secondConfig(project, "aml-screening");

      // Nothing to regenerate (so no emitter to load): it still takes the lock and reaches its write.
      const killed = await startHeld(["codegen"], project.dir);
      killed.kill();
      expect(await killed.ended).toMatchObject({ signal: "SIGKILL" });
      expect(await besideOutput(project)).toEqual(["generated.flowsmith-lock"]);

      const next = await flowsmith(["codegen", "--config", "other.config.json"], { cwd: project.dir });
      expect(next.code).toBe(0);
      expect(next.stderr).toContain(
        `flowsmith: took over the lock of generated/ from process ${killed.pid} (config codegen.config.json, since `,
      );
      expect(next.stderr).toContain("which is no longer running");
      expect([...(await snapshot(project.out)).keys()]).toEqual([
        MANIFEST_FILE,
        "aml-screening/index.ts",
        "descriptions.json",
        "index.ts",
      ]);
      await expectManifestListsDisk(project.out);
      expect((await runCodegen({ configPath: other, check: true })).changes).toEqual([]);
      expect(await besideOutput(project)).toEqual([]);
    },
    REAL_PROCESSES_MS,
  );
});

describe("locks left behind", () => {
  const lockOf = (holder: object | string) => (typeof holder === "string" ? holder : `${JSON.stringify(holder)}\n`);
  const record = {
    pid: 4242,
    host: "build-agent-7",
    since: "2026-01-02T03:04:05.000Z",
    config: "ci.config.json",
    id: "x",
  };

  it.each<[string, object | string, RegExp]>([
    [
      "another host's",
      record,
      /^generated: generated\/ is being written by another flowsmith run: process 4242 on build-agent-7 \(config ci\.config\.json\), since 2026-01-02T03:04:05\.000Z\. .*flowsmith cannot ask build-agent-7 whether that run goes on: the lock counts as abandoned at \S+; delete generated\.flowsmith-lock sooner if no flowsmith is running$/,
    ],
    [
      "one whose record cannot be read",
      "{half",
      /a run whose lock generated\.flowsmith-lock holds no record flowsmith can read, since \S+\. .*flowsmith cannot tell whether that run goes on: the lock counts as abandoned at/,
    ],
  ])("%s stops a write while it is young, and is taken over once it is old", async (_name, holder, says) => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    const before = await snapshot(project.out);
    const lock = lockPathOf(project.out);
    await writeFile(lock, lockOf(holder));

    const error = await runCodegen({ configPath: project.config, force: true }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "OUTPUT_BUSY" });
    expect(inProject(error, project)).toMatch(says);
    expect(await snapshot(project.out)).toEqual(before);
    expect(await readFile(lock, "utf8")).toBe(lockOf(holder));

    const old = new Date(Date.now() - UNCHECKABLE_LOCK_MS - 60_000);
    await utimes(lock, old, old);
    const result = await runCodegen({ configPath: project.config, force: true });
    expect(result.recovered).toEqual([
      expect.stringMatching(/^took over the lock of .*generated\/ from .*abandoned: it was last changed at /),
    ]);
    expect(await exists(lock)).toBe(false);
  });

  it("a lock, a takeover's breaker and a half-made lock left by processes that are gone are all cleared; the run goes on", async () => {
    const project = await makeProject({ flows: ["signing"] });
    const gone = await promisify(execFile)(process.execPath, ["-p", "process.pid"]).then(({ stdout }) =>
      Number(stdout),
    );
    const dead = lockOf({ ...record, pid: gone, host: os.hostname(), id: "11111111-1111-4111-8111-111111111111" });
    const lock = lockPathOf(project.out);
    await writeFile(lock, dead);
    await writeFile(`${lock}.break`, dead);
    await writeFile(`${lock}.${gone}.11111111-1111-4111-8111-111111111111`, dead);
    const result = await runCodegen({ configPath: project.config });
    expect(result.recovered).toEqual([
      `took over the lock of ${project.out}/ from process ${gone} (config ci.config.json, since 2026-01-02T03:04:05.000Z), which is no longer running`,
    ]);
    expect(await besideOutput(project)).toEqual([]);
  });

  it("a lock with this process's id that this process did not take is a dead process's (the id came round again)", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await writeFile(
      lockPathOf(project.out),
      lockOf({ ...record, pid: process.pid, host: os.hostname(), id: "an-earlier-process" }),
    );
    const result = await runCodegen({ configPath: project.config });
    expect(result.recovered).toEqual([
      expect.stringMatching(
        new RegExp(`^took over the lock of .*generated/ from process ${process.pid} .*which is no longer running$`),
      ),
    ]);
    expect(await exists(lockPathOf(project.out))).toBe(false);
  });
});

describe("the lock's folder", () => {
  it("a failed first run into folders not there yet leaves neither them nor a lock behind; a run that writes keeps them", async () => {
    const project = await makeProject({ flows: ["signing"], outputDir: "src/client/generated" });
    const config = JSON.parse(await readFile(project.config, "utf8")) as { flows: { source: { file: string } }[] };
    const good = structuredClone(config);
    config.flows.push({ source: { file: "flows/missing.yaml" } });
    await writeConfig(project.config, config);
    await expect(runCodegen({ configPath: project.config })).rejects.toMatchObject({ code: "SOURCE_NOT_FOUND" });
    expect(await exists(path.join(project.dir, "src"))).toBe(false);

    await writeConfig(project.config, good);
    await runCodegen({ configPath: project.config });
    expect(await readdir(path.join(project.dir, "src/client"))).toEqual(["generated"]);
  });
});

describe("odd things where the lock goes", () => {
  it.each<[string, (lock: string, project: Project) => Promise<unknown>, string]>([
    [
      "a dangling symbolic link",
      (lock) => symlink("nowhere", lock),
      "a symbolic link to nowhere, which does not exist",
    ],
    ["a symbolic link to a folder", (lock, project) => symlink(project.dir, lock), "a symbolic link to "],
    ["a folder", (lock) => mkdir(lock), "a folder"],
  ])("%s: a write and --check stop with OUTPUT_CONFLICT naming it, and change nothing", async (_name, make, says) => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    const before = await snapshot(project.out);
    const lock = lockPathOf(project.out);
    await make(lock, project);

    for (const options of [{ force: true }, { check: true }]) {
      const error = await runCodegen({ configPath: project.config, ...options }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: "CodegenError", code: "OUTPUT_CONFLICT" });
      expect(inProject(error, project)).toContain(
        `generated.flowsmith-lock, where a write keeps the lock of ${path.basename(project.out)}/, is ${says}`,
      );
      expect((error as Error).message).toContain("nothing was changed. Remove ");
    }
    expect(await snapshot(project.out)).toEqual(before);
    expect((await lstat(lock)).isSymbolicLink() || (await lstat(lock)).isDirectory()).toBe(true);
  });
});

describe("--check without the lock", () => {
  it("fails when a write replaced outputDir while it was being read", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    const config = await loadConfigOrThrow(project.config);
    const opened = await openOutputDirOrThrow(config, "check");
    await expect(assertUnchangedOrThrow(opened)).resolves.toBeUndefined();
    // What a write does: the new set, staged beside, renamed into place.
    const staged = `${project.out}.elsewhere`;
    await cp(project.out, staged, { recursive: true });
    await rename(project.out, `${project.out}.old`);
    await rename(staged, project.out);
    await expect(assertUnchangedOrThrow(opened)).rejects.toMatchObject({
      code: "OUTPUT_BUSY",
      message: expect.stringContaining("a write replaced") as unknown,
    });
  });
});

describe("edits made while a write runs", () => {
  it.each<[string, string, (out: string) => Promise<void>]>([
    [
      "an edit to a file it replaces",
      "signing/index.ts",
      (out) => appendFile(path.join(out, "signing/index.ts"), "// mine\n"),
    ],
    [
      "an edit to a file it keeps",
      "signing/validate.ts",
      (out) => appendFile(path.join(out, "signing/validate.ts"), "// mine\n"),
    ],
    ["a file added", "NOTES.md", (out) => writeFile(path.join(out, "NOTES.md"), "# mine\n")],
  ])(
    "%s after the run read outputDir stops it with OUTPUT_EDITED: nothing is written, the change stays",
    async (_name, file, edit) => {
      const project = await makeProject({ flows: ["signing"] });
      await runCodegen({ configPath: project.config });
      // A new summary: the run regenerates signing/index.ts, and validate.ts comes out the same.
      const description = path.join(project.dir, "flows/signing.yaml");
      await writeFile(
        description,
        (await readFile(description, "utf8")).replace("summary: Create a session", "summary: Start a session"),
      );

      const held = await startHeld(["codegen"], project.dir, "staged");
      await edit(project.out);
      const edited = await snapshot(project.out);
      held.resume();
      const done = await held.ended;
      expect(done.code).toBe(1);
      expect(done.stderr).toContain(
        `flowsmith: error OUTPUT_EDITED: generated: generated/${file} was changed or added while this run was writing generated/ (after it read generated/), so the output it planned would have lost the change; nothing was written.`,
      );
      expect(await snapshot(project.out)).toEqual(edited);
      expect(await besideOutput(project)).toEqual([]);
    },
    REAL_PROCESSES_MS,
  );
});

describe("hand edits", () => {
  it("a write refuses to replace generated files edited by hand, naming each, and writes nothing; --force replaces them", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    // As a new user would: an edit to the generated index and to a flow's client.
    await appendFile(path.join(project.out, "index.ts"), "export const mine = 1;\n");
    await appendFile(path.join(project.out, "signing/index.ts"), "// my note\n");
    const edited = await snapshot(project.out);

    for (const options of [{}, { flows: ["signing"] }]) {
      const error = await runCodegen({ configPath: project.config, ...options }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: "CodegenError", code: "OUTPUT_EDITED" });
      expect(inProject(error, project)).toContain(
        "generated/index.ts, generated/signing/index.ts were edited since flowsmith wrote them (the bytes differ from the sha256 in generated/.flowsmith-manifest.json), and this run would replace them; nothing was written.",
      );
      expect((error as Error).message).toContain("`npx flowsmith codegen --force`");
      expect(await snapshot(project.out)).toEqual(edited);
    }
    expect(await besideOutput(project)).toEqual([]);

    const check = await runCodegen({ configPath: project.config, check: true });
    expect(check.editedByHand).toEqual(["index.ts", "signing/index.ts"]);

    const forced = await runCodegen({ configPath: project.config, force: true });
    expect(forced.changes).toEqual([
      { path: "index.ts", reason: "changed" },
      { path: "signing/index.ts", reason: "changed" },
    ]);
    expect((await runCodegen({ configPath: project.config, check: true })).changes).toEqual([]);
  });

  it("a file as flowsmith wrote it (or with CRLF line endings) is replaced when its description changes: not an edit", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    const client = path.join(project.out, "signing/index.ts");
    await writeFile(client, (await readFile(client, "utf8")).replace(/\n/g, "\r\n"));
    const description = path.join(project.dir, "flows/signing.yaml");
    await writeFile(
      description,
      (await readFile(description, "utf8")).replace("summary: Create a session", "summary: Start a session"),
    );
    const result = await runCodegen({ configPath: project.config });
    expect(result.changes.map((change) => change.path)).toContain("signing/index.ts");
    expect(await readFile(client, "utf8")).toContain("Start a session");
  });

  it("the CLI exits 1 naming the file and --force; --force is in --help", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    await appendFile(path.join(project.out, "index.ts"), "// mine\n");
    const refused = await flowsmith(["codegen"], { cwd: project.dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^flowsmith: error OUTPUT_EDITED: generated: generated\/index\.ts was edited since flowsmith wrote it .*--force`\n$/,
    );
    expect(await readFile(path.join(project.out, "index.ts"), "utf8")).toMatch(/\/\/ mine\n$/);
    const help = await flowsmith(["codegen", "--help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(
      /--force +regenerate every flow, also those the manifest shows unchanged, and replace generated files edited by hand/,
    );
  });
});
