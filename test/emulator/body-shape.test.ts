/**
 * The shape check of control bodies (emulator/control/body-shape.ts), on
 * texts: a body nested deeper than MAX_NESTING is refused whatever way YAML
 * or JSON writes the nesting, one that only looks deep (quoted, commented, a
 * block scalar) is not; a key that is a collection or an alias is refused,
 * one that only looks like one is not; and the work is bounded: counted in
 * tokens and turns (never timed), a deep body is refused within its first
 * turn whatever its size, and any other body takes one turn per
 * TOKENS_PER_TURN tokens and CST entries, so the work grows with the size and
 * other requests run between turns.
 */
import { expect } from "@jest/globals";
import fc from "fast-check";
import { CST, Lexer, Parser, stringify } from "yaml";
import {
  checkBodyShapeInTurnsOrThrow,
  checkBodyShapeOrThrow,
  MAX_NESTING,
  TOKENS_PER_TURN,
} from "../../emulator/control/body-shape.js";
import { EmulatorControlError } from "../../emulator/index.js";

const refusal = (text: string): string | undefined => {
  try {
    checkBodyShapeOrThrow(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof EmulatorControlError)) throw error;
    return error.code;
  }
};

const deep = MAX_NESTING + 1;
const lines = (count: number, line: (i: number) => string): string =>
  Array.from({ length: count }, (_, i) => line(i)).join("\n");

describe("a body nested deeper than MAX_NESTING is refused, however it is written", () => {
  const forms: [string, string][] = [
    ["JSON arrays", `${"[".repeat(deep)}${"]".repeat(deep)}`],
    ["JSON objects", `${'{"a":'.repeat(deep)}1${"}".repeat(deep)}`],
    ["flow pairs in sequences", `${"[a: ".repeat(deep)}1${"]".repeat(deep)}`],
    ["a flow collection as a key", `${"[".repeat(deep)}${"]".repeat(deep)}: 1`],
    ["block mappings", lines(deep, (i) => `${" ".repeat(i)}a:`)],
    ["block sequences in mappings at the same indentation", lines(deep, (i) => `${" ".repeat(2 * i)}- a:`)],
    ["compact sequences", `${"- ".repeat(deep)}x`],
    ["explicit keys", `${"? ".repeat(deep)}x`],
    ["key chains the parser reads with errors", lines(20, () => "a: ".repeat(25))],
    ["tabs between indicators", `${"-\t".repeat(deep)}x`],
    ["after a quote inside a plain scalar", `x: don't\ny: ${"[".repeat(deep)}`],
    ["after a block scalar", `x: |\n  'text\ny: ${"[".repeat(deep)}`],
    ["after a comment holding brackets", `# ]]]]]]]]\ny: ${"[".repeat(deep)}`],
  ];
  test.each(forms)("%s", (_form, text) => {
    expect(refusal(text)).toBe("BODY_TOO_DEEP");
  });

  test("the refusal says where the limit was passed, and that nothing was read", () => {
    // x and y are two levels, so the bracket at column 5 + (MAX_NESTING - 1) opens level MAX_NESTING + 1.
    expect(() => {
      checkBodyShapeOrThrow(`x:\n  y: ${"[".repeat(4 * 1024 * 1024)}`);
    }).toThrow(
      `the body nests more than ${String(MAX_NESTING)} levels deep (at line 2, column ${String(5 + MAX_NESTING - 1)}); it is refused before it is read`,
    );
  });
});

describe("a body that only looks deep is not refused", () => {
  const forms: [string, string][] = [
    ["brackets in a double-quoted scalar", `x: "${"[".repeat(4 * deep)}"`],
    ["brackets in a single-quoted scalar", `x: '${"{".repeat(4 * deep)}'`],
    ["brackets in a plain scalar", `x: see ${"[".repeat(4 * deep)}`],
    ["brackets in a comment", `x: 1 # ${"[".repeat(4 * deep)}`],
    ["brackets in a block scalar", `x: |\n  ${"[".repeat(4 * deep)}\ny: 2`],
    ["brackets in a JSON string", JSON.stringify({ a: "[".repeat(4 * deep) })],
    [
      "a wide document",
      JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${String(i)}`, [[i]]]))),
    ],
  ];
  test.each(forms)("%s", (_form, text) => {
    expect(refusal(text)).toBeUndefined();
  });
});

describe("a key that is a collection or an alias is refused, one that only looks like one is not", () => {
  const forms: [string, string, string | undefined][] = [
    ["explicit keys holding explicit keys", `${"? ".repeat(300)}x`, "BODY_KEY_NOT_A_NAME"],
    ["an explicit key holding a sequence", "? - a\n: b", "BODY_KEY_NOT_A_NAME"],
    ["a flow sequence as a key", "a:\n  [x, y]: 1", "BODY_KEY_NOT_A_NAME"],
    ["a flow mapping as a key in a flow mapping", "{a: {{b: c}: 1}}", "BODY_KEY_NOT_A_NAME"],
    ["an alias as a key", "- &a [x]\n- {*a : 1}", "BODY_KEY_NOT_A_NAME"],
    ["in a second document", "a: 1\n---\n[x]: 1", "BODY_KEY_NOT_A_NAME"],
    ["an explicit key that is a name", "? a\n: b", undefined],
    ["quoted brackets as a key", '"[x]": 1', undefined],
    ["an anchored name as a key, its alias as a value", "&k a: 1\nb: *k", undefined],
    ["JSON", JSON.stringify({ "[x]": { "{y}": ["? z"] } }), undefined],
  ];
  test.each(forms)("%s", (_form, text, code) => {
    expect(refusal(text)).toBe(code);
  });

  test("the refusal says where the key is", () => {
    expect(() => {
      checkBodyShapeOrThrow("a:\n  b: 1\n  [x]: 1");
    }).toThrow("the key at line 3, column 3 is a collection or an alias; it is refused before it is read");
  });
});

/** A value nested `depth` levels of arrays and objects, with siblings here and there, each level's shape chosen by the arbitrary. */
const nestedValue = (levels: readonly { readonly object: boolean; readonly siblings: number }[]): unknown =>
  levels.reduceRight<unknown>((inner, { object, siblings }) => {
    const extra = Array.from({ length: siblings }, (_, i) => `s${String(i)}`);
    return object ? { ...Object.fromEntries(extra.map((name) => [name, name])), inner } : [...extra, inner];
  }, "leaf");

test("a value of up to MAX_NESTING - 1 levels passes and one of MAX_NESTING + 1 or more is refused, written as JSON or as YAML (block or flow)", () => {
  const level = fc.record({ object: fc.boolean(), siblings: fc.nat(2) });
  const writers: ((value: unknown) => string)[] = [
    (value) => JSON.stringify(value),
    (value) => JSON.stringify(value, null, 2),
    (value) => stringify(value),
    (value) => stringify(value, { collectionStyle: "flow" }),
  ];
  fc.assert(
    fc.property(
      fc.array(level, { minLength: MAX_NESTING - 20, maxLength: MAX_NESTING + 20 }),
      fc.nat(writers.length - 1),
      (levels, writer) => {
        fc.pre(levels.length !== MAX_NESTING);
        const text = (writers[writer] as (value: unknown) => string)(nestedValue(levels));
        expect(refusal(text)).toBe(levels.length > MAX_NESTING ? "BODY_TOO_DEEP" : undefined);
      },
    ),
    { numRuns: 12 },
  );
});

describe("the work is bounded, in tokens and turns", () => {
  /** How many pauses the check took, and whether it refused. */
  const turns = async (text: string): Promise<{ pauses: number; refused: boolean }> => {
    let pauses = 0;
    const pause = (): Promise<void> => {
      pauses += 1;
      return Promise.resolve();
    };
    try {
      await checkBodyShapeInTurnsOrThrow(text, pause);
      return { pauses, refused: false };
    } catch (error) {
      if (!(error instanceof EmulatorControlError)) throw error;
      return { pauses, refused: true };
    }
  };
  /** What the check reads: the text's tokens, and the entries of the collections in its CST. */
  const workOf = (text: string): number => {
    const parser = new Parser();
    const documents = [...parser.parse(text)].filter((token) => token.type === "document");
    let entries = 0;
    for (const document of documents) CST.visit(document, () => void (entries += 1));
    return [...new Lexer().lex(text)].length + entries;
  };

  test("a deep body is refused within its first turn, whatever its size", async () => {
    for (const size of [1_000, 100_000, 1_000_000]) {
      expect(await turns("[".repeat(size))).toEqual({ pauses: 0, refused: true });
    }
  });

  test("any other body takes one turn per TOKENS_PER_TURN tokens and CST entries (so other requests run between), and its turns grow with its size", async () => {
    const counts: number[] = [];
    for (const items of [2_000, 4_000, 8_000]) {
      const flat = `list:\n${"  - {a: [1, 'two']}\n".repeat(items)}`;
      const answer = await turns(flat);
      expect(answer).toEqual({ pauses: Math.floor(workOf(flat) / TOKENS_PER_TURN), refused: false });
      counts.push(answer.pauses);
      // The same padding with a deep tail: refused once the tail is read, after the turns of the padding's tokens.
      const tail = await turns(`${flat}tail: ${"[".repeat(deep)}`);
      expect(tail).toEqual({ pauses: Math.floor([...new Lexer().lex(flat)].length / TOKENS_PER_TURN), refused: true });
    }
    const [small, medium, large] = counts as [number, number, number];
    expect(medium).toBeGreaterThanOrEqual(2 * small);
    expect(medium).toBeLessThanOrEqual(2 * small + 1);
    expect(large).toBeGreaterThanOrEqual(2 * medium);
    expect(large).toBeLessThanOrEqual(2 * medium + 1);
  });
});
