/**
 * The one path by which text from a flow description (titles, descriptions,
 * enum values, property and block names, file paths) reaches generated code.
 * Descriptions are arbitrary text, so every other emit module hands such text
 * to one of these functions and never interpolates it itself.
 */

import { ts } from "ts-morph";

const ID_START = /^[\p{ID_Start}$_]$/u;
// eslint-disable-next-line no-control-regex -- every ASCII character, controls included
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Printable ASCII, tabs and newlines: nothing visible() would escape. */
const PLAIN = /^[\t\n\x20-\x7e]*$/;
const ID_CONTINUE = /^[\p{ID_Continue}$\u200C\u200D]$/u;
/**
 * Longest type or binding name made from text (a property or flow name can
 * be any length); the name allocator keeps truncated names apart.
 */
const MAX_NAME_LENGTH = 64;

/** Words that cannot name a binding (a namespace re-export users import by name). */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "arguments",
  "eval",
  "undefined",
  "NaN",
  "Infinity",
]);

/**
 * Characters that are legal in a literal or a comment but would not read as
 * what they are: line separators (line terminators to JavaScript), DEL and
 * the C1 controls, the byte order mark, and the bidirectional controls that
 * can make code display in another order than it runs.
 */
const INVISIBLE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
/** C0 controls but tab and newline, which comments cannot show either. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f]/g;
/** A UTF-16 surrogate without its other half: no UTF-8 file can hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A string literal that means exactly `text`: JSON's escaping (controls, lone surrogates), plus INVISIBLE. */
export function stringLiteral(text: string): string {
  return lastBackslashAsEscape(JSON.stringify(text).replace(INVISIBLE, unicodeEscape), '"');
}

/**
 * A string literal for generated TypeScript that prettier formats (index.ts):
 * stringLiteral's escapes, in the quotes prettier prefers, so that it finds
 * nothing to change: double quotes, unless the text holds more double quotes
 * than single ones. Then single quotes, with the escapes prettier's own
 * requoting leaves: `\'` for a single quote, a double quote bare, every other
 * escape as it was.
 */
export function codeStringLiteral(text: string): string {
  if (!prettierQuotesSingle(text)) return stringLiteral(text);
  const escaped = JSON.stringify(text).slice(1, -1).replace(INVISIBLE, unicodeEscape);
  const requoted = escaped.replace(/\\(["'\\])|'/g, (match, escapedChar: string | undefined) =>
    escapedChar === undefined ? "\\'" : escapedChar === '"' ? '"' : match,
  );
  return lastBackslashAsEscape(`'${requoted}'`, "'");
}

/**
 * prettier's choice of quotes for a string (its getPreferredQuote, with
 * singleQuote off): single quotes when `text` holds more double quotes than
 * single ones. Escapes change neither count, so a literal's text as written
 * answers as its value does.
 */
export function prettierQuotesSingle(text: string): boolean {
  let doubles = 0;
  let singles = 0;
  for (const char of text) {
    if (char === '"') doubles += 1;
    else if (char === "'") singles += 1;
  }
  return doubles > singles;
}

/**
 * ts-morph's writer tracks strings to tell code from text, and takes a
 * quote after a backslash as escaped: in `"a\\"` it misses the end of the
 * string, and later text of the module (a `/*` in another literal) looks to
 * it like a comment, which it then closes by writing `*\/`. A literal whose
 * text ends in a backslash writes that one as `\u005c` instead.
 */
function lastBackslashAsEscape(literal: string, quote: string): string {
  const end = `\\\\${quote}`;
  return literal.endsWith(end) ? `${literal.slice(0, -end.length)}\\u005c${quote}` : literal;
}

/**
 * A template literal without substitutions that means exactly `text`, for
 * multi-line text kept readable in generated code (the runtime spec's JSON).
 */
export function templateLiteral(text: string): string {
  const escaped = text
    .replace(/[\\`]/g, (c) => `\\${c}`)
    .replace(/\$\{/g, "\\${")
    .replace(/\r/g, "\\r")
    .replace(CONTROL, unicodeEscape)
    .replace(LONE_SURROGATE, unicodeEscape)
    .replace(INVISIBLE, unicodeEscape);
  return lastBackslashAsEscape(`\`${escaped}\``, "`");
}

/**
 * A numeric literal for a finite number (descriptions are JSON/YAML, so never
 * NaN or Infinity), as prettier prints it: an exponent without its `+`.
 */
export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${String(value)}`);
  return Object.is(value, -0) ? "0" : JSON.stringify(value).replace("e+", "e");
}

/** A property key: bare when it is an ES identifier name (reserved words included), else quoted. */
export function propertyKey(name: string): string {
  return isIdentifierName(name) ? name : codeStringLiteral(name);
}

/**
 * An identifier to both Unicode (as this Node knows it) and TypeScript,
 * whose tables are older: thousands of letters Node accepts are not
 * identifier characters to tsc, and a bare key made of one would not compile.
 */
function isIdentifierName(text: string): boolean {
  // ASCII answers the same by both tables, without a lookup per character.
  if (ASCII_IDENTIFIER.test(text)) return true;
  if (ASCII.test(text)) return false;
  const chars = Array.from(text);
  const [first, ...rest] = chars;
  return first !== undefined && isIdentifierStart(first) && rest.every(isIdentifierPart);
}

function isIdentifierStart(char: string): boolean {
  return ID_START.test(char) && ts.isIdentifierStart(char.codePointAt(0) ?? 0, ts.ScriptTarget.ESNext);
}

/**
 * Text for a JSDoc comment body, safe in any position of any line:
 * - no `/*`, `*\/` or `//` remains (a backslash goes between the two
 *   characters): `*\/` would close the comment, and ts-morph's writer reads
 *   `/*` and `//` as comments opening inside the text and "closes" them with
 *   text of its own;
 * - `@` after anything but a letter, digit or `._%+-` gets a backslash, so
 *   no text starts a tag (TypeScript starts one after any whitespace) or an
 *   inline tag (`{@link}`), while `name@example.com` reads as written;
 * - line separators become newlines, so every line gets its ` * `;
 * - controls, lone surrogates and INVISIBLE characters are written `\uXXXX`.
 * Editors render JSDoc as Markdown, where `\/`, `\*` and `\@` show as the
 * character itself, so hovers read as the description was written.
 */
export function jsDocText(text: string): string {
  return visible(normalizeNewlines(text))
    .replace(/\/(?=[*/])|\*(?=\/)/g, "$&\\")
    .replace(/(^|[^A-Za-z0-9._%+-])@/gm, "$1\\@")
    .trim();
}

/** Text for a single `//` comment line: every line break is folded into a space. */
export function lineCommentText(text: string): string {
  return visible(normalizeNewlines(text).replace(/\n/g, " "));
}

/**
 * A PascalCase type name from arbitrary text: words split at characters that
 * cannot continue an identifier, first letter of each word upper-cased; a
 * name that would start with a digit gets a `_`. `fallback` when nothing is left.
 */
export function typeName(text: string, fallback: string): string {
  const words = splitWords(text);
  const joined = words.map(capitalize).join("");
  return safeStart(joined, fallback);
}

/** A camelCase binding name (not a reserved word) from arbitrary text, for namespace re-exports. */
export function bindingName(text: string, fallback: string): string {
  const words = splitWords(text);
  const [first = "", ...rest] = words;
  const joined = safeStart(first + rest.map(capitalize).join(""), fallback);
  return RESERVED_WORDS.has(joined) ? `${joined}_` : joined;
}

/** `prefix + name` when that stays within MAX_NAME_LENGTH, else `name` alone (names.ts makes it unique). */
export function joinedTypeName(prefix: string, name: string): string {
  return Array.from(prefix + name).length <= MAX_NAME_LENGTH ? prefix + name : name;
}

function splitWords(text: string): string[] {
  // In ASCII the identifier characters that are not `$` or `_` are letters and digits.
  if (ASCII.test(text)) return text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const words: string[] = [];
  let current = "";
  for (const char of Array.from(text.normalize("NFC"))) {
    if (isIdentifierPart(char) && char !== "$" && char !== "_") {
      current += char;
    } else if (current) {
      words.push(current);
      current = "";
    }
  }
  if (current) words.push(current);
  return words;
}

function capitalize(word: string): string {
  const [first = "", ...rest] = Array.from(word);
  return first.toUpperCase() + rest.join("");
}

function isIdentifierPart(char: string): boolean {
  return ID_CONTINUE.test(char) && ts.isIdentifierPart(char.codePointAt(0) ?? 0, ts.ScriptTarget.ESNext);
}

function safeStart(text: string, fallback: string): string {
  const name = Array.from(text).slice(0, MAX_NAME_LENGTH).join("");
  if (isIdentifierName(name)) return name;
  // Words hold only identifier-continue characters, so `_` fixes a leading digit.
  return name && isIdentifierName(`_${name}`) ? `_${name}` : fallback;
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?|\u2028|\u2029/g, "\n");
}

/** Comment text with controls (but tab and newline), lone surrogates and INVISIBLE characters as `\uXXXX`. */
function visible(text: string): string {
  if (PLAIN.test(text)) return text;
  return text.replace(CONTROL, unicodeEscape).replace(LONE_SURROGATE, unicodeEscape).replace(INVISIBLE, unicodeEscape);
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
