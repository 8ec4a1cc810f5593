/**
 * A generated module's text from its statements: printed once by ts-morph,
 * already in prettier's layout (2-space indents, double quotes, one
 * declaration a block, blank lines between declarations), so prettier is
 * not run on it: running it cost 4-8 ms a module, more than all the rest of
 * emitting one. Prettier runs only where that layout is not certain: a code
 * line wider than prettier's printWidth (a long union, a long import), or a
 * construct prettier writes its own way (a string literal with an escaped
 * double quote, a number with a `+` exponent, empty braces, trailing blanks).
 * test/generator/emit-layout.test.ts checks that prettier leaves every
 * module unchanged, random ones included.
 */
import { printStructure, StructureKind, type StatementStructures, type WriterFunction } from "ts-morph";
import { INDENT_WIDTH, PRINT_WIDTH } from "./layout.js";

/** A statement of a generated module: a structure, or a writer for what is copied whole from a template. */
export type ModuleStatement = StatementStructures | WriterFunction;

/** `header`: the generated-file comment, ending in a newline. */
export async function moduleText(header: string, statements: readonly ModuleStatement[]): Promise<string> {
  const text = printStructure(
    { kind: StructureKind.SourceFile, leadingTrivia: header, statements: [...statements] },
    { indentNumberOfSpaces: INDENT_WIDTH },
  );
  if (inPrettierLayout(text)) return text;
  // Loaded only when needed: most runs never pay for loading prettier.
  const { formatTypeScript } = await import("./format.js");
  return formatTypeScript(text);
}

/** Whether prettier (format.ts's options) would leave the printed text as it is. */
export function inPrettierLayout(text: string): boolean {
  // Escaped double quotes: prettier may switch the literal to single quotes. `e+`: it drops the `+`.
  // Empty braces (an interface without members, `export {}`): ts-morph writes `{ }` or `{\n}`, prettier `{}`.
  // Trailing blanks (a blank line of a description in a JSDoc comment): prettier removes them.
  if (text.includes('\\"') || /\de\+|\{ \}|\{\n\s*\}|[ \t]\n/.test(text)) return false;
  for (const line of text.split("\n")) {
    if (line.length > PRINT_WIDTH && !isCommentLine(line)) return false;
  }
  return true;
}

/** Prettier does not wrap comments; emitted comment lines start with `//`, `/**` or ` *`. */
function isCommentLine(line: string): boolean {
  const start = line.trimStart();
  return start.startsWith("//") || start.startsWith("/*") || start.startsWith("*");
}
