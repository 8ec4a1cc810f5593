/**
 * Generated modules are printed by ts-morph in prettier's layout, and prettier
 * runs only when module-text.ts cannot be sure of that layout. Here prettier
 * (format.ts, the options it would run with) must find nothing to change in
 * any module, whichever way it was made: the samples, the awkward model,
 * index.ts, and models with random names, texts, shapes and schema keywords
 * (the request and 201 schemas are JSON in `spec`, longer than the rest).
 */
import fc from "fast-check";
import { emitIndex } from "../../generator/emit/emit-index.js";
import { flowModuleStatementsOrThrow } from "../../generator/emit/flow-module.js";
import { formatTypeScript } from "../../generator/emit/format.js";
import { flowHeader } from "../../generator/emit/header.js";
import { inPrettierLayout, moduleText } from "../../generator/emit/module-text.js";
import type { FlowModel, ObjectSchema, Property, Schema } from "../../generator/model/types.js";
import {
  SAMPLE_MODELS,
  amlScreening,
  documentVerification,
  num,
  obj,
  opt,
  req,
  str,
} from "../fixtures/golden/models.js";
import { odd } from "../fixtures/golden/odd-model.js";

const RUNTIME = { runtimeImport: "../../runtime/flow-module.js" };

/** The flow's index.ts as emitFlowOrThrow writes it (the flow's only module: its schemas are JSON in `spec`). */
function indexModule(model: FlowModel): Promise<string> {
  return moduleText(flowHeader(model.source), flowModuleStatementsOrThrow(model, RUNTIME.runtimeImport));
}

describe("generated modules are in prettier's layout", () => {
  test.each([...SAMPLE_MODELS, odd].map((m) => [m.name, m] as const))("%s", async (_, model) => {
    const text = await indexModule(model);
    expect(await formatTypeScript(text)).toBe(text);
  });

  test("the samples skip prettier", async () => {
    for (const model of SAMPLE_MODELS) expect(inPrettierLayout(await indexModule(model))).toBe(true);
  });

  test.each([
    ["no flows", []],
    ["one flow", ["signing"]],
    ["many, with collisions", ["b", "a", "9lives", "class", "document-verification", "document_verification"]],
  ])("index.ts: %s", async (_, names) => {
    const { content } = await emitIndex(names.map((name) => ({ name })));
    expect(await formatTypeScript(content)).toBe(content);
  });

  test("quotes, large numbers and a deeply nested spec skip prettier", async () => {
    // A spec nested this deep has lines far past printWidth, but they are inside its template
    // literal; `"` in names and values and `1e+21` are written as prettier writes them.
    const part = ["input[leaf]"] as const;
    let input = obj([req("leaf", str({ part, enum: ['say "hi"', "it's", 'a "b" \'c\' "d"'] }))]);
    for (let depth = 0; depth < 30; depth += 1)
      input = obj([req(`level${String(depth)}`, input), opt('"quoted"', num({ part, enum: [1e21, 2.5e-7, -3] }))]);
    const request = obj(
      documentVerification.request.properties.map((p) => (p.name === "input" ? req("input", input) : p)),
    );
    const text = await indexModule({ ...documentVerification, title: 'The "deep" flow', request });
    expect(text).toContain(`readonly title: 'The "deep" flow';`);
    expect(text).toContain(`  leaf: 'say "hi"' | "it's" | 'a "b" \\'c\\' "d"';`);
    expect(text).toContain("1e21 | 2.5e-7 | -3");
    expect(text.split("\n").some((line) => line.length > 200)).toBe(true);
    expect(inPrettierLayout(text)).toBe(true);
    expect(await formatTypeScript(text)).toBe(text);
  });

  test("what prettier would write otherwise is not taken as its layout", async () => {
    const printed = [
      'export type A = "a\\"b";',
      "export type B = 1e+21;",
      "export type C = { };",
      "export type D = 1.50;",
    ];
    for (const text of printed) {
      expect(inPrettierLayout(`${text}\n`)).toBe(false);
      expect(await formatTypeScript(`${text}\n`)).not.toBe(`${text}\n`);
    }
    // A long run of blanks inside a line is read once, not again from each of its blanks (a description may hold one).
    const blanks = " ".repeat(1_000_000);
    expect(inPrettierLayout(`/** a${blanks}b */\nexport type A = 1;\n`)).toBe(true);
    expect(inPrettierLayout(`/** a${blanks}\n */\nexport type A = 1;\n`)).toBe(false);
    // Inside a template literal or a comment, prettier keeps text as written.
    const verbatim = [
      'export const a = `"a\\"b" 1e+21 { }`;',
      '/** "a\\"b" 1e+21 { } */\nexport type A = 1;',
      `export const b = \`\n${"x".repeat(150)}\n\`;`,
    ];
    for (const text of verbatim) {
      expect(inPrettierLayout(`${text}\n`)).toBe(true);
      expect(await formatTypeScript(`${text}\n`)).toBe(`${text}\n`);
    }
  });

  test("random names, texts, shapes and schema keywords", async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(modelArbitrary, async (model) => {
        const text = await indexModule(model);
        expect(await formatTypeScript(text)).toBe(text);
        if (text.includes('import "@flowsmith/runtime/patterns";')) seen.add("the pattern engine's import");
        if (text.includes('"pattern": ')) seen.add("a pattern in spec");
      }),
      { numRuns: 30, seed: 13 },
    );
    // The runs covered the lines patterns add.
    expect([...seen].sort()).toEqual(["a pattern in spec", "the pattern engine's import"]);
  });
});

/** Text a description may carry: anything, with the awkward pieces made likely. */
const text = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom(
        "*/",
        "`",
        "${",
        '"',
        "'",
        "\n",
        "\r\n",
        "\u2028",
        "@param",
        "{@link",
        "  ",
        "\\",
        "e+5",
        "{ }",
        "ü",
      ),
      fc.lorem({ maxCount: 30 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(""));

/** Patterns with what a template literal and JSON both escape; some the client leaves to the service (then not in `spec`, no engine import). */
const pattern = fc.record({
  pattern: fc.constantFrom("^[A-Z]{3}$", '^"\\w+"$', "^`\\$\\{x\\}`$", "^\\p{L}+ ?\u2028$", "^(?=.*\\d).{8,}$"),
  left: fc.boolean(),
});

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.record({ description: fc.option(text, { nil: undefined }) }).map(({ description }) => str({ description })),
  fc
    .record({
      pattern,
      format: fc.constantFrom(undefined, "date", "uri", "email"),
      minLength: fc.option(fc.nat(9), { nil: undefined }),
      maxLength: fc.option(fc.nat(2048), { nil: undefined }),
    })
    .map(({ pattern: { pattern: source, left }, format, minLength, maxLength }) =>
      str({
        pattern: source,
        ...(left ? { patternLeftToService: "a lookahead ((?= or (?!)" } : {}),
        format,
        minLength,
        maxLength,
      }),
    ),
  fc
    .record({
      minimum: fc.option(fc.integer(), { nil: undefined }),
      maximum: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: undefined }),
    })
    .map((bounds) => num(bounds)),
  fc.array(text, { minLength: 1, maxLength: 12 }).map((values) => str({ enum: [...new Set(values)] })),
  fc
    .array(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), { minLength: 1, maxLength: 6 })
    .map((values) => [...new Set(values)])
    // A lone negative number keeps its parentheses as an array element (`(-1)[]`):
    // prettier would drop them and then fail to parse what it wrote (schema-types.ts).
    .filter((values) => values.length > 1 || (values[0] ?? 0) >= 0)
    .map((values) => num({ enum: values })),
  fc.constant(num({ integer: true, minimum: 1e21 })),
);

const properties = (schema: fc.Arbitrary<Schema>): fc.Arbitrary<Property[]> =>
  fc
    .uniqueArray(fc.tuple(text, fc.boolean(), schema), { selector: ([name]) => name, maxLength: 6 })
    .map((entries) => entries.map(([name, required, child]) => (required ? req(name, child) : opt(name, child))));

const objectOf = (schema: fc.Arbitrary<Schema>): fc.Arbitrary<ObjectSchema> =>
  fc
    .record({
      properties: properties(schema),
      extra: fc.constantFrom<boolean | "schema">(false, true, "schema"),
      nullable: fc.boolean(),
    })
    .map(({ properties: members, extra, nullable }) =>
      obj(members, { nullable, additionalProperties: extra === "schema" ? str() : extra }),
    );

const block: fc.Arbitrary<Schema> = fc.oneof(
  objectOf(fc.oneof(leaf, objectOf(leaf))),
  leaf.map((items): Schema => ({ kind: "array", pointer: "#", nullable: false, items })),
);

const modelArbitrary: fc.Arbitrary<FlowModel> = fc
  .record({
    title: text,
    description: fc.option(text, { nil: undefined }),
    summary: fc.option(text, { nil: undefined }),
    blocks: fc.uniqueArray(fc.tuple(text, block), { selector: ([name]) => name, maxLength: 4 }),
  })
  .map(({ title, description, summary, blocks }) => {
    const input = obj(blocks.map(([name, schema]) => opt(name, schema)));
    const request = obj(amlScreening.request.properties.map((p) => (p.name === "input" ? req("input", input) : p)));
    return { ...amlScreening, title, description, summary, request };
  });
