/**
 * What a generated module does when it loads, checked without a TypeScript
 * transpile per module (that cost more than the rest of the fuzz suite):
 * - `flow` and `spec` are data; their initializers are evaluated from the
 *   syntax tree (literals, `as const`, `JSON.parse` of a literal) and must be
 *   what the model says;
 * - `spec`'s request and 201 schemas go through the runtime's schema checker
 *   as createSession takes them (runtime/flow-checks.ts): both are
 *   schemas it reads, every pattern in them runs on the linear-time engine
 *   (one it cannot run was left out by the generator), none the generator
 *   left to the service is there, and an empty request misses `metadata`;
 * - a case's probes (a hostile value for a catastrophic pattern, a matching
 *   one, a value a pattern left to the service would refuse) are checked
 *   within a bound (test/support/bounded.ts): the request check reports the
 *   field's pattern exactly when the probe says it must.
 */
import ts from "typescript";
import { toFlowSpec } from "../../generator/emit/flow-spec.js";
import { patternsLeftToService } from "../../generator/model/patterns-left.js";
import type { FlowModel } from "../../generator/model/types.js";
import type { FlowSpec } from "../../runtime/flow-spec.js";
import { linearPatterns } from "../../runtime/patterns/index.js";
import { flowChecksOrThrow } from "../../runtime/flow-checks.js";
import { issuesOf, schemaCheckOrThrow, type UncheckedPattern } from "../../runtime/validation/schema-check.js";
import { finishedOrThrow } from "../support/bounded.js";
import type { Probe } from "./descriptions.js";

/** Problems of the module's data, and of its schemas as the runtime checks them. */
export function runtimeProblems(model: FlowModel, index: ts.SourceFile): string[] {
  const problems: string[] = [];
  let spec: FlowSpec;
  try {
    const flow = {
      id: model.id,
      version: model.version,
      environment: model.environment,
      title: model.title,
      path: model.path,
    };
    const actual = valueOf(initializerOrThrow(index, "flow"));
    if (!same(actual, flow)) problems.push(`flow evaluates to ${JSON.stringify(actual)}, not ${JSON.stringify(flow)}`);
    spec = valueOf(initializerOrThrow(index, "spec")) as FlowSpec;
    if (!same(spec, toFlowSpec(model))) problems.push("spec does not evaluate to the model's FlowSpec");
  } catch (error) {
    return [...problems, `flow or spec cannot be evaluated: ${error instanceof Error ? error.message : String(error)}`];
  }
  try {
    for (const which of ["request", "response"] as const) {
      const unchecked: UncheckedPattern[] = [];
      schemaCheckOrThrow(spec[which], { patterns: linearPatterns, onUnchecked: (each) => unchecked.push(each) });
      for (const each of unchecked)
        problems.push(`spec.${which} has a pattern the engine cannot run at ${each.pointer}: ${each.reason}`);
    }
    const text = JSON.stringify(spec);
    for (const left of patternsLeftToService(model)) {
      if (text.includes(`"pattern":${JSON.stringify(left.pattern)}`))
        problems.push(`spec still has the pattern left to the service at ${left.field}`);
    }
    const issues = issuesOf(flowChecksOrThrow(spec).request, {});
    if (!issues.some((issue) => issue.path === "metadata" && issue.message === "is required"))
      problems.push(`an empty request gives ${JSON.stringify(issues)}`);
  } catch (error) {
    problems.push(`the schema checker does not take spec: ${error instanceof Error ? error.message : String(error)}`);
  }
  return problems;
}

/** What the request check says of each probe's field, run within the no-hang bound. */
export function probeProblems(index: ts.SourceFile, probes: readonly Probe[]): string[] {
  const problems: string[] = [];
  if (probes.length === 0) return problems;
  const { request } = flowChecksOrThrow(valueOf(initializerOrThrow(index, "spec")) as FlowSpec);
  for (const probe of probes) {
    try {
      const issues = finishedOrThrow(() => issuesOf(request, probe.request));
      const refused = issues.some(
        (issue) => issue.path === probe.field && issue.message.startsWith("must match pattern "),
      );
      if (refused !== probe.refused)
        problems.push(`${probe.what} at ${probe.field} ${refused ? "failed" : "passed"} its pattern`);
    } catch (error) {
      problems.push(`probing ${probe.field}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

function initializerOrThrow(file: ts.SourceFile, name: string): ts.Expression {
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const declaration = statement.declarationList.declarations.find(
      (d) => ts.isIdentifier(d.name) && d.name.text === name,
    );
    if (declaration?.initializer) return declaration.initializer;
  }
  throw new Error(`no ${name}`);
}

/** The value of a data expression: literals, objects, arrays, `as const`, `JSON.parse(<literal>)`. */
function valueOf(node: ts.Expression): unknown {
  if (ts.isAsExpression(node) || ts.isParenthesizedExpression(node) || ts.isSatisfiesExpression(node))
    return valueOf(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken)
    return -(valueOf(node.operand) as number);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map(valueOf);
  if (ts.isObjectLiteralExpression(node)) {
    const out = Object.create(null) as Record<string, unknown>;
    for (const member of node.properties) {
      if (!ts.isPropertyAssignment(member)) throw new Error(`not data: ${ts.SyntaxKind[member.kind]}`);
      const key = member.name;
      const name = ts.isComputedPropertyName(key)
        ? valueOf(key.expression)
        : ts.isIdentifier(key) || ts.isStringLiteral(key) || ts.isNumericLiteral(key)
          ? key.text
          : undefined;
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

/** Equal as JSON values are (`-0` and `0` alike, as the spec's JSON writes them). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
