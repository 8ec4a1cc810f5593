/**
 * test/module-cycles.mjs, the import-cycle and climbing-import checks of
 * `npm test`'s static checks, on small projects written to a temporary
 * folder: it must name a cycle of value imports, a lazy `import()` one, a
 * module importing itself and a cycle of type-only imports, and leave
 * one-way chains alone; and it must name each import that climbs into a room (a subfolder
 * below or beside the importer's folder, type-only and lazy ones too), and
 * leave alone imports of a folder's own or shared (above) modules, the
 * area's index.ts, and imports between areas.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const checker = path.resolve(__dirname, "../module-cycles.mjs");

/** The layouts climbingImports is given, per project (static-checks.mjs gives the repository's). */
const LAYOUTS: Record<string, Record<string, { rooms: string[]; floorBuildsOnRooms?: boolean }>> = {
  rooms: { area: { rooms: [] } },
  ordered: { area: { rooms: ["base", "top"], floorBuildsOnRooms: true } },
};

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
    "a.ts":
      'import type { B } from "./b.js";\nimport { c } from "./c.js";\nexport interface A { b?: B }\nexport const a = c;\n',
    "b.ts": 'import { type A } from "./a.js";\nexport type { A } from "./a.js";\nexport interface B { a?: A }\n',
    "c.ts": "export const c = 1;\n",
  },
  importType: {
    "a.ts": 'export interface A { b?: import("./b.js").B }\n',
    "b.ts": 'import type { A } from "./a.js";\nexport interface B { a?: A }\n',
  },
  oneWay: {
    "a.ts":
      'import type { B } from "./b.js";\nimport { c } from "./c.js";\nexport interface A { b?: B }\nexport const a = c;\n',
    "b.ts": 'import { c } from "./c.js";\nexport interface B { c: typeof c }\n',
    "c.ts": "export const c = 1;\n",
  },
  rooms: {
    "area/index.ts":
      'export { a } from "./room/a.js";\nexport { lazy } from "./lazy.js";\nexport { user } from "./shared-user.js";\n',
    "area/shared.ts":
      'export const shared = 1;\nexport interface Shape { readonly n: number }\nexport type Later = import("./other/c.js").C;\n',
    "area/shared-user.ts": 'import { a } from "./room/a.js";\nexport const user = a;\n',
    "area/lazy.ts": 'export const lazy = () => import("./room/deep/d.js");\n',
    "area/room/a.ts":
      'import { shared } from "../shared.js";\nimport type { C } from "../other/c.js";\nexport const a = shared;\nexport type A = C;\n',
    "area/room/deep/d.ts":
      'import { shared, type Shape } from "../../shared.js";\nimport { a } from "../a.js";\nexport const d: Shape = { n: shared + a };\n',
    "area/other/c.ts": "export interface C { readonly c: string }\n",
    "elsewhere/e.ts":
      'import { shared } from "../area/shared.js";\nimport { d } from "../area/room/deep/d.js";\nexport const e = shared + d.n;\n',
  },
  ordered: {
    "area/floor.ts": "export const floor = 1;\n",
    "area/client.ts": 'import { top } from "./top/t.js";\nexport const client = top;\n',
    "area/base/b.ts":
      'import { floor } from "../floor.js";\nimport type { T } from "../top/t.js";\nexport const b = floor;\nexport type B = T;\n',
    "area/top/t.ts":
      'import { b } from "../base/b.js";\nexport const top = b;\nexport interface T { readonly t: number }\n',
  },
};

let dir: string;
let found: Record<string, { cycles: string[][]; climbs: { from: string; to: string }[] }>;

/** Writes every project and checks each in one process (loading TypeScript once), as static-checks.mjs builds its program. */
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-cycles-"));
  for (const [project, files] of Object.entries(PROJECTS)) {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, project, name)), { recursive: true });
      await writeFile(path.join(dir, project, name), text);
    }
  }
  const script = `
    import ts from "typescript";
    import { climbingImports, moduleCycles } from ${JSON.stringify(pathToFileURL(checker).href)};
    const LAYOUTS = ${JSON.stringify(LAYOUTS)};
    const [dir, projects] = [process.argv[1], JSON.parse(process.argv[2])];
    const options = { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, noEmit: true, noLib: true, types: [] };
    const found = {};
    for (const [project, names] of Object.entries(projects)) {
      const root = dir + "/" + project;
      const program = ts.createProgram({ rootNames: names.map((name) => root + "/" + name), options });
      found[project] = { cycles: moduleCycles(program, root), climbs: climbingImports(program, root, LAYOUTS[project] ?? {}) };
    }
    process.stdout.write(JSON.stringify(found));
  `;
  const names = Object.fromEntries(Object.entries(PROJECTS).map(([project, files]) => [project, Object.keys(files)]));
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script, dir, JSON.stringify(names)], {
    cwd: path.resolve(__dirname, "../.."),
    encoding: "utf8",
  });
  found = JSON.parse(output) as typeof found;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("a cycle of value imports is named with every file in it", () => {
  expect(found["valueCycle"]?.cycles).toEqual([["a.ts", "b.ts", "c.ts"]]);
});

test("re-exports and lazy import() close a cycle too", () => {
  expect(found["reExportAndImportCall"]?.cycles).toEqual([["a.ts", "b.ts"]]);
});

test("a module that imports itself is a cycle", () => {
  expect(found["selfImport"]?.cycles).toEqual([["a.ts"]]);
});

test('type-only imports close a cycle too: `import type`, `export type`, `import { type X }`, `import("...").X`', () => {
  expect(found["typeOnly"]?.cycles).toEqual([["a.ts", "b.ts"]]);
  expect(found["importType"]?.cycles).toEqual([["a.ts", "b.ts"]]);
});

test("one-way chains, of values or types, are not cycles", () => {
  expect(found["oneWay"]?.cycles).toEqual([]);
});

test("an import into a room from outside it climbs, type-only and lazy ones too; the shared floor, the area's index.ts and other areas do not", () => {
  expect(found["rooms"]?.climbs).toEqual([
    { from: "area/lazy.ts", to: "area/room/deep/d.ts" },
    { from: "area/room/a.ts", to: "area/other/c.ts" },
    { from: "area/shared-user.ts", to: "area/room/a.ts" },
    { from: "area/shared.ts", to: "area/other/c.ts" },
  ]);
  expect(found["rooms"]?.cycles).toEqual([]);
});

test("in an area whose rooms are ordered, a room builds only on those before it; its floor may build on any", () => {
  // top → base and client → top are the layout's; base → top (a type-only import too) climbs.
  expect(found["ordered"]?.climbs).toEqual([{ from: "area/base/b.ts", to: "area/top/t.ts" }]);
});
