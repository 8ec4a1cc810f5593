/**
 * A JSON Schema `pattern` (an ECMAScript regular expression, run with the
 * `u` flag and unanchored) written in RE2's syntax, for the linear-time
 * engine (linear-pattern.ts). The pattern is known to be valid ECMAScript
 * (`new RegExp(source, "u")` parsed it), so this only reads it, token by
 * token, and writes each token as RE2 means the same thing:
 *
 * - characters as `\x{...}` (inside classes too), so nothing of the text
 *   can read as RE2 syntax (`[[:alpha:]]`, `\Q`, `(?i)`);
 * - `.` and `\s`/`\S` as ECMAScript defines them (RE2's `.` stops only at
 *   `\n`, its `\s` is ASCII); `\d`, `\w`, `\b` and their negations, `^`
 *   and `$` (no `m` flag) mean the same in both, and are kept;
 * - groups as `(?:...)`: `test` reads no captures;
 * - `\p{...}`: General_Category values (short or long names) and scripts
 *   as RE2 names them, `Any`, `ASCII`, `Assigned`.
 *
 * What RE2 cannot run in linear time, or at all, is refused with
 * UnsupportedPatternError saying what: backreferences, lookahead and
 * lookbehind, inline modifiers, Script_Extensions and binary Unicode
 * properties other than those above, repetition counts above 1000.
 */
import { FlowsmithError } from "../errors.js";

/** The linear-time engine cannot run the pattern, so nothing ran it; `reason` says which construct. */
export class UnsupportedPatternError extends FlowsmithError {
  override readonly name = "UnsupportedPatternError";
  declare readonly code: "UNSUPPORTED_PATTERN";
  constructor(
    readonly pattern: string,
    readonly reason: string,
    message = `pattern ${quoted(pattern)} cannot run on the linear-time engine (RE2): ${reason}`,
  ) {
    super("UNSUPPORTED_PATTERN", message);
  }
}

/** The pattern as a message shows it: JSON-quoted (controls escaped) and cut when long. */
function quoted(pattern: string): string {
  const text = JSON.stringify(pattern);
  return text.length > 120 ? `${text.slice(0, 117)}…"` : text;
}

/** RE2's limit on a repetition count: `{1001}` does not compile. */
const MAX_REPEAT = 1000;

type Range = readonly [number, number];

const MAX_CODE_POINT = 0x10ffff;
/** ECMAScript's WhiteSpace and LineTerminator, what `\s` matches. */
const SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
/** What `.` does not match without the `s` flag. */
const LINE_TERMINATORS: readonly Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
const EVERYTHING: readonly Range[] = [[0, MAX_CODE_POINT]];
const ASCII: readonly Range[] = [[0, 0x7f]];

/** General_Category's long names (and the spec's other aliases) by the short ones RE2 knows. */
const CATEGORY_ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    Letter: "L",
    Cased_Letter: "LC",
    Uppercase_Letter: "Lu",
    Lowercase_Letter: "Ll",
    Titlecase_Letter: "Lt",
    Modifier_Letter: "Lm",
    Other_Letter: "Lo",
    Mark: "M",
    Combining_Mark: "M",
    Nonspacing_Mark: "Mn",
    Spacing_Mark: "Mc",
    Enclosing_Mark: "Me",
    Number: "N",
    Decimal_Number: "Nd",
    digit: "Nd",
    Letter_Number: "Nl",
    Other_Number: "No",
    Punctuation: "P",
    punct: "P",
    Connector_Punctuation: "Pc",
    Dash_Punctuation: "Pd",
    Open_Punctuation: "Ps",
    Close_Punctuation: "Pe",
    Initial_Punctuation: "Pi",
    Final_Punctuation: "Pf",
    Other_Punctuation: "Po",
    Symbol: "S",
    Math_Symbol: "Sm",
    Currency_Symbol: "Sc",
    Modifier_Symbol: "Sk",
    Other_Symbol: "So",
    Separator: "Z",
    Space_Separator: "Zs",
    Line_Separator: "Zl",
    Paragraph_Separator: "Zp",
    Other: "C",
    Control: "Cc",
    cntrl: "Cc",
    Format: "Cf",
    Surrogate: "Cs",
    Private_Use: "Co",
    Unassigned: "Cn",
  }),
);
const CATEGORIES: ReadonlySet<string> = new Set(CATEGORY_ALIASES.values());

/** Characters an identity escape may stand for with the `u` flag. */
const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";

/** A class member: a range of code points, or RE2 class text (`\d`, `\p{L}`) that stands for a set. */
type Member = { readonly kind: "char"; readonly code: number } | { readonly kind: "set"; readonly text: string };

export function re2SourceOrThrow(pattern: string): string {
  return new Translation(pattern).run();
}

class Translation {
  private at = 0;
  private out = "";

  constructor(private readonly pattern: string) {}

  run(): string {
    while (this.at < this.pattern.length) this.term();
    return this.out;
  }

  private term(): void {
    const char = this.pattern[this.at] as string;
    switch (char) {
      case "\\":
        this.at += 1;
        this.out += this.escapeOutsideClass();
        return;
      case "[":
        this.out += this.characterClass();
        return;
      case "(":
        this.out += this.groupOpening();
        return;
      case "{":
        this.out += this.repetition();
        return;
      case ".":
        this.at += 1;
        this.out += classText(complement(LINE_TERMINATORS), false);
        return;
      case "^":
      case "$":
      case "|":
      case ")":
      case "*":
      case "+":
      case "?":
        this.at += 1;
        this.out += char;
        return;
      default:
        this.out += literal(this.codePoint());
    }
  }

  /** The code point at the cursor (a surrogate pair is one, as the `u` flag reads it), consumed. */
  private codePoint(): number {
    const code = this.pattern.codePointAt(this.at) as number;
    this.at += code > 0xffff ? 2 : 1;
    return code;
  }

  private groupOpening(): string {
    this.at += 1;
    if (this.pattern[this.at] !== "?") return "(?:";
    const rest = this.pattern.slice(this.at, this.at + 4);
    if (rest.startsWith("?:")) {
      this.at += 2;
      return "(?:";
    }
    if (rest.startsWith("?=") || rest.startsWith("?!")) throw this.unsupported("a lookahead ((?= or (?!)");
    if (rest.startsWith("?<=") || rest.startsWith("?<!")) throw this.unsupported("a lookbehind ((?<= or (?<!)");
    if (rest.startsWith("?<")) {
      // A named group: its name matters only to backreferences, which are refused.
      this.at = this.pattern.indexOf(">", this.at) + 1;
      return "(?:";
    }
    throw this.unsupported("an inline modifier group ((?i: and the like)");
  }

  /** `{n}`, `{n,}` or `{n,m}`, with counts RE2 accepts. */
  private repetition(): string {
    const end = this.pattern.indexOf("}", this.at);
    const body = this.pattern.slice(this.at + 1, end);
    this.at = end + 1;
    const counts = body.split(",").map((count) => (count === "" ? undefined : Number(count)));
    if (counts.some((count) => count !== undefined && count > MAX_REPEAT)) {
      throw this.unsupported(`a repetition count above ${MAX_REPEAT} ({${body}})`);
    }
    return `{${counts.map((count) => (count === undefined ? "" : String(count))).join(",")}}`;
  }

  private escapeOutsideClass(): string {
    const char = this.pattern[this.at] as string;
    if (char === "b" || char === "B") {
      this.at += 1;
      return `\\${char}`;
    }
    if (/[1-9]/.test(char)) throw this.unsupported(`a backreference (\\${char})`);
    if (char === "k") throw this.unsupported("a named backreference (\\k<name>)");
    const member = this.escapeMember();
    if (member.kind === "char") return literal(member.code);
    return `[${member.text}]`;
  }

  private characterClass(): string {
    this.at += 1;
    const negated = this.pattern[this.at] === "^";
    if (negated) this.at += 1;
    let text = "";
    let empty = true;
    while (this.pattern[this.at] !== "]") {
      const low = this.classMember();
      empty = false;
      if (low.kind === "char" && this.pattern[this.at] === "-" && this.pattern[this.at + 1] !== "]") {
        this.at += 1;
        const high = this.classMember();
        // The `u` flag allows no class escape (`\d`) at either end of a range.
        if (high.kind !== "char") throw this.invalid();
        text += `${literal(low.code)}-${literal(high.code)}`;
      } else {
        text += low.kind === "char" ? literal(low.code) : low.text;
      }
    }
    this.at += 1;
    // `[]` matches nothing and `[^]` anything; RE2 reads `[]` differently.
    if (empty) return classText(EVERYTHING, !negated);
    return `[${negated ? "^" : ""}${text}]`;
  }

  private classMember(): Member {
    if (this.pattern[this.at] !== "\\") return { kind: "char", code: this.codePoint() };
    this.at += 1;
    if (this.pattern[this.at] === "b") {
      this.at += 1;
      return { kind: "char", code: 0x08 };
    }
    if (this.pattern[this.at] === "-") {
      this.at += 1;
      return { kind: "char", code: 0x2d };
    }
    return this.escapeMember();
  }

  /** After a `\`: a class escape (a set) or a character escape, inside a class or out. */
  private escapeMember(): Member {
    const char = this.pattern[this.at] as string;
    this.at += 1;
    switch (char) {
      case "d":
      case "D":
      case "w":
      case "W":
        // ASCII in both without the `i` flag.
        return { kind: "set", text: `\\${char}` };
      case "s":
        return { kind: "set", text: rangesText(SPACE) };
      case "S":
        return { kind: "set", text: rangesText(complement(SPACE)) };
      case "p":
      case "P":
        return { kind: "set", text: this.property(char === "P") };
      default:
        return { kind: "char", code: this.characterEscape(char) };
    }
  }

  /** `\p{...}` (or `\P{...}` when negated) as RE2 class text. */
  private property(negated: boolean): string {
    const end = this.pattern.indexOf("}", this.at);
    const body = this.pattern.slice(this.at + 1, end);
    this.at = end + 1;
    const [name = "", value] = body.split("=");
    const named = (re2Name: string, not = negated): string => `\\${not ? "P" : "p"}{${re2Name}}`;
    if (value !== undefined) {
      if (name === "General_Category" || name === "gc") return named(CATEGORY_ALIASES.get(value) ?? value);
      // RE2 knows scripts by their long names (Latin); a short one (Latn) fails to compile, and says so.
      if (name === "Script" || name === "sc") return named(value);
      throw this.unsupported(`the Unicode property \\p{${body}} (RE2 has no Script_Extensions)`);
    }
    const category = CATEGORY_ALIASES.get(name) ?? (CATEGORIES.has(name) ? name : undefined);
    if (category !== undefined) return named(category);
    if (name === "Any") return named("Any");
    if (name === "Assigned") return named("Cn", !negated);
    if (name === "ASCII") return rangesText(negated ? complement(ASCII) : ASCII);
    throw this.unsupported(
      `the Unicode property \\p{${body}} (RE2 knows General_Category values, scripts, Any, ASCII and Assigned)`,
    );
  }

  /** The code point a character escape stands for; `char` (after the `\`) is consumed. */
  private characterEscape(char: string): number {
    switch (char) {
      case "f":
        return 0x0c;
      case "n":
        return 0x0a;
      case "r":
        return 0x0d;
      case "t":
        return 0x09;
      case "v":
        return 0x0b;
      case "0":
        return 0;
      case "c":
        return this.pattern.charCodeAt(this.at++) % 32;
      case "x":
        return this.hex(2);
      case "u":
        return this.unicodeEscape();
      default:
        if (SYNTAX_CHARACTERS.includes(char) || char === "-") return char.charCodeAt(0);
        throw this.invalid();
    }
  }

  /** `\uXXXX`, `\u{X...}`, or a surrogate pair written as two `\uXXXX`, which the `u` flag reads as one code point. */
  private unicodeEscape(): number {
    if (this.pattern[this.at] === "{") {
      const end = this.pattern.indexOf("}", this.at);
      const code = Number.parseInt(this.pattern.slice(this.at + 1, end), 16);
      this.at = end + 1;
      return code;
    }
    const code = this.hex(4);
    if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(this.pattern.slice(this.at, this.at + 6))
    ) {
      this.at += 2;
      const low = this.hex(4);
      return 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    }
    return code;
  }

  private hex(digits: number): number {
    const text = this.pattern.slice(this.at, this.at + digits);
    this.at += digits;
    return Number.parseInt(text, 16);
  }

  private unsupported(reason: string): UnsupportedPatternError {
    return new UnsupportedPatternError(this.pattern, reason);
  }

  /** Only a pattern `new RegExp(source, "u")` refused gets here: callers check that first. */
  private invalid(): Error {
    return new SyntaxError(`not a valid regular expression with the u flag: ${quoted(this.pattern)}`);
  }
}

/** A code point, in a class or out: ASCII letters and digits as they are, anything else as `\x{...}`. */
function literal(code: number): string {
  return isPlain(code) ? String.fromCharCode(code) : `\\x{${code.toString(16)}}`;
}

function isPlain(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function rangesText(ranges: readonly Range[]): string {
  return ranges.map(([low, high]) => (low === high ? literal(low) : `${literal(low)}-${literal(high)}`)).join("");
}

/** A class of the ranges (or of everything else, when `negated`); an empty one matches nothing. */
function classText(ranges: readonly Range[], negated: boolean): string {
  return `[${negated ? "^" : ""}${rangesText(ranges)}]`;
}

/** The code points not in `ranges` (sorted, disjoint). */
function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}
