/**
 * HTML character references, as the HTML view of a text reads them
 * (views.ts): decimal (`&#47;`), hex (`&#x2F;`, `&#X2f;`) and the named
 * ones of the characters a secret or a token can hold: ASCII punctuation,
 * tab and newline, Latin-1 (U+00A0 to U+00FF, every name HTML gives them)
 * and the euro sign. The full HTML table names many more characters
 * (arrows, maths, Greek); a credential holds none of them, and each is still
 * read in its numeric form. A reference needs its `;`.
 */

/** Names of U+00A0 to U+00FF in order: HTML 4's. */
const LATIN1 = (
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para " +
  "middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute " +
  "Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute " +
  "THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde " +
  "ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml"
).split(" ");

/** HTML5's other names for these characters, as encoders write them. */
const OTHER_NAMES: Readonly<Record<string, string>> = {
  Tab: "\t",
  NewLine: "\n",
  excl: "!",
  quot: '"',
  QUOT: '"',
  num: "#",
  dollar: "$",
  percnt: "%",
  amp: "&",
  AMP: "&",
  apos: "'",
  lpar: "(",
  rpar: ")",
  ast: "*",
  midast: "*",
  plus: "+",
  comma: ",",
  period: ".",
  sol: "/",
  colon: ":",
  semi: ";",
  lt: "<",
  LT: "<",
  equals: "=",
  gt: ">",
  GT: ">",
  quest: "?",
  commat: "@",
  lsqb: "[",
  lbrack: "[",
  bsol: "\\",
  rsqb: "]",
  rbrack: "]",
  Hat: "^",
  lowbar: "_",
  UnderBar: "_",
  grave: "`",
  DiacriticalGrave: "`",
  lcub: "{",
  lbrace: "{",
  verbar: "|",
  vert: "|",
  VerticalLine: "|",
  rcub: "}",
  rbrace: "}",
  NonBreakingSpace: "\u00a0",
  Dot: "\u00a8",
  die: "\u00a8",
  DoubleDot: "\u00a8",
  COPY: "\u00a9",
  circledR: "\u00ae",
  REG: "\u00ae",
  strns: "\u00af",
  PlusMinus: "\u00b1",
  pm: "\u00b1",
  DiacriticalAcute: "\u00b4",
  centerdot: "\u00b7",
  CenterDot: "\u00b7",
  Cedilla: "\u00b8",
  half: "\u00bd",
  angst: "\u00c5",
  div: "\u00f7",
  euro: "\u20ac",
};

const NAMED = new Map<string, string>([
  ...LATIN1.map((name, index): [string, string] => [name, String.fromCharCode(0xa0 + index)]),
  ...Object.entries(OTHER_NAMES),
]);

/** `&`, the longest name above or numeric body (`#x` and at most 8 digits), `;`. */
const MAX_REFERENCE = 1 + Math.max(...[...NAMED.keys()].map((name) => name.length), "#x".length + 8) + 1;

/** What the start of a reference looks like, up to the text's end. */
const PARTIAL = /^&(?:#[xX]?[0-9a-fA-F]*|[A-Za-z][A-Za-z0-9]*)?$/;

/**
 * The character that the reference at `at` (a `&`) stands for, and where it
 * ends; "cut" when the text ends inside what could still be one; undefined
 * when there is none.
 */
export function referenceAt(text: string, at: number): { character: string; end: number } | "cut" | undefined {
  // Looked for within the longest reference only: a text of `&` and no `;` stays linear.
  const limit = Math.min(text.length, at + MAX_REFERENCE);
  let semicolon = at + 1;
  while (semicolon < limit && text.charCodeAt(semicolon) !== 0x3b) semicolon++;
  if (semicolon === limit) return limit === text.length && PARTIAL.test(text.slice(at, limit)) ? "cut" : undefined;
  const body = text.slice(at + 1, semicolon);
  const character = body.startsWith("#") ? numeric(body) : NAMED.get(body);
  return character === undefined ? undefined : { character, end: semicolon + 1 };
}

function numeric(body: string): string | undefined {
  const hex = body[1] === "x" || body[1] === "X";
  const digits = body.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9a-fA-F]{1,8}$/ : /^[0-9]{1,8}$/).test(digits)) return undefined;
  const point = parseInt(digits, hex ? 16 : 10);
  return point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff) ? undefined : String.fromCodePoint(point);
}
