/**
 * Runs the type-level tests of test/types/ (also part of `npm run typecheck`)
 * under jest: they must compile with zero diagnostics, and an unmet
 * `@ts-expect-error` is itself a diagnostic, so every rejected case is checked.
 * And what tsc alone cannot say: each runtime entry exports exactly the
 * types test/types/public-index.ts lists for it (its values are pinned there).
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { REPO_ROOT, makeTempDir, removeDir, typeCheck, typeChecked } from "../fixtures/golden/compile.js";

const TYPES_DIR = join(REPO_ROOT, "test", "types");
const PUBLIC_INDEX = join(TYPES_DIR, "public-index.ts");

const FILES = readdirSync(TYPES_DIR)
  .filter((name) => name.endsWith(".ts"))
  .map((name) => join(TYPES_DIR, name));

let program: ts.Program;
let diagnostics: string[];

beforeAll(() => {
  ({ program, diagnostics } = typeChecked(FILES));
}, 120_000);

test("the type-level tests of the committed generated clients compile", () => {
  expect(FILES.length).toBeGreaterThanOrEqual(3);
  expect(diagnostics).toEqual([]);
});

/** Each entry's file, and the lists of its exports in test/types/public-index.ts. */
const ENTRIES: readonly (readonly [entry: string, file: string, values: string, types: string])[] = [
  ["@flowsmith/runtime", "runtime/index.ts", "PublicValue", "PublicType"],
  ["@flowsmith/runtime/flow-module", "runtime/flow-module.ts", "FlowModuleValue", "FlowModuleType"],
  ["@flowsmith/runtime/patterns", "runtime/patterns/index.ts", "PatternsValue", "PatternsType"],
  ["@flowsmith/runtime/internal", "runtime/internal.ts", "InternalValue", "InternalType"],
  ["@flowsmith/runtime/internal/json", "runtime/json.ts", "JsonValue", "JsonType"],
];

test.each(ENTRIES.map((entry) => [entry[0], entry] as const))(
  "%s exports exactly the values and types public-index.ts lists",
  (_, [, file, values, types]) => {
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(
      program.getSourceFile(join(REPO_ROOT, file)) as ts.SourceFile,
    ) as ts.Symbol;
    const exported = { values: [] as string[], types: [] as string[] };
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      (target.flags & ts.SymbolFlags.Value ? exported.values : exported.types).push(symbol.name);
    }
    expect(exported.values.length + exported.types.length).toBeGreaterThan(0);
    expect({ values: exported.values.sort(), types: exported.types.sort() }).toEqual({
      values: listed(checker, values),
      types: listed(checker, types),
    });
  },
);

/** The names a union of string literals in public-index.ts holds (`never`: none). */
function listed(checker: ts.TypeChecker, alias: string): string[] {
  const file = program.getSourceFile(PUBLIC_INDEX) as ts.SourceFile;
  const declaration = file.statements.find(
    (statement): statement is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(statement) && statement.name.text === alias,
  );
  if (!declaration) throw new Error(`public-index.ts has no type ${alias}`);
  const type = checker.getTypeAtLocation(declaration.name);
  const members = type.flags & ts.TypeFlags.Never ? [] : type.isUnion() ? type.types : [type];
  return members
    .map((member) => {
      if (!member.isStringLiteral()) throw new Error(`${alias} holds ${checker.typeToString(member)}, not a name`);
      return member.value;
    })
    .sort();
}

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
