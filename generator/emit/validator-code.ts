/**
 * ajv's standalone code made into a generated module, by edits found on its
 * syntax tree (never by searching its text, which holds the description's
 * property names, patterns and enum values): the `"use strict"` directive
 * goes (a module is strict, and it must not follow an import), each
 * `require("ajv/dist/runtime/<helper>").default` becomes
 * `validatorRuntime.<helper>`, the `validate` export gets its type, and a
 * string literal holding a character escape.ts would not leave raw is
 * written again through escape.ts.
 */
import { ts } from "ts-morph";
import { stringLiteral } from "./escape.js";

/** Helpers runtime/validator-support.ts re-exports as `validatorRuntime`. */
const RUNTIME_HELPERS: ReadonlySet<string> = new Set(["equal", "ucs2length"]);
const AJV_RUNTIME_MODULE = /^ajv\/dist\/runtime\/([a-z0-9_]+)$/;

export interface RewiredValidator {
  readonly code: string;
  /** The runtime's bindings the code refers to, in a fixed order. */
  readonly imports: readonly ("validatorFormats" | "validatorRuntime")[];
}

/** ajv wrote something the module cannot carry; validator.ts makes it a CodegenError naming the flow. */
export class ValidatorCodeError extends Error {
  override readonly name = "ValidatorCodeError";
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function rewireValidatorOrThrow(code: string): RewiredValidator {
  const file = ts.createSourceFile("validate.js", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const edits: Edit[] = [];
  const used = new Set<string>();
  let typedExport = false;
  for (const statement of file.statements) {
    if (isUseStrict(statement)) {
      const end = statement.getEnd();
      edits.push({ start: statement.getFullStart(), end: code[end] === "\n" ? end + 1 : end, text: "" });
    }
    if (isValidateExport(statement)) {
      const declaration = statement.declarationList.declarations[0] as ts.VariableDeclaration;
      edits.push({ start: declaration.name.getEnd(), end: declaration.name.getEnd(), text: ": RequestValidator" });
      typedExport = true;
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "require") {
      edits.push(runtimeHelperOrThrow(node, used));
      return;
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "validatorFormats") {
      used.add("validatorFormats");
    }
    if (ts.isStringLiteral(node)) {
      const literal = stringLiteral(node.text);
      if (literal !== node.getText(file)) edits.push({ start: node.getStart(file), end: node.getEnd(), text: literal });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (!typedExport) throw new ValidatorCodeError("ajv's code lacks the `validate` export");
  return {
    code: applyEdits(code, edits),
    imports: (["validatorFormats", "validatorRuntime"] as const).filter((name) => used.has(name)),
  };
}

/** `require("ajv/dist/runtime/x").default` → `validatorRuntime.x`: the edit spans the whole `.default` access. */
function runtimeHelperOrThrow(call: ts.CallExpression, used: Set<string>): Edit {
  const [argument] = call.arguments;
  const specifier = argument && ts.isStringLiteral(argument) ? argument.text : undefined;
  const helper = specifier === undefined ? undefined : AJV_RUNTIME_MODULE.exec(specifier)?.[1];
  const access = call.parent;
  if (
    helper === undefined ||
    !RUNTIME_HELPERS.has(helper) ||
    !ts.isPropertyAccessExpression(access) ||
    access.expression !== call ||
    access.name.text !== "default"
  ) {
    throw new ValidatorCodeError(`ajv emitted a dependency the runtime does not provide: ${call.getText()}`);
  }
  used.add("validatorRuntime");
  return { start: access.getStart(), end: access.getEnd(), text: `validatorRuntime.${helper}` };
}

function isUseStrict(statement: ts.Statement): boolean {
  return ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression) && statement.expression.text === "use strict";
}

/** `export const validate = validateN;`, as ajv's standalone ES module output writes it. */
function isValidateExport(statement: ts.Statement): statement is ts.VariableStatement {
  if (!ts.isVariableStatement(statement)) return false;
  const exported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;
  const [declaration, ...others] = statement.declarationList.declarations;
  return (
    exported &&
    others.length === 0 &&
    declaration !== undefined &&
    ts.isIdentifier(declaration.name) &&
    declaration.name.text === "validate" &&
    declaration.type === undefined &&
    declaration.initializer !== undefined &&
    ts.isIdentifier(declaration.initializer)
  );
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const edit of sorted) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}
