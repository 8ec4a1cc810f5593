/**
 * The linear-time pattern engine (runtime/patterns/linear-pattern.ts and
 * pattern-translation.ts): it means what ECMAScript means, on the cases
 * where RE2's own reading differs and on generated patterns compared with
 * the native RegExp on short texts; it refuses, with a reason, what RE2
 * cannot run; and it finishes on long hostile texts the native RegExp
 * would never finish (bounded by size, test/support/bounded.ts).
 */
import fc from "fast-check";
import { linearPatternOrThrow, UnsupportedPatternError } from "../../runtime/patterns/linear-pattern.js";
import { re2SourceOrThrow } from "../../runtime/patterns/pattern-translation.js";
import { finishedOrThrow } from "../support/bounded.js";

const native = (pattern: string, text: string): boolean => new RegExp(pattern, "u").test(text);
const linear = (pattern: string, text: string): boolean => linearPatternOrThrow(pattern).test(text);

describe("means what ECMAScript means where RE2's own syntax differs", () => {
  const cases: [string, { pattern: string; texts: string[] }][] = [
    [
      ". stops at every line terminator",
      { pattern: "^.$", texts: ["a", "\n", "\r", "\u2028", "\u2029", "\u0085", "😀", "\ud800"] },
    ],
    [
      "\\s is Unicode white space",
      {
        pattern: "^\\s$",
        texts: [" ", "\t", "\v", "\u00a0", "\u1680", "\u2007", "\u3000", "\ufeff", "\u0085", "\u200b", "a"],
      },
    ],
    ["\\S is the rest", { pattern: "^\\S$", texts: [" ", "\u00a0", "\ufeff", "a", "😀"] }],
    ["[\\S] and [^\\s]", { pattern: "^[\\S][^\\s]$", texts: ["ab", "a ", " a", "a\u00a0"] }],
    ["\\d and \\w are ASCII", { pattern: "^\\d\\w$", texts: ["1a", "1_", "١a", "1é", "a1"] }],
    ["\\b is an ASCII word boundary", { pattern: "a\\b", texts: ["a", "ab", "a é", "aé"] }],
    ["[] matches nothing", { pattern: "[]", texts: ["", "a", "]"] }],
    ["[^] matches anything", { pattern: "^[^]$", texts: ["\n", "a", "😀"] }],
    ["[]a is not a class", { pattern: "[]a|b", texts: ["a", "]a", "b"] }],
    ["$ is the end of the text", { pattern: "a$", texts: ["a", "a\n", "ab"] }],
    ["^ is the start of the text", { pattern: "^a", texts: ["a", "\na", "ba"] }],
    ["code point escapes", { pattern: "^\\u{1F600}\\uD83D\\uDE00\\u00e9\\x41$", texts: ["😀😀éA", "😀😀e\u0301A"] }],
    ["a lone surrogate", { pattern: "^\\uD83D$", texts: ["\ud83d", "😀"] }],
    ["controls", { pattern: "^\\cJ\\0\\t[\\b]$", texts: ["\n\0\t\b", "\n0\t\b"] }],
    ["RE2's syntax as plain text", { pattern: "^[[:alpha:]\\]$", texts: ["[]", ":]", "a]", "b]"] }],
    [
      "escaped syntax characters",
      { pattern: "^\\^\\$\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/$", texts: ["^$.*+?()[]{}|/"] },
    ],
    ["class ranges and escapes", { pattern: "^[a-c\\-\\]\\\\é-ë]+$", texts: ["abc-]\\é", "èd", "ëê"] }],
    [
      "general categories, short and long",
      {
        pattern: "^\\p{L}\\p{Letter}\\p{gc=Lu}\\p{General_Category=Decimal_Number}\\P{L}$",
        texts: ["aéZ٣1", "aéz٣1", "aéZ٣a"],
      },
    ],
    ["scripts", { pattern: "^\\p{Script=Greek}\\p{sc=Latin}$", texts: ["αa", "aα", "ʹa"] }],
    [
      "Any, ASCII, Assigned",
      {
        pattern: "^\\p{Any}\\p{ASCII}\\P{ASCII}\\p{Assigned}\\P{Assigned}$",
        texts: ["xaéa\u0378", "xaéa\u0379", "xaaa\u0378", "xaé\u0378\u0378"],
      },
    ],
    ["properties in classes", { pattern: "^[\\p{Lu}\\d]+[^\\P{Ll}]$", texts: ["A1a", "A1A", "a"] }],
    ["groups of every kind", { pattern: "^(a)(?:b)(?<c>c)$", texts: ["abc", "ab"] }],
    ["lazy and bounded quantifiers", { pattern: "^a{2}b{1,}?c{0,2}d??$", texts: ["aab", "aabbbccd", "ab", "aabccc"] }],
    ["unanchored", { pattern: "b+", texts: ["abba", "a"] }],
  ];
  test.each(cases)("%s", (_, { pattern, texts }) => {
    for (const text of texts) expect([text, linear(pattern, text)]).toEqual([text, native(pattern, text)]);
  });

  test("characters reach RE2 as code points, never as its syntax", () => {
    expect(re2SourceOrThrow("a.b")).toBe("a[\\x{0}-\\x{9}\\x{b}-\\x{c}\\x{e}-\\x{2027}\\x{202a}-\\x{10ffff}]b");
    expect(re2SourceOrThrow("(?<n>x)[^]")).toBe("(?:x)[\\x{0}-\\x{10ffff}]");
    expect(re2SourceOrThrow("[[:alpha:]\\]")).toBe("[\\x{5b}\\x{3a}alpha\\x{3a}]\\x{5d}");
  });
});

describe("agrees with the native RegExp on generated patterns and short texts", () => {
  const CHARS = [
    "a",
    "b",
    "A",
    "0",
    "_",
    " ",
    "-",
    "é",
    "😀",
    "\n",
    "\r",
    "\u2028",
    "\u00a0",
    "\t",
    "/",
    ".",
    "]",
    "\ud83d",
    "\u0378",
    "α",
  ];
  const escapes = fc.constantFrom(
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    ".",
    "\\.",
    "\\u00e9",
    "\\u{1F600}",
    "\\uD83D\\uDE00",
    "\\uD83D",
    "\\x41",
    "\\cJ",
    "\\0",
    "\\n",
    "\\t",
    "\\/",
    "\\p{L}",
    "\\P{L}",
    "\\p{Lu}",
    "\\p{Letter}",
    "\\p{gc=Nd}",
    "\\p{Script=Latin}",
    "\\p{sc=Greek}",
    "\\p{ASCII}",
    "\\P{ASCII}",
    "\\p{Any}",
    "\\p{Assigned}",
    "\\P{Assigned}",
    "\\b",
    "\\B",
    "^",
    "$",
  );
  const plain = fc.constantFrom(...CHARS.filter((char) => !"./]".includes(char)));
  const classMember = fc.oneof(
    plain.filter((char) => char !== "-"),
    fc.constantFrom(
      "a-z",
      "A-Z",
      "0-9",
      "é-ë",
      "\\d",
      "\\w",
      "\\s",
      "\\S",
      "\\p{L}",
      "\\P{Lu}",
      "\\b",
      "\\-",
      "\\]",
      "\\u{1F600}",
      "\\n",
    ),
  );
  const characterClass = fc
    .tuple(fc.boolean(), fc.array(classMember, { maxLength: 4 }))
    .map(([negated, members]) => `[${negated ? "^" : ""}${members.join("")}]`);
  const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "{0,2}", "{2}", "{1,}", "*?", "+?", "{1,3}?");
  const { pattern } = fc.letrec<{ pattern: string; term: string; atom: string }>((tie) => ({
    pattern: fc.array(tie("term"), { minLength: 1, maxLength: 3 }).map((terms) => terms.join("|")),
    term: fc.array(tie("atom"), { maxLength: 4 }).map((atoms) => atoms.join("")),
    atom: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.tuple(fc.oneof(plain, escapes, characterClass), quantifier).map(([atom, q]) => atom + q),
      fc
        .tuple(fc.constantFrom("(", "(?:", "(?<g>"), tie("pattern"), quantifier)
        .map(([open, inner, q]) => `${open}${inner})${q}`),
    ),
  }));
  const valid = pattern.filter((source) => {
    try {
      new RegExp(source, "u");
      return true;
    } catch {
      return false;
    }
  });
  const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 8 }).map((chars) => chars.join(""));

  test("the same answer for every text", () => {
    fc.assert(
      fc.property(valid, fc.array(text, { minLength: 1, maxLength: 8 }), (source, texts) => {
        const compiled = linearPatternOrThrow(source);
        for (const each of texts)
          expect([source, each, compiled.test(each)]).toEqual([source, each, native(source, each)]);
      }),
      { numRuns: 400, seed: 20_261_125 },
    );
  });
});

describe("refuses what RE2 cannot run, saying what", () => {
  const cases: [string, { pattern: string; says: RegExp }][] = [
    ["a backreference", { pattern: "^(a+)\\1$", says: /a backreference \(\\1\)/ }],
    ["a named backreference", { pattern: "(?<q>a)\\k<q>", says: /a named backreference/ }],
    ["a lookahead", { pattern: "^(?=a)a", says: /a lookahead/ }],
    ["a negative lookahead", { pattern: "^(?!a)b", says: /a lookahead/ }],
    ["a lookbehind", { pattern: "(?<=a)b", says: /a lookbehind/ }],
    ["a negative lookbehind", { pattern: "(?<!a)b", says: /a lookbehind/ }],
    ["a repetition count over 1000", { pattern: "^a{0,1001}$", says: /repetition count above 1000 \(\{0,1001\}\)/ }],
    ["repetitions nested beyond RE2's limit", { pattern: "(?:(?:a{100}){100})", says: /RE2 does not compile it/ }],
    ["Script_Extensions", { pattern: "\\p{scx=Latin}", says: /Script_Extensions/ }],
    ["a binary property", { pattern: "\\p{Emoji}", says: /\\p\{Emoji\} \(RE2 knows General_Category values/ }],
    ["a short script name", { pattern: "\\p{sc=Latn}", says: /RE2 does not compile it/ }],
  ];
  test.each(cases)("%s", (_, { pattern, says }) => {
    const error = catchError(() => linearPatternOrThrow(pattern));
    expect(error).toBeInstanceOf(UnsupportedPatternError);
    expect(error).toMatchObject({ name: "UnsupportedPatternError", code: "UNSUPPORTED_PATTERN", pattern });
    expect((error as Error).message).toMatch(says);
    expect((error as Error).message).toContain(JSON.stringify(pattern));
  });

  test("an invalid pattern is the SyntaxError RegExp throws", () => {
    expect(catchError(() => linearPatternOrThrow("a\\-b"))).toBeInstanceOf(SyntaxError);
    expect(catchError(() => linearPatternOrThrow("([a-"))).toBeInstanceOf(SyntaxError);
  });

  test("a long pattern is cut in the message", () => {
    const error = catchError(() => linearPatternOrThrow(`${"x".repeat(5000)}(?=a)`)) as Error;
    expect(error.message.length).toBeLessThan(300);
  });
});

describe("finishes on long hostile texts (time linear in their length)", () => {
  // Each makes the native RegExp take exponential (or high polynomial) time in the text's length: at these lengths it would never finish.
  const cases: [string, { pattern: string; hostile: string; matching: string }][] = [
    ["nested quantifiers", { pattern: "^(a+)+$", hostile: `${"a".repeat(100_000)}!`, matching: "aaaa" }],
    ["a name pattern", { pattern: "^([A-Za-z]+ ?)+$", hostile: `${"a".repeat(100_000)}!`, matching: "Anna Maria" }],
    ["overlapping alternation", { pattern: "^(a|aa)+$", hostile: `${"a".repeat(100_000)}!`, matching: "aaa" }],
    ["overlapping classes", { pattern: "^(\\w+\\s?)*$", hostile: `${"a1 ".repeat(30_000)}!`, matching: "a1 b2" }],
    ["adjacent overlap", { pattern: "(x+x+)+y", hostile: "x".repeat(100_000), matching: "xxy" }],
    ["dot and star", { pattern: "^(.*a){20}$", hostile: `${"a".repeat(20_000)}b`, matching: "a".repeat(20) }],
  ];
  test.each(cases)("%s", (_, { pattern, hostile, matching }) => {
    const compiled = linearPatternOrThrow(pattern);
    expect(finishedOrThrow(() => compiled.test(hostile))).toBe(false);
    expect(compiled.test(matching)).toBe(true);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}
