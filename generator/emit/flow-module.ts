/**
 * The statements of a flow's module (`<name>/index.ts`), in order: the
 * template's imports (and the pattern engine's, when the flow's schemas have
 * a pattern the client checks), `flow` and `spec` (the flow's values and
 * schemas as JSON), the flow's types, and the template's `createSession`.
 * One list, printed once (module-text.ts); nothing is edited after printing.
 * `spec` comes as text: the template's statement, printed once a process
 * with an empty JSON text, around the flow's JSON text (module-text.ts says
 * why).
 */
import {
  printStructure,
  type CodeBlockWriter,
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
    specStatement(model),
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
function specStatement(model: FlowModel): PrintedStatement {
  const [before, after] = specAround();
  return { kind: "printed", text: `${before}${templateLiteral(jsonText(toFlowSpec(model)))}${after}` };
}

let specParts: readonly [string, string] | undefined;

/**
 * The template's `spec` statement (flowModuleTemplate, read once a process)
 * printed once with an empty JSON text, and cut there. Only the template's
 * docs, name and annotation are in it, no description's text, and the
 * initializer is what it ends with (before `;`), so its one empty template
 * literal is where the JSON goes; anything else is refused here.
 */
function specAround(): readonly [string, string] {
  if (specParts) return specParts;
  const template = flowModuleTemplate().spec;
  const [declaration, ...others] = template.declarations;
  if (!declaration || others.length > 0)
    throw new Error("flowsmith: the template's spec statement must declare spec alone");
  const empty = templateLiteral("");
  const printed = printStructure(
    { ...template, declarations: [{ ...declaration, initializer: jsonParseCall(empty) }] },
    { indentNumberOfSpaces: INDENT_WIDTH },
  ).trim();
  const at = printed.indexOf(empty);
  if (at < 0 || printed.indexOf(empty, at + 1) >= 0 || !printed.endsWith(`${empty});`)) {
    throw new Error(
      `flowsmith: the template's spec statement printed as ${JSON.stringify(printed)}, not ending in its JSON text`,
    );
  }
  specParts = [printed.slice(0, at), printed.slice(at + empty.length)];
  return specParts;
}

function parsedJson(value: unknown): string {
  return jsonParseCall(templateLiteral(jsonText(value)));
}

/** The one way a generated module turns JSON text (a template literal, escape.ts) into a value. */
function jsonParseCall(literal: string): string {
  return `JSON.parse(${literal})`;
}

/**
 * Object.assign onto a new object, not a spread followed by the key: that
 * gave each structure a hidden class of its own in V8, and ts-morph's
 * printer, reading dozens of optional keys of each, new handlers for each:
 * garbage that grew with the flows (bench/analysis.md, "Peak memory").
 */
function afterBlankLine<T extends StatementStructures>(statement: T): T {
  return Object.assign({}, statement, { leadingTrivia: blankLineBefore });
}

function blankLineBefore(writer: CodeBlockWriter): void {
  writer.blankLineIfLastNot();
}
