/**
 * `flowsmith init` as a new user runs it, the built CLI as a process: on a
 * terminal (a pseudo-terminal made by util-linux's `script`, answered at
 * each prompt), with flags without one, and from the service (the emulator).
 * Each run: the config with $schema, the first codegen, and a first call
 * that compiles under strict against what was generated. It never
 * overwrites a config. Every wait is for printed text, bounded.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { makeTempDir, removeDir, typeCheck } from "../fixtures/golden/compile";
import { FIND_LIMITS } from "../../generator/init/find-descriptions";
import { REPO } from "./codegen-project";
import { SAMPLE_IDS, startService, type Service } from "./api-source/service";

const CLI = path.join(REPO, "bin/flowsmith.js");
const WAIT_MS = 60_000;
// Each test runs the CLI (a codegen) and tsc over its first call: on a loaded 2-core machine that passes jest's 30 s.
jest.setTimeout(2 * WAIT_MS);
const hasScript = spawnSync("script", ["--version"]).status === 0;
/** This process's environment without FLOWSMITH_* variables: the service is given only where a test gives it. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("FLOWSMITH_")));

let root: string;
let service: Service;

beforeAll(async () => {
  // Inside the repository, so the first call's `@flowsmith/runtime` resolves as tsconfig.json maps it.
  root = makeTempDir();
  // Signing promoted to live: the same flow id in both environments.
  const signing = await readFile(path.join(REPO, "flows/signing.yaml"), "utf8");
  await writeFile(
    path.join(root, "signing-live.yaml"),
    signing.replace("x-environment: staging", "x-environment: live").replace("/staging/sessions:", "/live/sessions:"),
  );
  service = await startService([
    "flows/signing.yaml",
    "flows/aml-screening.yaml",
    path.relative(REPO, path.join(root, "signing-live.yaml")),
  ]);
});
afterAll(async () => {
  await service.close();
  removeDir(root);
});

/** A folder with the sample descriptions (and a decoy in node_modules, .git and generated output). */
async function project(): Promise<string> {
  const dir = await mkdtemp(path.join(root, "project-"));
  await mkdir(path.join(dir, "flows"));
  await cp(path.join(REPO, "flows/aml-screening.yaml"), path.join(dir, "flows/aml-screening.yaml"));
  for (const decoy of ["node_modules/some-package", ".git", "old-output"]) {
    await mkdir(path.join(dir, decoy), { recursive: true });
    await cp(path.join(REPO, "flows/signing.yaml"), path.join(dir, decoy, "signing.yaml"));
  }
  await writeFile(path.join(dir, "old-output/.flowsmith-manifest.json"), "{}");
  return dir;
}

function runCli(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  as: { uid?: number; gid?: number } = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...ENV, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      ...as,
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), WAIT_MS);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The snippet init printed, saved as the user is told to, type-checked with what init generated. */
async function firstCallErrors(dir: string, out: string): Promise<string[]> {
  const snippet = /\n\n(import \{ createClient[\s\S]*?await client\.close\(\);)\n/.exec(out.replace(/\r/g, ""))?.[1];
  expect(snippet).toBeDefined();
  const file = path.join(dir, "first-call.mts");
  await writeFile(file, snippet ?? "");
  return typeCheck([file]);
}

const config = async (dir: string) =>
  JSON.parse(await readFile(path.join(dir, "codegen.config.json"), "utf8")) as Record<string, unknown>;

describe("flowsmith init with flags", () => {
  it("--yes: the descriptions found (none in node_modules, .git or generated output), the config, codegen, a first call that compiles", async () => {
    const dir = await project();
    await mkdir(path.join(dir, "src"));
    const run = await runCli(["init", "--yes"], dir);
    expect(run.code).toBe(0);
    expect(await config(dir)).toEqual({
      $schema: "./node_modules/flowsmith/codegen.config.schema.json",
      outputDir: "src/generated",
      flows: [{ name: "aml-screening", source: { file: "flows/aml-screening.yaml" } }],
    });
    expect(run.out).toMatch(/aml-screening .* generated in \d+ ms/);
    expect(await readdir(path.join(dir, "src/generated"))).toEqual(
      expect.arrayContaining(["aml-screening", "index.ts"]),
    );
    // The README's style (init-first-call.test.ts), through the output's index.ts, and short.
    const snippet = run.out.slice(run.out.indexOf("import { createClient"));
    expect(snippet).toContain('import { amlScreening } from "./src/generated/index.js";\n');
    expect(snippet.trim().split("\n").length).toBeLessThanOrEqual(20);
    expect(await firstCallErrors(dir, run.out)).toEqual([]);

    const again = await runCli(["init", "--yes"], dir);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/codegen\.config\.json already exists here; init never overwrites a config/);
  });

  it.each<[string, string[], number, RegExp]>([
    ["no terminal and no --yes", ["init"], 2, /no terminal to ask on: pass --yes/],
    ["an unknown --flow", ["init", "--flow", "nope"], 2, /UNKNOWN_FLOW: --flow nope: no such flow \(found: a41f0c6d/],
    [
      "an outputDir holding files",
      ["init", "--yes", "--output-dir", "flows"],
      1,
      /UNSAFE_OUTPUT_DIR|OUTPUT_DIR_NOT_EMPTY/,
    ],
    // A second copy of the flow elsewhere in the folder: the config codegen would refuse is not written.
    [
      "two copies of one flow",
      ["init", "--yes"],
      1,
      /error DUPLICATE_FLOW: flows\/aml-screening\.yaml \(version 7\) and old-download\/aml-screening\.yaml \(version 7\) are both flow .*choose one with --flow <path>/,
    ],
    // No config exists yet: the message names the flag, not a key of a file.
    [
      "the project folder as outputDir",
      ["init", "--yes", "--output-dir", "."],
      1,
      /error UNSAFE_OUTPUT_DIR: outputDir \S+ is the folder of the config .*; choose another with --output-dir$/m,
    ],
  ])("refuses %s, writing nothing", async (name, args, code, says) => {
    const dir = await project();
    if (name === "two copies of one flow")
      await cp(path.join(dir, "flows"), path.join(dir, "old-download"), { recursive: true });
    const run = await runCli(args, dir);
    expect(run.code).toBe(code);
    expect(run.out).toMatch(says);
    expect(await readdir(dir)).not.toContain("codegen.config.json");
  });

  it("a codegen.config.json that is a dangling symbolic link is a config already here: refused, nothing written through it", async () => {
    const dir = await project();
    await symlink(path.join(dir, "elsewhere.json"), path.join(dir, "codegen.config.json"));
    const run = await runCli(["init", "--yes"], dir);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/codegen\.config\.json already exists here; init never overwrites a config/);
    expect(await readdir(dir)).not.toContain("elsewhere.json");
  });

  it("a file it cannot read is said and passed over; the rest is used", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-init-unreadable-"));
    try {
      await mkdir(path.join(dir, "flows"));
      await cp(path.join(REPO, "flows/aml-screening.yaml"), path.join(dir, "flows/aml-screening.yaml"));
      await cp(path.join(REPO, "flows/signing.yaml"), path.join(dir, "locked.yaml"));
      await chmod(path.join(dir, "locked.yaml"), 0o000);
      await chmod(dir, 0o777);
      // root reads any file: the CLI then runs as nobody, for whom the mode holds.
      const root = process.getuid?.() === 0;
      const run = await runCli(["init", "--yes"], dir, {}, root ? { uid: 65534, gid: 65534 } : {});
      expect(run.out).toMatch(/note: locked\.yaml .*cannot be read \(EACCES\)/);
      expect(run.out).not.toMatch(/unexpected error/);
      expect(run.code).toBe(0);
      expect(await config(dir)).toMatchObject({ flows: [{ name: "aml-screening" }] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("past the walk's bound it says it stopped, and still uses the descriptions it reached", async () => {
    const dir = await project();
    await mkdir(path.join(dir, "src/many"), { recursive: true });
    for (let index = 0; index < FIND_LIMITS.maxFiles + 10; index += 1)
      await writeFile(path.join(dir, "src/many", `${String(index)}.ts`), "");
    const run = await runCli(["init", "--yes"], dir);
    expect(run.out).toMatch(new RegExp(`note: stopped looking after ${String(FIND_LIMITS.maxFiles)} files`));
    expect(run.code).toBe(0);
    expect(await config(dir)).toMatchObject({
      flows: [{ name: "aml-screening", source: { file: "flows/aml-screening.yaml" } }],
    });
    // Twenty thousand files made and walked on a shared machine.
  }, 90_000);

  it("says where to get a description when the folder has none", async () => {
    const dir = await mkdtemp(path.join(root, "empty-"));
    const run = await runCli(["init", "--yes"], dir);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/no flow description found under .* download one from the dashboard .* or pass --from-api/);
  });

  it("--from-api: the service's flows, kept as snapshots; one in both environments is two entries named after them", async () => {
    const dir = await mkdtemp(path.join(root, "api-"));
    const signing = SAMPLE_IDS.signing.flowId;
    const run = await runCli(["init", "--from-api", "--flow", signing, "--output-dir", "clients"], dir, service.env);
    expect(run.code).toBe(0);
    const written = await config(dir);
    expect(written).toMatchObject({ outputDir: "clients", service: { baseUrl: service.env.FLOWSMITH_BASE_URL } });
    expect(written.flows).toEqual([
      { name: "signing-staging", source: { api: { flowId: signing, environment: "staging" } } },
      { name: "signing-live", source: { api: { flowId: signing, environment: "live" } } },
    ]);
    for (const environment of ["staging", "live"]) {
      expect(JSON.parse(await readFile(path.join(dir, `flows/signing-${environment}.json`), "utf8"))).toMatchObject({
        info: { "x-flow-id": signing, "x-environment": environment },
      });
      expect(run.out).toMatch(new RegExp(`signing-${environment} .* ${environment} .* generated`));
    }
    // Signing takes a file: the printed call reads it from disk, and says so.
    expect(run.out).toMatch(/runs it;\nit reads document\.pdf: put such a file beside it;\n/);
    expect(await firstCallErrors(dir, run.out)).toEqual([]);
  });

  it("--from-api --yes: two flows with one title under two ids (staging and live) are named after their environments", async () => {
    const aml = await readFile(path.join(REPO, "flows/aml-screening.yaml"), "utf8");
    const liveId = "a41f0c6d-0000-47c9-8d13-b9e60f27c8a5";
    const file = path.join(root, "aml-live.yaml");
    await writeFile(
      file,
      aml
        .replaceAll(SAMPLE_IDS["aml-screening"].flowId, liveId)
        .replace("x-environment: staging", "x-environment: live")
        .replace("/staging/sessions:", "/live/sessions:"),
    );
    const both = await startService(["flows/aml-screening.yaml", path.relative(REPO, file)]);
    try {
      const dir = await mkdtemp(path.join(root, "api-two-ids-"));
      const run = await runCli(["init", "--from-api", "--yes"], dir, both.env);
      expect(run.out).not.toMatch(/DUPLICATE_FLOW_NAME/);
      expect(run.code).toBe(0);
      expect((await config(dir)).flows).toEqual([
        {
          name: "aml-screening-staging",
          source: { api: { flowId: SAMPLE_IDS["aml-screening"].flowId, environment: "staging" } },
        },
        { name: "aml-screening-live", source: { api: { flowId: liveId, environment: "live" } } },
      ]);
    } finally {
      await both.close();
    }
  });
});

(hasScript ? describe : describe.skip)("flowsmith init on a terminal (a pseudo-terminal through `script`)", () => {
  /** Runs init under `script`, answering each prompt once its text is printed. */
  function onTerminal(
    dir: string,
    answers: readonly (readonly [RegExp, string])[],
    args: readonly string[] = [],
  ): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve, reject) => {
      const command = `stty cols 120 rows 40; exec ${[process.execPath, CLI, "init", ...args].map((word) => JSON.stringify(word)).join(" ")}`;
      const child = spawn("script", ["-qfec", command, "/dev/null"], {
        cwd: dir,
        env: { ...ENV, TERM: "xterm-256color" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      let next = 0;
      let seen = 0;
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(
          new Error(
            `init on a terminal: no ${String(answers[next]?.[0] ?? "exit")} within ${WAIT_MS} ms; printed:\n${out}`,
          ),
        );
      }, WAIT_MS);
      const onData = (chunk: string) => {
        out += chunk;
        // eslint-disable-next-line no-control-regex -- the terminal's escape sequences are dropped to read the text
        const text = out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
        const answer = answers[next];
        if (!answer) return;
        const match = answer[0].exec(text.slice(seen));
        if (!match) return;
        seen += match.index + match[0].length;
        next += 1;
        child.stdin.write(answer[1]);
      };
      child.stdout.setEncoding("utf8").on("data", onData);
      child.stderr.setEncoding("utf8").on("data", onData);
      child.once("error", reject);
      child.once("close", (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
  }

  it("asks which flows and where the clients go, then writes, generates and prints a first call", async () => {
    const dir = await project();
    const run = await onTerminal(dir, [
      [/Which flows\?[\s\S]*flows\/aml-screening\.yaml {2}AML screening \(staging, v7\)[\s\S]*Enter/, "\r"],
      [/Where do the generated clients go\?[\s\S]*generated/, "src/clients\r"],
    ]);
    expect(run.code).toBe(0);
    expect(await config(dir)).toMatchObject({
      outputDir: "src/clients",
      flows: [{ name: "aml-screening", source: { file: "flows/aml-screening.yaml" } }],
    });
    expect(run.out).toMatch(/Wrote src\/clients\/ \(\d+ file\(s\) changed\)/);
    expect(await firstCallErrors(dir, run.out)).toEqual([]);
  });

  it("--flow on a terminal picks the flows: only the output dir is asked", async () => {
    const dir = await project();
    await cp(path.join(REPO, "flows/signing.yaml"), path.join(dir, "flows/signing.yaml"));
    const run = await onTerminal(
      dir,
      [[/Where do the generated clients go\?[\s\S]*generated/, "\r"]],
      ["--flow", "signing"],
    );
    expect(run.code).toBe(0);
    expect(run.out).not.toMatch(/Which flows/);
    expect(await config(dir)).toMatchObject({
      outputDir: "generated",
      flows: [{ name: "signing", source: { file: "flows/signing.yaml" } }],
    });
  });

  it("an empty folder and no API client: says where to get a description, asking nothing", async () => {
    const dir = await mkdtemp(path.join(root, "empty-tty-"));
    const run = await onTerminal(dir, []);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/no flow description found under .* download one from the dashboard/);
    expect(run.out).not.toMatch(/Which flows/);
  });

  it("Ctrl-C at a question cancels, writing nothing", async () => {
    const dir = await project();
    const run = await onTerminal(dir, [[/Which flows\?[\s\S]*Enter/, "\x03"]]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/cancelled; nothing was written/);
    expect(await readdir(dir)).not.toContain("codegen.config.json");
    await rm(dir, { recursive: true });
  });
});
