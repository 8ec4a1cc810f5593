/**
 * runInit, `flowsmith init`'s entry point in the generator, in this process
 * (init.test.ts runs the CLI as a process, on a terminal too): what it
 * returns and notes for a folder as a user has it, and what it writes.
 */
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runInit, type InitNote, type InitResult } from "../../generator/index";
import { REPO } from "./codegen-project";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "flowsmith-init-run-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const AML = { from: "flows/aml-screening.yaml", to: "flows/aml-screening.yaml" };
const AML_ENTRY = '    { "name": "aml-screening", "source": { "file": "flows/aml-screening.yaml" } }\n';

interface Given {
  /** Copies of sample descriptions into the project. */
  readonly copies?: readonly { from: string; to: string }[];
  /** Files written into the project (relative path → text). */
  readonly files?: Readonly<Record<string, string>>;
  /** A config in the folder above the project. */
  readonly configAbove?: boolean;
  readonly outputDir?: string;
}

interface Want {
  readonly outcome: InitResult["outcome"];
  readonly notes: readonly InitNote["kind"][];
  /** The config written (undefined: none). */
  readonly config?: string;
  readonly flows?: readonly string[];
  /** The namespace the first call imports from index.ts, and the files it reads. */
  readonly call?: string;
  readonly reads?: readonly string[];
}

async function project({ copies = [], files = {}, configAbove = false }: Given): Promise<string> {
  const parent = await mkdtemp(path.join(root, "case-"));
  const dir = path.join(parent, "project");
  await mkdir(path.join(dir, "flows"), { recursive: true });
  if (configAbove) await writeFile(path.join(parent, "codegen.config.json"), '{ "flows": [] }\n');
  for (const copy of copies) await cp(path.join(REPO, copy.from), path.join(dir, copy.to));
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  return dir;
}

it.each<[string, { given: Given; want: Want }]>([
  [
    "the descriptions found: the config, one flow a line, generated, a first call",
    {
      given: { copies: [AML] },
      want: {
        outcome: "written",
        notes: [],
        flows: ["aml-screening"],
        call: "amlScreening",
        reads: [],
        config: `{\n  "$schema": "./node_modules/flowsmith/codegen.config.schema.json",\n  "outputDir": "generated",\n  "flows": [\n${AML_ENTRY}  ]\n}\n`,
      },
    },
  ],
  [
    "a config here already: refused, nothing written",
    {
      given: { copies: [AML], files: { "codegen.config.json": "// mine\n" } },
      want: { outcome: "config-exists", notes: [], config: "// mine\n" },
    },
  ],
  [
    "a config of a folder above, and a file that is not a flow: each noted, the rest used",
    {
      given: {
        copies: [AML, { from: "flows/signing.yaml", to: "flows/signing.yaml" }],
        files: { "flows/signing.yaml": "x-flow-id: [unclosed\n" },
        configAbove: true,
      },
      want: {
        outcome: "written",
        notes: ["config-above", "skipped"],
        flows: ["aml-screening"],
        call: "amlScreening",
        reads: [],
      },
    },
  ],
  [
    "two flows: the config lists them as found, the first call is of the first",
    {
      given: { copies: [{ from: "flows/signing.yaml", to: "flows/signing.yaml" }, AML] },
      want: { outcome: "written", notes: [], flows: ["aml-screening", "signing"], call: "amlScreening", reads: [] },
    },
  ],
  [
    "a flow taking a document: its first call reads one",
    {
      given: { copies: [{ from: "flows/signing.yaml", to: "flows/signing.yaml" }], outputDir: "src/clients" },
      want: { outcome: "written", notes: [], flows: ["signing"], call: "signing", reads: ["document.pdf"] },
    },
  ],
])("%s", async (_name, { given, want }) => {
  const dir = await project(given);
  const notes: InitNote[] = [];
  const result = await runInit({
    cwd: dir,
    env: {},
    interactive: false,
    fromApi: false,
    flows: [],
    ...(given.outputDir !== undefined ? { outputDir: given.outputDir } : {}),
    onNote: (note) => notes.push(note),
  });
  expect(result.outcome).toBe(want.outcome);
  expect(notes.map((note) => note.kind)).toEqual(want.notes);
  const written = await readFile(path.join(dir, "codegen.config.json"), "utf8").catch(() => undefined);
  if (want.config !== undefined) expect(written).toBe(want.config);
  if (result.outcome !== "written") return;
  expect(result.flows).toEqual(want.flows);
  expect(result.codegen).toMatchObject({ ok: true, result: { mode: "write" } });
  expect(await readdir(path.join(dir, given.outputDir ?? "generated"))).toEqual(
    expect.arrayContaining(["index.ts", ...(want.flows ?? [])]),
  );
  expect(result.firstCall?.reads).toEqual(want.reads);
  expect(result.firstCall?.code).toContain(
    `import { ${want.call ?? ""} } from "./${given.outputDir ?? "generated"}/index.js";`,
  );
});

it("an outputDir holding files it did not write: refused as codegen would, naming the flag, before the config is written", async () => {
  const dir = await project({ copies: [AML], files: { "notes.txt": "mine\n" } });
  await mkdir(path.join(dir, "out"));
  await writeFile(path.join(dir, "out/keep.txt"), "mine\n");
  const refused = runInit({ cwd: dir, env: {}, interactive: false, fromApi: false, flows: [], outputDir: "out" });
  await expect(refused).rejects.toMatchObject({
    code: "OUTPUT_DIR_NOT_EMPTY",
    message: expect.stringMatching(
      /^outputDir \S*\/out\/ already holds files \(keep\.txt\).*With init, --output-dir chooses the folder$/,
    ) as unknown,
  });
  expect(await readdir(dir)).not.toContain("codegen.config.json");
});
