/**
 * What must hold of a generated flow module, whatever the description said:
 * it compiles under strict; it exports exactly its values (flow, spec,
 * createSession) and one type per object of the model plus the fixed ones;
 * its statements are only the ones a module has (no text became code); it
 * imports the runtime's flow-module entry, and the pattern engine exactly
 * when its schemas have a pattern to check; its JSDoc has only the tags the
 * emitter writes (no text became a tag); and names, enum values, the title
 * and the flow id read back exactly.
 */
import ts from "typescript";
import { toFlowSpec } from "../../generator/emit/flow-spec.js";
import type { FlowModel, Schema } from "../../generator/model/types.js";
import { RUNTIME_IMPORT, type CheckedProgram } from "./type-check.js";

const VALUE_EXPORTS = ["createSession", "flow", "spec"];
const FIXED_TYPES = ["CreateSessionRequest", "CreateSessionResponse", "Flow", "Input", "Locale", "Metadata"];
/** The tags docs.ts writes. */
const JSDOC_TAGS = new Set([
  "accept",
  "default",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "format",
  "integer",
  "maxBytes",
  "maxItems",
  "maxLength",
  "maximum",
  "minItems",
  "minLength",
  "minimum",
  "multipleOf",
  "part",
  "pattern",
]);

/** Problems with one flow's generated module (empty: all good). */
export function problemsOf(checked: CheckedProgram, model: FlowModel, index: string): string[] {
  const problems = checked.diagnosticsOf(index).map((d) => `index.ts:${d}`);
  if (problems.length > 0) return problems;
  const indexFile = checked.sourceFileOrThrow(index);
  return [
    ...exportProblems(checked.checker, indexFile, model),
    ...statementProblems(indexFile),
    ...importProblems(indexFile, model),
    ...tagProblems(indexFile),
    ...readBackProblems(indexFile, model),
  ];
}

const PATTERN_ENGINE = "@flowsmith/runtime/patterns";

/** The runtime's entry (a value and a type-only import), then the pattern engine's, for its side effect, iff a schema of `spec` has a pattern. */
function importProblems(file: ts.SourceFile, model: FlowModel): string[] {
  const imports = file.statements.filter(ts.isImportDeclaration).map((statement) => {
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    const clause = statement.importClause;
    return `${clause ? (clause.phaseModifier === ts.SyntaxKind.TypeKeyword ? "type " : "value ") : "side effect "}${specifier}`;
  });
  const spec = toFlowSpec(model);
  const expected = [
    `value ${RUNTIME_IMPORT}`,
    `type ${RUNTIME_IMPORT}`,
    ...(hasPattern(spec.request) || hasPattern(spec.response) ? [`side effect ${PATTERN_ENGINE}`] : []),
  ];
  return imports.join() === expected.join() ? [] : [`imports ${imports.join(", ")}; expected ${expected.join(", ")}`];
}

/** Whether a JSON Schema of `spec` has a `pattern` keyword (the checker then needs the engine). */
export function hasPattern(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const { pattern, properties, items, additionalProperties } = schema as Record<string, unknown>;
  if (typeof pattern === "string") return true;
  return [...Object.values((properties ?? {}) as Record<string, unknown>), items, additionalProperties].some(
    hasPattern,
  );
}

function exportsOf(checker: ts.TypeChecker, file: ts.SourceFile): ts.Symbol[] {
  const module = checker.getSymbolAtLocation(file);
  return module ? checker.getExportsOfModule(module) : [];
}

function exportProblems(checker: ts.TypeChecker, file: ts.SourceFile, model: FlowModel): string[] {
  const symbols = exportsOf(checker, file);
  const values = symbols
    .filter((s) => s.flags & ts.SymbolFlags.Value)
    .map((s) => s.name)
    .sort();
  const types = symbols
    .filter((s) => s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))
    .map((s) => s.name);
  const other = symbols.filter(
    (s) => !(s.flags & (ts.SymbolFlags.Value | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)),
  );
  const problems: string[] = [];
  if (values.join() !== VALUE_EXPORTS.join())
    problems.push(`value exports ${values.join(", ")}, expected ${VALUE_EXPORTS.join(", ")}`);
  const missing = FIXED_TYPES.filter((name) => !types.includes(name));
  if (missing.length > 0) problems.push(`type exports lack ${missing.join(", ")}`);
  const expected = expectedTypeCount(model);
  if (types.length !== expected)
    problems.push(`${String(types.length)} type exports, expected ${String(expected)}: ${types.join(", ")}`);
  if (other.length > 0) problems.push(`other exports: ${other.map((s) => s.name).join(", ")}`);
  return problems;
}

/**
 * The fixed types, and one interface per object schema of the request's
 * input and of the response. `Input` lists only the data blocks: its extra
 * keys get a type only when it has no blocks (flow-types.ts).
 */
function expectedTypeCount(model: FlowModel): number {
  const input = model.request.properties.find((p) => p.name === "input")?.schema;
  const responseIsInterface = model.response.kind === "object" && !model.response.nullable ? 1 : 0;
  return (
    FIXED_TYPES.length +
    (input?.kind === "object" ? blockTypes(input) : 0) +
    objectsIn(model.response) -
    responseIsInterface
  );
}

function blockTypes(input: Extract<Schema, { kind: "object" }>): number {
  const extra = input.additionalProperties;
  const extraTypes = input.properties.length === 0 && typeof extra !== "boolean" ? objectsIn(extra) : 0;
  return extraTypes + input.properties.reduce((sum, p) => sum + objectsIn(p.schema), 0);
}

function objectsIn(schema: Schema): number {
  switch (schema.kind) {
    case "object": {
      const extra = typeof schema.additionalProperties === "boolean" ? 0 : objectsIn(schema.additionalProperties);
      return 1 + extra + schema.properties.reduce((sum, p) => sum + objectsIn(p.schema), 0);
    }
    case "array":
      return objectsIn(schema.items);
    default:
      return 0;
  }
}

/** index.ts: the imports, `flow`, `spec`, type declarations, `createSession`; nothing else. */
function statementProblems(file: ts.SourceFile): string[] {
  const problems: string[] = [];
  const variables: string[] = [];
  const functions: string[] = [];
  for (const statement of file.statements) {
    if (
      ts.isImportDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement)
    )
      continue;
    if (ts.isVariableStatement(statement))
      variables.push(...statement.declarationList.declarations.map((d) => d.name.getText(file)));
    else if (ts.isFunctionDeclaration(statement)) functions.push(statement.name?.text ?? "(anonymous)");
    else
      problems.push(
        `unexpected ${ts.SyntaxKind[statement.kind]} at top level: ${statement.getText(file).slice(0, 80)}`,
      );
  }
  if (variables.join() !== "flow,spec") problems.push(`variables ${variables.join(", ")}`);
  if (functions.join() !== "createSession") problems.push(`functions ${functions.join(", ")}`);
  return problems;
}

function tagProblems(file: ts.SourceFile): string[] {
  const problems: string[] = [];
  const visit = (node: ts.Node): void => {
    for (const tag of ts.getJSDocTags(node)) {
      if (!JSDOC_TAGS.has(tag.tagName.text)) problems.push(`JSDoc tag @${tag.tagName.text} from description text`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

/** Names, enum values, title and flow id, as the generated code spells them, are the model's exactly. */
function readBackProblems(file: ts.SourceFile, model: FlowModel): string[] {
  const names = new Set<string>();
  const literals = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isPropertySignature(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)))
      names.add(node.name.text);
    if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) literals.add(node.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  const problems: string[] = [];
  const modelNames = new Set<string>();
  const modelEnums = new Set<string>();
  collect(model.response, modelNames, modelEnums);
  const input = model.request.properties.find((p) => p.name === "input")?.schema;
  if (input?.kind === "object") {
    const typed = input.properties.length > 0 ? { ...input, additionalProperties: false } : input;
    collect(typed, modelNames, modelEnums);
  }
  for (const name of modelNames)
    if (!names.has(name)) problems.push(`property ${JSON.stringify(name)} does not read back`);
  for (const value of modelEnums)
    if (!literals.has(value)) problems.push(`enum value ${JSON.stringify(value)} does not read back`);
  const flow = flowLiteral(file);
  if (flow.title !== model.title)
    problems.push(`flow.title reads ${JSON.stringify(flow.title)}, not ${JSON.stringify(model.title)}`);
  if (flow.id !== model.id) problems.push(`flow.id reads ${JSON.stringify(flow.id)}`);
  return problems;
}

function collect(schema: Schema, names: Set<string>, enums: Set<string>): void {
  if (schema.kind === "string") schema.enum?.forEach((value) => enums.add(value));
  if (schema.kind === "array") collect(schema.items, names, enums);
  if (schema.kind === "object") {
    for (const property of schema.properties) {
      names.add(property.name);
      collect(property.schema, names, enums);
    }
    if (typeof schema.additionalProperties !== "boolean") collect(schema.additionalProperties, names, enums);
  }
}

/** The string literal types of the exported `Flow` interface (`flow`'s type; its JSON value is evaluate.ts's). */
function flowLiteral(file: ts.SourceFile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const statement of file.statements) {
    if (!ts.isInterfaceDeclaration(statement) || statement.name.text !== "Flow") continue;
    for (const member of statement.members) {
      if (!ts.isPropertySignature(member) || !ts.isIdentifier(member.name) || !member.type) continue;
      if (ts.isLiteralTypeNode(member.type) && ts.isStringLiteral(member.type.literal))
        out[member.name.text] = member.type.literal.text;
    }
  }
  return out;
}
