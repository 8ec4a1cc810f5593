/**
 * The statements of a flow's module (`<name>/index.ts`), in order: the
 * template's imports (and the pattern engine's, when the flow's schemas have
 * a pattern the client checks), `flow` and `spec` (the flow's values and
 * schemas as JSON), the flow's types, and the template's `createSession`.
 * One list, printed once (module-text.ts); nothing is edited after printing.
 * `spec` comes printed: the template's statement, printed once a process with
 * an empty JSON text, around the flow's JSON text (module-text.ts says why).
 */
import {
  printStructure,
  StructureKind,
  VariableDeclarationKind,
  type ImportDeclarationStructure,
  type StatementStructures,
  type VariableStatementStructure,
} from "ts-morph";
import type { FlowModel } from "../model/types.js";
import { flowModuleTemplate, TEMPLATE_RUNTIME_IMPORT } from "../template/flow-module-template.js";
import { docs } from "./docs.js";
import { templateLiteral } from "./escape.js";
import { hasCheckedPattern, toFlowSpec } from "./flow-spec.js";
import { flowTypes } from "./flow-types.js";
import { jsonText } from "./json-text.js";
import { moduleSpecifierOrThrow } from "./module-specifier.js";
import { INDENT_WIDTH } from "./layout.js";
import type { ModuleStatement, PrintedStatement } from "./module-text.js";

/** The pattern engine's entry: the package's own, whatever `runtimeImport` names. */
const PATTERNS_IMPORT = "@flowsmith/runtime/patterns";

export function flowModuleStatementsOrThrow(model: FlowModel, runtimeImport: string): ModuleStatement[] {
  const template = flowModuleTemplate();
  const runtime = moduleSpecifierOrThrow(runtimeImport, "runtimeImport", { flow: model.name });
  const types = flowTypes(model);
  // Type-only bindings no declaration refers to are left out (FileInput in flows without files).
  const unused = new Set(types.usesFileInput ? [] : ["FileInput"]);
  const imports = template.imports.map((declaration) =>
    declaration.moduleSpecifier === TEMPLATE_RUNTIME_IMPORT
      ? runtimeImportOf(declaration, runtime, unused)
      : declaration,
  );
  // For its side effect: the engine the flow's patterns run on (re2js) is loaded, and bundled, only with a flow that has one.
  if (hasCheckedPattern(model.request) || hasCheckedPattern(model.response))
    imports.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: PATTERNS_IMPORT });
  return [
    ...imports,
    afterBlankLine(flowStatement(model)),
    specStatement(model, template.spec),
    ...types.declarations.map(afterBlankLine),
    // Copied whole (template/flow-module-template.ts says why); it names Flow and the request and response types, which flowTypes claims first.
    (writer) => writer.blankLineIfLastNot().write(template.createSession),
  ];
}

function runtimeImportOf(
  declaration: ImportDeclarationStructure,
  runtime: string,
  unused: ReadonlySet<string>,
): ImportDeclarationStructure {
  const named = Array.isArray(declaration.namedImports) ? declaration.namedImports : [];
  const used = named.filter((binding) => !unused.has(typeof binding === "string" ? binding : binding.name));
  return { ...declaration, moduleSpecifier: runtime, namedImports: used };
}

function flowStatement(model: FlowModel): VariableStatementStructure {
  const { id, version, environment, title, path } = model;
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs([
      `The flow "${model.title}" (version ${model.versionLabel}, ${model.environment}).`,
      model.summary ?? "",
      model.description ?? "",
    ]),
    // Typed by the Flow interface (flow-types.ts): literal types without relating a literal to them in users' tsc.
    declarations: [{ name: "flow", type: "Flow", initializer: parsedJson({ id, version, environment, title, path }) }],
  };
}

/**
 * `spec` as JSON parsed when the module loads, not as an object literal:
 * users' tsc would relate each literal to FlowSpec (and the multipart request
 * tree to the recursive FieldSpec union, the schemas to JsonSchema) in every
 * generated module, which was most of what checking one cost. The value
 * comes from toFlowSpec, typed there; the template's annotation gives it the
 * flow's environment.
 */
function specStatement(model: FlowModel, template: VariableStatementStructure): PrintedStatement {
  const [before, after] = specAround(template);
  return { kind: "printed", text: `${before}${templateLiteral(jsonText(toFlowSpec(model)))}${after}` };
}

let specParts: readonly [string, string] | undefined;

/**
 * The template's `spec` statement printed once with an empty JSON text, cut
 * where the text goes. It holds only the template's docs and annotation, so
 * the empty template literal is the last one in it.
 */
function specAround(template: VariableStatementStructure): readonly [string, string] {
  if (specParts) return specParts;
  const empty = templateLiteral("");
  const initializer = `JSON.parse(${empty})`;
  const printed = printStructure(
    {
      ...template,
      declarations: template.declarations.map((declaration) => ({ ...declaration, initializer })),
    },
    { indentNumberOfSpaces: INDENT_WIDTH },
  ).trim();
  const at = printed.lastIndexOf(empty);
  specParts = [printed.slice(0, at), printed.slice(at + empty.length)];
  return specParts;
}

function parsedJson(value: unknown): string {
  return `JSON.parse(${templateLiteral(jsonText(value))})`;
}

function afterBlankLine<T extends StatementStructures>(statement: T): T {
  return { ...statement, leadingTrivia: (writer) => writer.blankLineIfLastNot() };
}
