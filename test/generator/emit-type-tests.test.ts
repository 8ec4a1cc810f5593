/**
 * Runs the type-level tests of test/types/ (also part of `npm run typecheck`)
 * under jest: they must compile with zero diagnostics, and an unmet
 * `@ts-expect-error` is itself a diagnostic, so every rejected case is checked.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, makeTempDir, removeDir, typeCheck } from "../fixtures/golden/compile.js";

const TYPES_DIR = join(REPO_ROOT, "test", "types");

test("the type-level tests of the committed generated clients compile", () => {
  const files = readdirSync(TYPES_DIR)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(TYPES_DIR, name));
  expect(files.length).toBeGreaterThanOrEqual(3);
  expect(typeCheck(files)).toEqual([]);
});

test("the checker does report an error (so the test above can fail)", () => {
  const dir = makeTempDir();
  try {
    const file = join(dir, "broken.ts");
    writeFileSync(
      file,
      'export const n: number = "not a number";\n// @ts-expect-error nothing wrong below\nexport const ok = 1;\n',
    );
    expect(typeCheck([file])).toHaveLength(2);
  } finally {
    removeDir(dir);
  }
});
