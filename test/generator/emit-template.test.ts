/**
 * Every emitted flow module keeps the fixed parts of templates/flow-module.ts
 * (which tsc checks in `npm test`): both are parsed and compared, with the
 * runtime's specifier and the flow-specific declarations abstracted. The one
 * import a module may add is the pattern engine's, for its side effect, when
 * its schemas have a pattern the client checks.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Project, SyntaxKind, type SourceFile } from "ts-morph";
import { emitFlowOrThrow } from "../../generator/emit/emit-flow.js";
import { toFlowSpec } from "../../generator/emit/flow-spec.js";
import { readTemplateOrThrow, TEMPLATE_RUNTIME_IMPORT } from "../../generator/template/flow-module-template.js";
import type { FlowModel } from "../../generator/model/types.js";
import { REPO_ROOT } from "../fixtures/golden/compile.js";
import { hasPattern } from "../fuzz/oracle.js";
import { SAMPLE_MODELS } from "../fixtures/golden/models.js";
import { odd } from "../fixtures/golden/odd-model.js";

const RUNTIME = "@acme/flowsmith-runtime";
const PATTERN_ENGINE = { moduleSpecifier: "@flowsmith/runtime/patterns", names: [], isTypeOnly: false };
const TEMPLATE_TEXT = readFileSync(join(REPO_ROOT, "templates", "flow-module.ts"), "utf8");

const project = new Project({ useInMemoryFileSystem: true });
let files = 0;

function parse(text: string): SourceFile {
  files += 1;
  return project.createSourceFile(`module-${String(files)}.ts`, text);
}

/** The imports with the runtime's specifier abstracted, as comparable data. */
function importsOf(file: SourceFile, runtime: string): unknown[] {
  return file.getImportDeclarations().map((declaration) => {
    const { moduleSpecifier, namedImports, isTypeOnly } = declaration.getStructure();
    const names = Array.isArray(namedImports) ? namedImports.map((n) => (typeof n === "string" ? n : n.name)) : [];
    return { moduleSpecifier: moduleSpecifier === runtime ? "<runtime>" : moduleSpecifier, names, isTypeOnly };
  });
}

function declarationNames(file: SourceFile): string[] {
  return file.getStatements().flatMap((statement) => {
    const variable = statement.asKind(SyntaxKind.VariableStatement);
    if (variable) return variable.getDeclarations().map((d) => d.getName());
    const named =
      statement.asKind(SyntaxKind.InterfaceDeclaration) ??
      statement.asKind(SyntaxKind.TypeAliasDeclaration) ??
      statement.asKind(SyntaxKind.FunctionDeclaration);
    return named ? [named.getName() ?? ""] : [];
  });
}

describe("emitted modules keep the template's fixed parts", () => {
  const template = parse(TEMPLATE_TEXT);

  test.each([...SAMPLE_MODELS, odd].map((m): [string, FlowModel] => [m.name, m]))("%s", async (_, model) => {
    const [index] = await emitFlowOrThrow(model, { runtimeImport: RUNTIME });
    const emitted = parse(index?.content ?? "");

    // The imports, pointed at the configured runtime; FileInput only where a type uses it.
    const usesFileInput = emitted
      .getDescendants()
      .some((node) => node.isKind(SyntaxKind.TypeReference) && node.getText() === "FileInput");
    const expected = importsOf(template, TEMPLATE_RUNTIME_IMPORT).map((i) => {
      const { names, ...rest } = i as { names: string[] };
      return { ...rest, names: names.filter((name) => usesFileInput || name !== "FileInput") };
    });
    const spec = toFlowSpec(model);
    const patterns = hasPattern(spec.request) || hasPattern(spec.response);
    expect(importsOf(emitted, RUNTIME)).toEqual(patterns ? [...expected, PATTERN_ENGINE] : expected);

    // `spec`: the template's docs and type; only its value is the flow's.
    const specOf = (file: SourceFile) => file.getVariableStatementOrThrow("spec");
    expect(
      specOf(emitted)
        .getJsDocs()
        .map((d) => d.getText()),
    ).toEqual(
      specOf(template)
        .getJsDocs()
        .map((d) => d.getText()),
    );
    expect(specOf(emitted).getDeclarations()[0]?.getTypeNode()?.getText()).toBe(
      specOf(template).getDeclarations()[0]?.getTypeNode()?.getText(),
    );

    // createSession: exactly as written in the template, JSDoc included.
    expect(emitted.getFunctionOrThrow("createSession").getText(true)).toBe(
      template.getFunctionOrThrow("createSession").getText(true),
    );

    // The template's declarations in its order, the flow's own types around its placeholders, createSession last.
    const names = declarationNames(emitted);
    let at = 0;
    for (const name of declarationNames(template)) {
      at = names.indexOf(name, at);
      expect([name, at >= 0]).toEqual([name, true]);
    }
    expect(names.slice(0, 3)).toEqual(["flow", "spec", "Flow"]);
    expect(names.at(-1)).toBe("createSession");
  });

  test("the awkward model has a checked pattern, so the engine's import is compared above", () => {
    expect(hasPattern(toFlowSpec(odd).request)).toBe(true);
  });

  test("a template without a part the emitter copies is refused", () => {
    expect(() =>
      readTemplateOrThrow(TEMPLATE_TEXT.replace("export function createSession(", "export function other(")),
    ).toThrow(/templates\/flow-module\.ts lacks a part the emitter copies/);
  });
});
