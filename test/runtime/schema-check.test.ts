/**
 * The schema checker (runtime/validation/schema-check.ts): it compiles no
 * code, and says what ajv says. The tables check its words and the order of
 * its issues against what ajv's messages said (generated validators used to
 * be ajv's code); the property checks hold it against ajv itself, the
 * reference implementation, on random schemas of the keywords it knows and
 * random JSON values: both must accept exactly the same values.
 */
import Ajv from "ajv";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { linearPatterns } from "../../runtime/patterns/index.js";
import { describeIssues, readablePath } from "../../runtime/validation/issues.js";
import {
  issuesOf,
  schemaCheckOrThrow,
  SchemaShapeError,
  type JsonSchema,
  type UncheckedPattern,
} from "../../runtime/validation/schema-check.js";

const words = (schema: JsonSchema, value: unknown): string[] =>
  issuesOf(schemaCheckOrThrow(schema, { patterns: linearPatterns }), value).map(
    (issue) => `${issue.path} ${issue.message}`,
  );

const SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2, maxLength: 4, pattern: "^[a-z]+$" },
    day: { type: "string", format: "date" },
    count: { type: "integer", minimum: 1, maximum: 9, multipleOf: 2 },
    ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    tags: { type: "array", minItems: 1, maxItems: 2, items: { type: "string" } },
    locale: { type: "string", enum: ["en", "de"] },
    "odd key": { type: "boolean" },
  },
  required: ["name"],
  additionalProperties: false,
};

describe("its words, in ajv's order", () => {
  const cases: [string, unknown, string[]][] = [
    ["missing property", {}, ["name is required"]],
    ["unknown property", { name: "ab", extra: 1 }, ["extra is not allowed here"]],
    ["wrong type", { name: 5 }, ["name must be string"]],
    [
      "too short, pattern",
      { name: "A" },
      ["name must NOT have fewer than 2 characters", 'name must match pattern "^[a-z]+$"'],
    ],
    ["too long", { name: "abcde" }, ["name must NOT have more than 4 characters"]],
    ["format", { name: "ab", day: "tuesday" }, ['day must match format "date"']],
    [
      "minimum, multipleOf",
      { name: "ab", count: 0.5 },
      ["count must be integer", "count must be >= 1", "count must be multiple of 2"],
    ],
    ["maximum", { name: "ab", count: 10 }, ["count must be <= 9"]],
    ["exclusive bounds", { name: "ab", ratio: 1 }, ["ratio must be < 1"]],
    ["items", { name: "ab", tags: [] }, ["tags must NOT have fewer than 1 items"]],
    [
      "too many items, item type",
      { name: "ab", tags: ["a", "b", 3] },
      ["tags must NOT have more than 2 items", "tags[2] must be string"],
    ],
    ["enum", { name: "ab", locale: "fr" }, ['locale must be one of "en", "de"']],
    ["quoted key", { name: "ab", "odd key": 1 }, ['["odd key"] must be boolean']],
    ["not an object", "x", ["(root) must be object"]],
    ["a surrogate pair is one character", { name: "a😀" }, ['name must match pattern "^[a-z]+$"']],
  ];
  test.each(cases)("%s", (_, value, want) => {
    expect(words(SCHEMA, value)).toEqual(want);
  });

  const more: [string, { schema: JsonSchema; value: unknown; want: string[] }][] = [
    [
      "nullable (OpenAPI)",
      { schema: { type: "string", nullable: true }, value: 1, want: ["(root) must be string,null"] },
    ],
    ["nullable admits null", { schema: { type: "string", nullable: true }, value: null, want: [] }],
    [
      "draft-04 exclusive bounds",
      { schema: { type: "number", minimum: 0, exclusiveMinimum: true }, value: 0, want: ["(root) must be > 0"] },
    ],
    ["const", { schema: { const: { a: [1] } }, value: { a: [2] }, want: ['(root) must be {"a":[1]}'] }],
    [
      "anyOf",
      {
        schema: { anyOf: [{ type: "string" }, { type: "number" }] },
        value: true,
        want: ["(root) must match a schema in anyOf"],
      },
    ],
    [
      "oneOf matched twice",
      {
        schema: { oneOf: [{ type: "number" }, { type: "integer" }] },
        value: 1,
        want: ["(root) must match exactly one schema in oneOf"],
      },
    ],
    ["not", { schema: { not: { type: "string" } }, value: "x", want: ["(root) must NOT be valid"] }],
    [
      "uniqueItems",
      {
        schema: { uniqueItems: true },
        value: [{ a: 1 }, { a: 1 }],
        want: ["(root) must NOT have duplicate items (items ## 1 and 0 are identical)"],
      },
    ],
    [
      "additionalProperties as a schema",
      { schema: { additionalProperties: { type: "number" } }, value: { a: "x" }, want: ["a must be number"] },
    ],
    [
      "a tuple and additionalItems",
      {
        schema: { items: [{ type: "string" }], additionalItems: false },
        value: ["a", 1],
        want: ["[1] must NOT be present (the schema is false)"],
      },
    ],
    [
      "$ref inside the schema, recursive",
      {
        schema: {
          definitions: { node: { type: "object", properties: { next: { $ref: "#/definitions/node" } } } },
          $ref: "#/definitions/node",
        },
        value: { next: { next: 1 } },
        want: ["next.next must be object"],
      },
    ],
    [
      "if / then",
      {
        schema: { if: { properties: { kind: { const: "a" } } }, then: { required: ["a"] } },
        value: { kind: "a" },
        want: ["a is required"],
      },
    ],
    [
      "an own property only: a required toString is missing from {}",
      {
        schema: { required: ["toString", "__proto__"] },
        value: {},
        want: ["toString is required", "__proto__ is required"],
      },
    ],
    [
      "a property named __proto__ is checked as any other",
      {
        schema: JSON.parse('{"properties":{"__proto__":{"type":"number"}}}') as JsonSchema,
        value: JSON.parse('{"__proto__":"x"}'),
        want: ["__proto__ must be number"],
      },
    ],
    [
      "unknown keywords and formats are documentation",
      { schema: { type: "string", format: "flowsmith-id", "x-anything": 1 }, value: "x", want: [] },
    ],
  ];
  test.each(more)("%s", (_, { schema, value, want }) => {
    expect(words(schema, value)).toEqual(want);
  });

  test("the message lists five issues and counts the rest; paths read as code", () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({ path: `f${String(i)}`, message: "is required" }));
    expect(describeIssues(issues)).toBe(
      "f0 is required; f1 is required; f2 is required; f3 is required; f4 is required; and 2 more",
    );
    expect(readablePath(["input", "documents", 0, "my-key"])).toBe('input.documents[0]["my-key"]');
  });
});

describe("a schema it cannot use is a SchemaShapeError naming where", () => {
  const cases: [string, { schema: unknown; says: RegExp }][] = [
    ["not a schema", { schema: 5, says: /^the schema must be an object or a boolean$/ }],
    [
      "a type no JSON value has",
      { schema: { properties: { a: { type: "date" } } }, says: /at \/properties\/a has type "date"/ },
    ],
    ["a $ref outside", { schema: { $ref: "https://example.test/s.json" }, says: /points outside the schema/ }],
    ["a $ref to nothing", { schema: { $ref: "#/definitions/missing" }, says: /points nowhere/ }],
    ["a limit that is not a number", { schema: { maxLength: "5" }, says: /maxLength "5", which is not a number/ }],
    ["multipleOf 0", { schema: { multipleOf: 0 }, says: /must be greater than 0/ }],
  ];
  test.each(cases)("%s", (_, { schema, says }) => {
    let error: unknown;
    try {
      schemaCheckOrThrow(schema);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchemaShapeError);
    expect((error as Error).message).toMatch(says);
  });
});

describe("patterns", () => {
  test("without an engine, a pattern is left unchecked and said once, with its pointer", () => {
    const unchecked: UncheckedPattern[] = [];
    const check = schemaCheckOrThrow(
      { properties: { code: { type: "string", pattern: "^\\d+$" } } },
      { onUnchecked: (p) => unchecked.push(p) },
    );
    expect(issuesOf(check, { code: "abc" })).toEqual([]);
    expect(unchecked).toEqual([
      {
        pointer: "/properties/code/pattern",
        pattern: "^\\d+$",
        reason: "no linear-time pattern engine is loaded here",
      },
    ]);
  });

  test("one the engine cannot run is left unchecked, with the engine's reason", () => {
    const unchecked: UncheckedPattern[] = [];
    const check = schemaCheckOrThrow(
      { patternProperties: { "^(?=x)": { type: "number" } } },
      { patterns: linearPatterns, onUnchecked: (p) => unchecked.push(p) },
    );
    expect(issuesOf(check, { x: "not a number" })).toEqual([]);
    expect(unchecked).toEqual([
      expect.objectContaining({
        pointer: "/patternProperties/^(?=x)",
        reason: expect.stringMatching(/a lookahead/) as unknown,
      }),
    ]);
  });
});

describe("accepts exactly what ajv accepts", () => {
  // ownProperties: a property counts only when the object itself has it, as the generator compiled flows with (and JSON.stringify sends).
  const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true });
  addFormats(ajv);

  const leaf = fc.oneof(
    fc.record(
      {
        type: fc.constant("string"),
        minLength: fc.nat(4),
        maxLength: fc.integer({ min: 2, max: 8 }),
        pattern: fc.constantFrom("^[a-c]*$", "b", "^\\d{2}", "[😀]"),
        format: fc.constantFrom("date", "email", "uuid", "date-time", "uri"),
        enum: fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 4 }),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record(
      {
        type: fc.constantFrom("number", "integer"),
        minimum: fc.integer({ min: -5, max: 5 }),
        maximum: fc.integer({ min: 0, max: 50 }),
        exclusiveMinimum: fc.integer({ min: -5, max: 5 }),
        multipleOf: fc.constantFrom(2, 3, 0.5),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record({ type: fc.constant("boolean") }),
    fc.record({ const: fc.jsonValue({ maxDepth: 1 }) }),
  );
  const schema: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.record(
        {
          type: fc.constant("object"),
          // Not `__proto__`: ajv skips that key of `properties` (the table above checks ours).
          properties: fc.dictionary(fc.constantFrom("a", "b", "c", "toString"), tie("node"), { maxKeys: 3 }),
          required: fc.uniqueArray(fc.constantFrom("a", "b", "toString"), { maxLength: 2 }),
          additionalProperties: fc.oneof(fc.boolean(), tie("node")),
          minProperties: fc.nat(2),
        },
        { requiredKeys: ["type"] },
      ),
      fc.record(
        {
          type: fc.constant("array"),
          items: tie("node"),
          minItems: fc.nat(2),
          maxItems: fc.integer({ min: 1, max: 4 }),
          uniqueItems: fc.boolean(),
        },
        { requiredKeys: ["type", "items"] },
      ),
      fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
      fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
      fc.record({ not: tie("node") }),
    ),
  })).node;

  // Numbers of 1e21 and above are left out: ajv's multipleOf reads them through parseInt ("2e+21" is 2),
  // so it refuses 2e21 as a multiple of 2; ours does not.
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    // Not a `toString` key in values: ajv's deep equality (fast-deep-equal) calls it.
    fc.dictionary(
      fc.constantFrom("a", "b", "c"),
      fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -10, max: 60 }), fc.jsonValue({ maxDepth: 2 })),
      { maxKeys: 4 },
    ),
    fc.constantFrom("2024-02-30", "2024-02-29", "a@b.co", "00000000-0000-0000-0000-000000000000", "ab", "12x", "😀"),
  );

  test("on random schemas and values", () => {
    fc.assert(
      fc.property(schema, fc.array(value, { minLength: 1, maxLength: 6 }), (s, values) => {
        const theirs = ajv.compile(JSON.parse(JSON.stringify(s)) as object);
        const ours = schemaCheckOrThrow(JSON.parse(JSON.stringify(s)) as JsonSchema, { patterns: linearPatterns });
        for (const v of values.filter((candidate) => !/e\+\d/.test(JSON.stringify(candidate)))) {
          const copy = JSON.parse(JSON.stringify(v ?? null)) as unknown;
          expect({ schema: s, value: copy, valid: issuesOf(ours, copy).length === 0 }).toEqual({
            schema: s,
            value: copy,
            valid: theirs(copy),
          });
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400), seed: 20261127 },
    );
  });
});
