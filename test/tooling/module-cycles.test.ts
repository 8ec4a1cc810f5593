/**
 * test/module-cycles.mjs, the import-cycle check of `npm test`'s static
 * checks, on small projects written to a temporary folder: it must name a
 * cycle of value imports, a lazy `import()` one and a module importing
 * itself, and leave type-only imports and one-way chains alone.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const checker = path.resolve(__dirname, "../module-cycles.mjs");
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-cycles-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes the files, builds their program as static-checks.mjs does, and returns the cycles found. */
async function cyclesOf(files: Record<string, string>): Promise<string[][]> {
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const script = `
    import ts from "typescript";
    import { moduleCycles } from ${JSON.stringify(checker)};
    const [root, ...rootNames] = process.argv.slice(1);
    const program = ts.createProgram({ rootNames, options: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, noEmit: true, noLib: true, types: [] } });
    process.stdout.write(JSON.stringify(moduleCycles(program, root)));
  `;
  const names = Object.keys(files).map((name) => path.join(dir, name));
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script, dir, ...names], {
    cwd: path.resolve(__dirname, "../.."),
    encoding: "utf8",
  });
  return JSON.parse(output) as string[][];
}

test("a cycle of value imports is named with every file in it", async () => {
  const cycles = await cyclesOf({
    "a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
    "b.ts": 'import { c } from "./c.js";\nexport const b = () => c;\n',
    "c.ts": 'import { a } from "./a.js";\nexport const c = () => a;\n',
    "d.ts": 'import { a } from "./a.js";\nexport const d = a;\n',
  });
  expect(cycles).toEqual([["a.ts", "b.ts", "c.ts"]]);
});

test("re-exports and lazy import() close a cycle too", async () => {
  const cycles = await cyclesOf({
    "a.ts": 'export { b } from "./b.js";\n',
    "b.ts": 'export const b = () => import("./a.js");\n',
  });
  expect(cycles).toEqual([["a.ts", "b.ts"]]);
});

test("a module that imports itself is a cycle", async () => {
  expect(await cyclesOf({ "a.ts": 'import * as self from "./a.js";\nexport const a = () => self;\n' })).toEqual([["a.ts"]]);
});

test("type-only imports and one-way chains are not cycles", async () => {
  const cycles = await cyclesOf({
    "a.ts": 'import type { B } from "./b.js";\nimport { c } from "./c.js";\nexport interface A { b?: B }\nexport const a = c;\n',
    "b.ts": 'import { type A } from "./a.js";\nexport type { A } from "./a.js";\nexport interface B { a?: A }\n',
    "c.ts": "export const c = 1;\n",
  });
  expect(cycles).toEqual([]);
});
