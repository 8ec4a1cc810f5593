// Imports that reach past a folder's public entry, found on the TypeScript program the static
// checks already built (static-checks.mjs), each import as TypeScript resolved it. cli/ and
// emulator/ reach the generator only through generator/index.ts: what the generator offers them
// is the one list there, and a module of the generator can move without touching either.
// Every kind of import counts, type-only ones too (`import type`, `export ... from`, `import()`,
// `typeof import()` in a type): a type imported past the entry ties the importer to the file.
import path from "node:path";
import ts from "typescript";

/** The rules of this repository: importers under `from` reach `into` only through `entry` (paths relative to the root). */
const ENTRY_RULES = [
  { from: "cli/", into: "generator/", entry: "generator/index.ts" },
  { from: "emulator/", into: "generator/", entry: "generator/index.ts" },
];

/** Every import that breaks a rule, as `{ file, target, entry }` relative to `root`, in the program's file order. */
export function importsPastEntry(program, root, rules = ENTRY_RULES) {
  const relative = (file) => path.relative(root, file).split(path.sep).join("/");
  const found = [];
  for (const sourceFile of program.getSourceFiles()) {
    const file = relative(sourceFile.fileName);
    if (sourceFile.fileName.includes("/node_modules/") || file.startsWith("..")) continue;
    const applying = rules.filter((rule) => file.startsWith(rule.from));
    if (applying.length === 0) continue;
    for (const specifier of importSpecifiers(sourceFile)) {
      const resolved = program.getResolvedModuleFromModuleSpecifier(specifier, sourceFile)?.resolvedModule
        ?.resolvedFileName;
      if (!resolved) continue;
      const target = relative(resolved);
      for (const rule of applying) {
        if (target.startsWith(rule.into) && target !== rule.entry) found.push({ file, target, entry: rule.entry });
      }
    }
  }
  return found;
}

function importSpecifiers(sourceFile) {
  const specifiers = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0]);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return specifiers;
}
