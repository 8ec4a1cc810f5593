/**
 * test/module-cycles.mjs, the import-cycle check of `npm test`'s static
 * checks, on small projects written to a temporary folder: it must name a
 * cycle of value imports, a lazy `import()` one, a module importing itself
 * and a cycle of type-only imports, and leave one-way chains alone.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const checker = path.resolve(__dirname, "../module-cycles.mjs");

/** Each case a small project: file name → text. */
const PROJECTS: Record<string, Record<string, string>> = {
  valueCycle: {
    "a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
    "b.ts": 'import { c } from "./c.js";\nexport const b = () => c;\n',
    "c.ts": 'import { a } from "./a.js";\nexport const c = () => a;\n',
    "d.ts": 'import { a } from "./a.js";\nexport const d = a;\n',
  },
  reExportAndImportCall: {
    "a.ts": 'export { b } from "./b.js";\n',
    "b.ts": 'export const b = () => import("./a.js");\n',
  },
  selfImport: { "a.ts": 'import * as self from "./a.js";\nexport const a = () => self;\n' },
  typeOnly: {
    "a.ts": 'import type { B } from "./b.js";\nimport { c } from "./c.js";\nexport interface A { b?: B }\nexport const a = c;\n',
    "b.ts": 'import { type A } from "./a.js";\nexport type { A } from "./a.js";\nexport interface B { a?: A }\n',
    "c.ts": "export const c = 1;\n",
  },
  importType: {
    "a.ts": 'export interface A { b?: import("./b.js").B }\n',
    "b.ts": 'import type { A } from "./a.js";\nexport interface B { a?: A }\n',
  },
  oneWay: {
    "a.ts": 'import type { B } from "./b.js";\nimport { c } from "./c.js";\nexport interface A { b?: B }\nexport const a = c;\n',
    "b.ts": 'import { c } from "./c.js";\nexport interface B { c: typeof c }\n',
    "c.ts": "export const c = 1;\n",
  },
};

let dir: string;
let found: Record<string, string[][]>;

/** Writes every project and checks each in one process (loading TypeScript once), as static-checks.mjs builds its program. */
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-cycles-"));
  for (const [project, files] of Object.entries(PROJECTS)) {
    await mkdir(path.join(dir, project));
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, project, name), text);
  }
  const script = `
    import ts from "typescript";
    import { moduleCycles } from ${JSON.stringify(pathToFileURL(checker).href)};
    const [dir, projects] = [process.argv[1], JSON.parse(process.argv[2])];
    const options = { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, noEmit: true, noLib: true, types: [] };
    const found = {};
    for (const [project, names] of Object.entries(projects)) {
      const root = dir + "/" + project;
      found[project] = moduleCycles(ts.createProgram({ rootNames: names.map((name) => root + "/" + name), options }), root);
    }
    process.stdout.write(JSON.stringify(found));
  `;
  const names = Object.fromEntries(Object.entries(PROJECTS).map(([project, files]) => [project, Object.keys(files)]));
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script, dir, JSON.stringify(names)], {
    cwd: path.resolve(__dirname, "../.."),
    encoding: "utf8",
  });
  found = JSON.parse(output) as Record<string, string[][]>;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("a cycle of value imports is named with every file in it", () => {
  expect(found["valueCycle"]).toEqual([["a.ts", "b.ts", "c.ts"]]);
});

test("re-exports and lazy import() close a cycle too", () => {
  expect(found["reExportAndImportCall"]).toEqual([["a.ts", "b.ts"]]);
});

test("a module that imports itself is a cycle", () => {
  expect(found["selfImport"]).toEqual([["a.ts"]]);
});

test("type-only imports close a cycle too: `import type`, `export type`, `import { type X }`, `import(\"...\").X`", () => {
  expect(found["typeOnly"]).toEqual([["a.ts", "b.ts"]]);
  expect(found["importType"]).toEqual([["a.ts", "b.ts"]]);
});

test("one-way chains, of values or types, are not cycles", () => {
  expect(found["oneWay"]).toEqual([]);
});
