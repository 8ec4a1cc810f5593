/**
 * Text arbitraries for the fuzz suite: strings built from pieces that have
 * broken code generators (comment openers and closers, JSDoc tags, string
 * and template delimiters, line and paragraph separators, controls, lone
 * surrogates, bidirectional overrides, letters newer than TypeScript's
 * identifier tables, code that would run if it escaped its literal) mixed
 * with ordinary Unicode text.
 */
import fc from "fast-check";

/** Pieces that mean something to a lexer, a comment, a formatter or a terminal. */
const FRAGMENTS: readonly string[] = [
  "*/",
  "/*",
  "/**",
  "//",
  "*",
  "/",
  "*/*/",
  "/*/",
  "* /",
  " */ ",
  "**/",
  "\\*/",
  "@param",
  "@returns x",
  "\n@deprecated",
  "{@link X}",
  "{@",
  "@",
  " @x ",
  "\t@tab",
  "a@b.c",
  "`",
  "${",
  "${x}",
  "}",
  "{",
  "'",
  '"',
  "\\",
  "\\u2028",
  "\\n",
  "\\'",
  '\\"',
  "\n",
  "\r",
  "\r\n",
  "\u2028",
  "\u2029",
  "\u0085",
  "\t",
  "\v",
  "\f",
  "\u0000",
  "\u0007",
  "\u001b[31m",
  "\u007f",
  "\u009b",
  "\ud800",
  "\udfff",
  "\udc00x",
  "x\udbff",
  "\u202e",
  "\u2066",
  "\u200f",
  "\u061c",
  "\ufeff",
  "\u200b",
  "\u200d",
  "\u088f",
  "\u1c89",
  "\ua7cb",
  "\u{105c0}",
  "\u{2b73a}",
  "\u{323b0}",
  "é",
  "e\u0301",
  "ß",
  "ŉ",
  "İ",
  "ﬀ",
  "𝔘",
  "😀",
  "👩‍👩‍👧",
  "検証",
  "Ωμέγα",
  "مرحبا",
  "עברית",
  "</script>",
  "<!--",
  "-->",
  "]]>",
  "#!",
  "#",
  "?",
  "%2e%2e",
  "..",
  "./",
  "../",
  "require(x)",
  'require("fs")',
  'import("x")',
  "process.exit(1)",
  '"; throw 1; "',
  "`); throw 1; (`",
  "*/ throw 1; /*",
  "\n*/ export const pwned = 1; /*\n",
  "}); export const pwned = 1; ({",
  "'+1+'",
  "\\u0022",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "class",
  "default",
  "await",
  "yield",
  "enum",
  "Promise",
  "Array",
  "Input",
  "Locale",
  "CreateSessionRequest",
  "spec",
  "flow",
  "validate",
  "undefined",
  "NaN",
  "null",
  "true",
  "1st",
  "-",
  "_",
  "$",
  "$$",
  " ",
  "  ",
  "[",
  "]",
  "[]",
  "a[b]",
  ":",
  ",",
  ";",
  "=",
];

// Code points drawn directly: fast-check's "binary" unit builds a map of all of Unicode on first use.
const codePoint = fc
  .integer({ min: 0x20, max: 0x10ffff })
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCodePoint(code));
const ordinary = fc.array(codePoint, { maxLength: 6 }).map((chars) => chars.join(""));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const control = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));

/** One piece of hostile text. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 3, arbitrary: ordinary },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: control },
);

const texts = new Map<number, fc.Arbitrary<string>>();

/** Free text as descriptions and titles hold it: up to `maxPieces` pieces, now and then very long. */
export function hostileText(maxPieces = 8): fc.Arbitrary<string> {
  let text = texts.get(maxPieces);
  if (!text) {
    text = makeHostileText(maxPieces);
    texts.set(maxPieces, text);
  }
  return text;
}

function makeHostileText(maxPieces: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.array(piece, { maxLength: maxPieces }).map((pieces) => pieces.join("")) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(piece, fc.integer({ min: 200, max: 1200 }))
        .map(([text, times]) => text.repeat(times).slice(0, 2000)),
    },
  );
}

/**
 * A name (property, data block, enum value): never empty, otherwise as
 * hostile as text but Unicode (no lone surrogate: no request could carry
 * such a name, and the model refuses it).
 */
export function hostileName(): fc.Arbitrary<string> {
  return names;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Built once: arbitraries (stringMatching above all) are costly to make, cheap to draw from.
const names = fc
  .oneof(
    { weight: 3, arbitrary: fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join("")) },
    { weight: 2, arbitrary: fc.stringMatching(/^[a-z][A-Za-z0-9]{0,10}$/) },
  )
  .filter((name) => name !== "" && !LONE_SURROGATE.test(name));

/** A regular expression (valid with the `u` flag) that matches `text` literally: hostile text reaching `@pattern`. */
export function literalPattern(): fc.Arbitrary<string> {
  return patterns;
}

const patterns = hostileText(4).map((text) => `^${Array.from(text).map(escapeRegExpChar).join("")}$`);

function escapeRegExpChar(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

/** A flow id the service could issue: `[A-Za-z0-9._~-]+`, not `.` or `..`. */
export function safeFlowId(): fc.Arbitrary<string> {
  return flowIds;
}

const flowIds = fc
  .oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/))
  .filter((id) => id !== "." && id !== "..");

/** A flow id that must be refused: it would change the request's path or query. */
export function unsafeFlowId(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(".", "..", "x#frag", "x?y=1", "%2e%2e", "a\tb", "a\\b", "a b", "é", "a%2Fb", "a/b", "x\u0000"),
    fc
      .tuple(safeFlowId(), fc.constantFrom("#", "?", "%", " ", "\\", "\t", "\n", "é", "@", ":", "+", "[", "*"))
      .map(([id, bad]) => `${id}${bad}`),
  );
}
