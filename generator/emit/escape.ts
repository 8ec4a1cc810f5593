/**
 * The one path by which text from a flow description (titles, descriptions,
 * enum values, property and block names, file paths) reaches generated code.
 * Descriptions are arbitrary text, so every other emit module hands such text
 * to one of these functions and never interpolates it itself.
 */

const ID_START = /^[\p{ID_Start}$_]$/u;
const ID_CONTINUE = /^[\p{ID_Continue}$\u200C\u200D]$/u;

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
 * A string literal that means exactly `text` (JSON plus the two line
 * separators JSON leaves raw). A final backslash is written `\u005c`: ts-morph's
 * writer takes the closing quote of `"a\\"` for an escaped one, and then reads
 * the code after it as string and later strings as code (it closed a "comment"
 * it saw in one with a stray `*\/`).
 */
export function stringLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
    .replace(/\\\\"$/, '\\u005c"');
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
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `\`${escaped}\``;
}

/** A numeric literal for a finite number (descriptions are JSON/YAML, so never NaN or Infinity). */
export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${String(value)}`);
  return Object.is(value, -0) ? "0" : JSON.stringify(value);
}

/** A property key: bare when it is an ES identifier name (reserved words included), else quoted. */
export function propertyKey(name: string): string {
  return isIdentifierName(name) ? name : stringLiteral(name);
}

export function isIdentifierName(text: string): boolean {
  const chars = Array.from(text);
  const [first, ...rest] = chars;
  return first !== undefined && ID_START.test(first) && rest.every((c) => ID_CONTINUE.test(c));
}

/**
 * Text for a JSDoc comment body: `*\/` can no longer close the comment, a
 * leading `@` no longer starts a tag and `{@` no longer starts an inline tag.
 * Line separators become plain newlines so ts-morph prefixes every line.
 */
export function jsDocText(text: string): string {
  return normalizeNewlines(text)
    .split("\n")
    .map((line) =>
      line
        .replace(/\*\//g, "*\\/")
        .replace(/^(\s*)@/, "$1\\@")
        .replace(/\{@/g, "{\\@"),
    )
    .join("\n")
    .trim();
}

/** Text for a single `//` comment line: every line break is folded into a space. */
export function lineCommentText(text: string): string {
  return normalizeNewlines(text).replace(/\n/g, " ");
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

function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = "";
  for (const char of Array.from(text.normalize("NFC"))) {
    if (ID_CONTINUE.test(char) && char !== "$" && char !== "_") {
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

function safeStart(name: string, fallback: string): string {
  if (isIdentifierName(name)) return name;
  // Words hold only identifier-continue characters, so `_` fixes a leading digit.
  return name && isIdentifierName(`_${name}`) ? `_${name}` : fallback;
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?|\u2028|\u2029/g, "\n");
}
