/**
 * test/entry-imports.mjs, the static check that cli/ and emulator/ reach
 * the generator only through generator/index.ts, on small projects written
 * to a temporary folder: every kind of import past the entry is named (type
 * imports too), and imports of the entry or outside the generator are not.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const checker = path.resolve(__dirname, "../entry-imports.mjs");

/** generator/index.ts and one module behind it, in every project. */
const GENERATOR = {
  "generator/index.ts": 'export { run } from "./run.js";\nexport type { Options } from "./run.js";\n',
  "generator/run.ts":
    "export interface Options { readonly check: boolean }\nexport const run = (options: Options) => options.check;\n",
};

type Offender = { file: string; target: string; entry: string };

const CASES: [string, { given: Record<string, string>; want: Offender[] }][] = [
  [
    "the entry only",
    {
      given: {
        "cli/main.ts":
          'import { run, type Options } from "../generator/index.js";\nexport const main = (o: Options) => run(o);\n',
      },
      want: [],
    },
  ],
  [
    "a value import past the entry",
    {
      given: { "cli/main.ts": 'import { run } from "../generator/run.js";\nexport const main = run;\n' },
      want: [{ file: "cli/main.ts", target: "generator/run.ts", entry: "generator/index.ts" }],
    },
  ],
  [
    "a type-only import past the entry",
    {
      given: {
        "cli/commands/a.ts": 'import type { Options } from "../../generator/run.js";\nexport type A = Options;\n',
      },
      want: [{ file: "cli/commands/a.ts", target: "generator/run.ts", entry: "generator/index.ts" }],
    },
  ],
  [
    "a re-export, import() and typeof import() past the entry",
    {
      given: {
        "cli/a.ts":
          'export { run } from "../generator/run.js";\nexport const load = () => import("../generator/run.js");\nexport type Run = typeof import("../generator/run.js");\n',
      },
      want: Array.from({ length: 3 }, () => ({
        file: "cli/a.ts",
        target: "generator/run.ts",
        entry: "generator/index.ts",
      })),
    },
  ],
  [
    "the emulator past the entry",
    {
      given: { "emulator/flows.ts": 'import type { Options } from "../generator/run.js";\nexport type O = Options;\n' },
      want: [{ file: "emulator/flows.ts", target: "generator/run.ts", entry: "generator/index.ts" }],
    },
  ],
  [
    "modules outside the rules",
    {
      given: {
        "cli/main.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
        "cli/b.ts": "export const b = 1;\n",
        "test/x.ts": 'import { run } from "../generator/run.js";\nexport const x = run;\n',
      },
      want: [],
    },
  ],
];

let dir: string;
let found: Record<string, Offender[]>;

/** Writes every project and checks each in one process (loading TypeScript once), as static-checks.mjs builds its program. */
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-entry-imports-"));
  const projects: Record<string, string[]> = {};
  for (const [index, [, { given }]] of CASES.entries()) {
    const files = { ...GENERATOR, ...given };
    projects[String(index)] = Object.keys(files);
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, String(index), name)), { recursive: true });
      await writeFile(path.join(dir, String(index), name), text);
    }
  }
  const script = `
    import ts from "typescript";
    import { importsPastEntry } from ${JSON.stringify(pathToFileURL(checker).href)};
    const [dir, projects] = [process.argv[1], JSON.parse(process.argv[2])];
    const options = { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, noEmit: true, noLib: true, types: [] };
    const found = {};
    for (const [project, names] of Object.entries(projects)) {
      const root = dir + "/" + project;
      found[project] = importsPastEntry(ts.createProgram({ rootNames: names.map((name) => root + "/" + name), options }), root);
    }
    process.stdout.write(JSON.stringify(found));
  `;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script, dir, JSON.stringify(projects)], {
    cwd: path.resolve(__dirname, "../.."),
    encoding: "utf8",
  });
  found = JSON.parse(output) as Record<string, Offender[]>;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test.each(CASES.map(([name, { want }], index) => [name, index, want] as const))("%s", (_name, index, want) => {
  expect(found[String(index)]).toEqual(want);
});
