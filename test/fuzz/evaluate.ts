/**
 * What a generated module does when it loads, checked without a TypeScript
 * transpile per module (that cost more than the rest of the fuzz suite):
 * - `flow` and `spec` are data; their initializers are evaluated from the
 *   syntax tree (literals, `as const`, `JSON.parse` of a literal) and must be
 *   what the model says;
 * - the validator is ajv's JavaScript plus imports and one type annotation;
 *   with those taken out (by position, from the syntax tree) it runs in a
 *   fresh context, and an empty request must miss `metadata`;
 * - a case's probes (a hostile value for a catastrophic pattern, and a
 *   matching one) are checked within a bound (test/support/bounded.ts):
 *   the hostile one fails its pattern, the matching one passes it.
 */
import ts from "typescript";
import { runInNewContext } from "node:vm";
import { validatorFormats, validatorRuntime } from "@flowsmith/runtime/internal";
import { toFlowSpec } from "../../generator/emit/flow-spec.js";
import type { FlowModel } from "../../generator/model/types.js";
import { finishedOrThrow } from "../support/bounded.js";
import type { Probe } from "./descriptions.js";

interface Validate {
  (data: unknown): boolean;
  errors?: readonly { keyword: string; instancePath: string; params: { missingProperty?: string } }[] | null;
}

/** `validator`: validate.ts as parsed (test/fuzz/type-check.ts parses each once). */
export function runtimeProblems(model: FlowModel, index: ts.SourceFile, validator: ts.SourceFile): string[] {
  const problems: string[] = [];
  try {
    const flow = { id: model.id, version: model.version, environment: model.environment, title: model.title, path: model.path };
    const actual = valueOf(initializerOrThrow(index, "flow"));
    if (!same(actual, flow)) problems.push(`flow evaluates to ${JSON.stringify(actual)}, not ${JSON.stringify(flow)}`);
    if (!same(valueOf(initializerOrThrow(index, "spec")), toFlowSpec(model))) problems.push("spec does not evaluate to the model's FlowSpec");
  } catch (error) {
    problems.push(`flow or spec cannot be evaluated: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const validate = validatorOf(validator);
    const valid = validate({});
    const missing = (validate.errors ?? []).map((error) => error.params.missingProperty);
    if (valid || !missing.includes("metadata")) problems.push(`validate({}) gives ${String(valid)}, errors ${JSON.stringify(validate.errors)}`);
  } catch (error) {
    problems.push(`the validator does not run: ${error instanceof Error ? error.message : String(error)}`);
  }
  return problems;
}

/** What the validator says of each probe's field, run within the no-hang bound. */
export function probeProblems(validator: ts.SourceFile, probes: readonly Probe[]): string[] {
  const problems: string[] = [];
  for (const probe of probes) {
    try {
      const validate = validatorOf(validator);
      finishedOrThrow(() => validate(probe.request));
      const failed = (validate.errors ?? []).some((error) => error.keyword === "pattern" && error.instancePath === probe.field);
      if (failed === probe.matches) problems.push(`the ${probe.matches ? "matching" : "hostile"} value at ${probe.field} ${failed ? "failed" : "passed"} its pattern`);
    } catch (error) {
      problems.push(`probing ${probe.field}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

function initializerOrThrow(file: ts.SourceFile, name: string): ts.Expression {
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const declaration = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
    if (declaration?.initializer) return declaration.initializer;
  }
  throw new Error(`no ${name}`);
}

/** The value of a data expression: literals, objects, arrays, `as const`, `JSON.parse(<literal>)`. */
function valueOf(node: ts.Expression): unknown {
  if (ts.isAsExpression(node) || ts.isParenthesizedExpression(node) || ts.isSatisfiesExpression(node)) return valueOf(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) return -(valueOf(node.operand) as number);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map(valueOf);
  if (ts.isObjectLiteralExpression(node)) {
    const out = Object.create(null) as Record<string, unknown>;
    for (const member of node.properties) {
      if (!ts.isPropertyAssignment(member)) throw new Error(`not data: ${ts.SyntaxKind[member.kind]}`);
      const key = member.name;
      const name = ts.isComputedPropertyName(key) ? valueOf(key.expression) : ts.isIdentifier(key) || ts.isStringLiteral(key) || ts.isNumericLiteral(key) ? key.text : undefined;
      if (typeof name !== "string") throw new Error("not data: a computed key");
      out[name] = valueOf(member.initializer);
    }
    return out;
  }
  if (ts.isCallExpression(node) && node.expression.getText() === "JSON.parse" && node.arguments.length === 1) {
    return JSON.parse(valueOf(node.arguments[0] as ts.Expression) as string) as unknown;
  }
  throw new Error(`not data: ${ts.SyntaxKind[node.kind]}`);
}

/** ajv's function, run without its module syntax: imports become context bindings, the type annotation and `export`s go. */
function validatorOf(file: ts.SourceFile): Validate {
  const source = file.text;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportAssignment(statement)) {
      edits.push({ start: statement.getStart(), end: statement.getEnd(), text: "" });
    } else if (ts.isVariableStatement(statement)) {
      const exported = statement.modifiers?.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (exported) edits.push({ start: exported.getStart(), end: exported.getEnd(), text: "" });
      for (const declaration of statement.declarationList.declarations) {
        if (declaration.type) edits.push({ start: declaration.name.getEnd(), end: declaration.type.getEnd(), text: "" });
      }
    }
  }
  let code = "";
  let at = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    code += source.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  code += `${source.slice(at)}\nvalidate;`;
  return runInNewContext(code, { validatorFormats, validatorRuntime }) as Validate;
}

/** Equal as JSON values are (`-0` and `0` alike, as the spec's JSON writes them). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
