/**
 * A generated module's text from its statements: printed once by ts-morph,
 * already in prettier's layout (2-space indents, double quotes, one
 * declaration a block, blank lines between declarations), so prettier is
 * not run on it: running it cost more than all the rest of emitting a
 * module, a second path kept for that reason (bench/analysis.md, "Fast
 * paths"). Prettier runs only where that layout is not certain: a code
 * line wider than prettier's printWidth (a long union, a long import), or
 * a literal, brace or blank prettier writes its own way. escape.ts writes
 * strings and numbers as prettier does, so descriptions with quotes or
 * large numbers do not need it. test/generator/emit-layout.test.ts checks
 * that prettier leaves every module unchanged, random ones included.
 */
import { printStructure, StructureKind, ts, type StatementStructures, type WriterFunction } from "ts-morph";
import { prettierQuotesSingle } from "./escape.js";
import { INDENT_WIDTH, PRINT_WIDTH } from "./layout.js";

/**
 * A statement of a generated module: a structure, a writer for what is
 * copied whole from a template, or a statement already printed.
 */
export type ModuleStatement = StatementStructures | WriterFunction | PrintedStatement;

/**
 * A statement whose text is final, after a blank line. For a flow's `spec`:
 * as a structure, its JSON (half of a module's characters) went through
 * ts-morph's declaration printer, which reads a declaration's text back out of
 * the writer a character at a time and scans it again to place commas, a
 * third to a half of the cost of printing a module (bench/analysis.md, "The
 * spec printed apart").
 */
export interface PrintedStatement {
  readonly kind: "printed";
  readonly text: string;
}

/** `header`: the generated-file comment, ending in a newline. */
export async function moduleText(header: string, statements: readonly ModuleStatement[]): Promise<string> {
  const text = printedModule(header, statements);
  if (inPrettierLayout(text)) return text;
  // Loaded only when needed: most runs never pay for loading prettier.
  const { formatTypeScript } = await import("./format.js");
  return formatTypeScript(text);
}

/**
 * One ts-morph print. A printed statement goes to its writer as text, after a
 * blank line: written whole, not as a declaration list, which would copy its
 * text back out of the writer to place commas.
 */
function printedModule(header: string, statements: readonly ModuleStatement[]): string {
  return printStructure(
    {
      kind: StructureKind.SourceFile,
      leadingTrivia: header,
      statements: statements.map((statement) =>
        isPrinted(statement) ? (writer) => writer.blankLineIfLastNot().write(statement.text) : statement,
      ),
    },
    { indentNumberOfSpaces: INDENT_WIDTH },
  );
}

function isPrinted(statement: ModuleStatement): statement is PrintedStatement {
  return typeof statement !== "function" && statement.kind === "printed";
}

/**
 * Whether prettier (format.ts's options) would leave the printed text as it
 * is. The text is read token by token, as prettier's parser would, so that
 * what prettier prints as written (the inside of a template literal, such as
 * a flow's spec, and comments, which it never wraps) is told from code:
 * - a string literal in other quotes than prettier's choice, or a number
 *   prettier shortens (`1e+21`), is not in its layout;
 * - nor are empty braces with a blank inside (`{ }`), trailing blanks
 *   outside a template (a blank line of a description in a JSDoc comment),
 *   and a code line wider than printWidth;
 * - a token a scan alone cannot read right (a `/` that may start a regular
 *   expression, a template with substitutions) is never emitted, and if
 *   seen, answers false.
 */
export function inPrettierLayout(text: string): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  /** Start and end of each template literal and comment, in order. */
  const verbatim: number[] = [];
  const templates: number[] = [];
  let previous = ts.SyntaxKind.Unknown;
  let previousEnd = 0;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    const start = scanner.getTokenStart();
    const end = scanner.getTokenEnd();
    switch (token) {
      case ts.SyntaxKind.WhitespaceTrivia:
      case ts.SyntaxKind.NewLineTrivia:
        continue;
      case ts.SyntaxKind.SingleLineCommentTrivia:
      case ts.SyntaxKind.MultiLineCommentTrivia:
        verbatim.push(start, end);
        continue;
      case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
        verbatim.push(start, end);
        templates.push(start, end);
        break;
      case ts.SyntaxKind.StringLiteral:
        if (!inPreferredQuotes(scanner.getTokenText())) return false;
        break;
      case ts.SyntaxKind.NumericLiteral:
        if (prettierNumber(scanner.getTokenText()) !== scanner.getTokenText()) return false;
        break;
      case ts.SyntaxKind.CloseBraceToken:
        if (previous === ts.SyntaxKind.OpenBraceToken && start !== previousEnd) return false;
        break;
      case ts.SyntaxKind.SlashToken:
      case ts.SyntaxKind.SlashEqualsToken:
      case ts.SyntaxKind.TemplateHead:
      case ts.SyntaxKind.Unknown:
        return false;
    }
    previous = token;
    previousEnd = end;
  }
  // A blank right before a line's end, one at a time: `[ \t]+$` would scan a long run of blanks again from each of its positions.
  for (const blank of text.matchAll(/[ \t](?=\n|$)/g))
    if (!within(templates, blank.index, blank.index + 1)) return false;
  let lineStart = 0;
  for (const line of text.split("\n")) {
    const lineEnd = lineStart + line.length;
    if (line.length > PRINT_WIDTH && !within(verbatim, lineStart + line.length - line.trimStart().length, lineEnd))
      return false;
    lineStart = lineEnd + 1;
  }
  return true;
}

/** Whether [start, end) lies inside one of `ranges` (start, end pairs in order). */
function within(ranges: readonly number[], start: number, end: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (start >= (ranges[i] ?? 0) && end <= (ranges[i + 1] ?? 0)) return true;
  }
  return false;
}

/** Whether a string literal is in the quotes prettier would choose for it (escape.ts), so printed as written. */
function inPreferredQuotes(literal: string): boolean {
  return literal.startsWith(prettierQuotesSingle(literal.slice(1, -1)) ? "'" : '"');
}

/** A numeric literal as prettier prints it (its printNumber). */
function prettierNumber(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(?=\d)/, "$1$2")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");
}
