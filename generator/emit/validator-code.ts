/**
 * ajv's standalone code made into a generated module, by edits found on its
 * tokens as TypeScript's scanner reads them (never by searching its text,
 * which holds the description's property names, patterns and enum values
 * inside string literals): the `"use strict"` directive goes (a module is
 * strict, and it must not follow an import), each
 * `require("ajv/dist/runtime/<helper>").default` becomes
 * `validatorRuntime.<helper>`, the `validate` export goes (validator.ts
 * exports the function it named, typed, from a scope of its own), and a
 * string literal holding a character escape.ts would not leave raw is
 * written again through escape.ts.
 *
 * Tokens, not a syntax tree: every pattern here is a short run of tokens,
 * and parsing each validator into a tree (with parents) was a large part of
 * a cold codegen run (bench/analysis.md).
 */
import { ts } from "ts-morph";
import { stringLiteral } from "./escape.js";

/** Helpers runtime/validator-support.ts re-exports as `validatorRuntime`. */
const RUNTIME_HELPERS: ReadonlySet<string> = new Set(["equal", "ucs2length"]);
const AJV_RUNTIME_MODULE = /^ajv\/dist\/runtime\/([a-z0-9_]+)$/;
const RUNTIME_BINDINGS = ["validatorFormats", "validatorRuntime"] as const;

export interface RewiredValidator {
  /** ajv's statements, without its export. */
  readonly code: string;
  /** The function among them that validates (`validate0`), which ajv exported as `validate`. */
  readonly name: string;
  /** The runtime's bindings the code refers to, in a fixed order. */
  readonly imports: readonly (typeof RUNTIME_BINDINGS)[number][];
}

/** ajv wrote something the module cannot carry; validator.ts makes it a CodegenError naming the flow. */
export class ValidatorCodeError extends Error {
  override readonly name = "ValidatorCodeError";
}

interface Token {
  readonly kind: ts.SyntaxKind;
  readonly start: number;
  readonly end: number;
  /** The word (identifier or keyword) as written, or the string literal's value; else empty. */
  readonly value: string;
  /** Braces open before it: 0 at the module's top level. */
  readonly depth: number;
}

/** Tokens that end an operand: a `/` after one divides. */
const DIVISION_AFTER: ReadonlySet<ts.SyntaxKind | undefined> = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
]);

/** Tokens after which a `/` starts a regular expression, not a division. */
const REGEX_AFTER: ReadonlySet<ts.SyntaxKind | undefined> = new Set([
  ts.SyntaxKind.OpenParenToken,
  ts.SyntaxKind.CommaToken,
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.ColonToken,
  ts.SyntaxKind.OpenBracketToken,
  ts.SyntaxKind.ExclamationToken,
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionToken,
  ts.SyntaxKind.OpenBraceToken,
  ts.SyntaxKind.SemicolonToken,
  ts.SyntaxKind.ReturnKeyword,
]);

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function rewireValidatorOrThrow(code: string): RewiredValidator {
  const tokens = tokensOf(code);
  const edits: Edit[] = [];
  const used = new Set<string>();
  let name: string | undefined;
  const kindAt = (i: number) => tokens[i]?.kind;
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as Token;
    const afterDot = kindAt(i - 1) === ts.SyntaxKind.DotToken;
    if (i === 0 && token.kind === ts.SyntaxKind.StringLiteral && token.value === "use strict" && kindAt(1) === ts.SyntaxKind.SemicolonToken) {
      edits.push(lineOf(code, token.start, (tokens[1] as Token).end));
      i += 1;
    } else if (token.kind === ts.SyntaxKind.ExportKeyword && token.depth === 0) {
      const exported = exportedName(tokens, i);
      if (exported === undefined) throw new ValidatorCodeError(`ajv's code has an export other than \`validate\`: ${code.slice(token.start, token.start + 80)}`);
      edits.push(lineOf(code, token.start, (tokens[i + 5] as Token).end));
      name = exported;
      i += 5;
    } else if (isWord(token) && !afterDot && token.value === "require") {
      edits.push(runtimeHelperOrThrow(code, tokens, i));
      used.add("validatorRuntime");
      i += 5;
    } else if (isWord(token) && !afterDot && (RUNTIME_BINDINGS as readonly string[]).includes(token.value)) {
      used.add(token.value);
    } else if (token.kind === ts.SyntaxKind.StringLiteral) {
      const literal = stringLiteral(token.value);
      if (literal !== code.slice(token.start, token.end)) edits.push({ start: token.start, end: token.end, text: literal });
    }
  }
  if (name === undefined) throw new ValidatorCodeError("ajv's code lacks the `validate` export");
  return { code: applyEdits(code, edits), name, imports: RUNTIME_BINDINGS.filter((binding) => used.has(binding)) };
}

function tokensOf(code: string): Token[] {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, true, ts.LanguageVariant.Standard, code);
  const tokens: Token[] = [];
  let depth = 0;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.CloseBraceToken) depth -= 1;
    // A `/` is a division after an operand (`data/0.5`, multipleOf), a regular expression where an
    // operand starts (`key.replace(/~/g, "~0")`); anywhere else the scanner alone cannot tell.
    let unclear = false;
    if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) {
      const before = tokens.at(-1)?.kind;
      if (REGEX_AFTER.has(before)) kind = scanner.reScanSlashToken();
      else unclear = !DIVISION_AFTER.has(before);
    }
    if (
      unclear ||
      kind === ts.SyntaxKind.TemplateHead ||
      kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      kind === ts.SyntaxKind.Unknown ||
      scanner.hasExtendedUnicodeEscape()
    ) {
      // ajv writes none of these: what a scanner alone cannot read for sure is refused rather than guessed at.
      throw new ValidatorCodeError(`ajv's code has a token this rewrite does not read: ${code.slice(scanner.getTokenStart(), scanner.getTokenStart() + 40)}`);
    }
    // Words (identifiers, and keywords such as `require` and `default`) and strings carry a value.
    const value = isWordKind(kind) || kind === ts.SyntaxKind.StringLiteral ? scanner.getTokenValue() : "";
    tokens.push({ kind, start: scanner.getTokenStart(), end: scanner.getTokenEnd(), value, depth });
    if (kind === ts.SyntaxKind.OpenBraceToken) depth += 1;
  }
  return tokens;
}

function isWord(token: Token): boolean {
  return isWordKind(token.kind);
}

function isWordKind(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.Identifier || (kind >= ts.SyntaxKind.FirstKeyword && kind <= ts.SyntaxKind.LastKeyword);
}

/** `export const validate = validateN;`, as ajv's standalone ES module output writes it: `validateN`. */
function exportedName(tokens: readonly Token[], at: number): string | undefined {
  const [, constant, validate, equals, name, semicolon] = tokens.slice(at, at + 6);
  const is = (token: Token | undefined, kind: ts.SyntaxKind, value?: string) => token?.kind === kind && (value === undefined || token.value === value);
  const shaped =
    is(constant, ts.SyntaxKind.ConstKeyword) &&
    is(validate, ts.SyntaxKind.Identifier, "validate") &&
    is(equals, ts.SyntaxKind.EqualsToken) &&
    is(name, ts.SyntaxKind.Identifier) &&
    is(semicolon, ts.SyntaxKind.SemicolonToken);
  return shaped ? name?.value : undefined;
}

/** `require("ajv/dist/runtime/x").default` → `validatorRuntime.x`: the edit spans the whole `.default` access. */
function runtimeHelperOrThrow(code: string, tokens: readonly Token[], at: number): Edit {
  const [call, open, specifier, close, dot, member] = tokens.slice(at, at + 6);
  const helper = specifier?.kind === ts.SyntaxKind.StringLiteral ? AJV_RUNTIME_MODULE.exec(specifier.value)?.[1] : undefined;
  if (
    !call ||
    !member ||
    open?.kind !== ts.SyntaxKind.OpenParenToken ||
    helper === undefined ||
    !RUNTIME_HELPERS.has(helper) ||
    close?.kind !== ts.SyntaxKind.CloseParenToken ||
    dot?.kind !== ts.SyntaxKind.DotToken ||
    !isWord(member) ||
    member.value !== "default"
  ) {
    const end = close?.end ?? call?.end ?? code.length;
    throw new ValidatorCodeError(`ajv emitted a dependency the runtime does not provide: ${code.slice(call?.start ?? 0, end)}`);
  }
  return { start: call.start, end: member.end, text: `validatorRuntime.${helper}` };
}

/** The statement from `start` to `end`, with the line break after it. */
function lineOf(code: string, start: number, end: number): Edit {
  return { start, end: code[end] === "\n" ? end + 1 : end, text: "" };
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
