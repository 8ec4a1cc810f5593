/**
 * compareFlowModels on hand-made description pairs: every kind of change,
 * breaking and compatible where both exist, and what is not a change.
 */
import { CHANGE_KINDS, compareFlowModels, type ChangeKind, type FlowChange } from "../../../generator/changes/index";
import { buildFlowModelOrThrow } from "../../../generator/model/build-flow-model";
import type { FlowModel } from "../../../generator/model/types";
import { parseDescriptionOrThrow } from "../../../generator/read/load-description";
import type { DescriptionParts } from "../../fixtures/descriptions/make-description";
import {
  block,
  blocks,
  description,
  elsewhere,
  field,
  locales,
  multipart,
  response,
} from "../../fixtures/changes/pairs";

function model(parts: DescriptionParts, file: string): FlowModel {
  return buildFlowModelOrThrow(parseDescriptionOrThrow(description(parts), file), { name: "test-flow" });
}

function changesOf(before: DescriptionParts, after: DescriptionParts): FlowChange[] {
  return [...compareFlowModels(model(before, "old.yaml"), model(after, "new.yaml")).changes];
}

type Want = Omit<FlowChange, "pointers">;

function withoutPointers(found: FlowChange): Want {
  return Object.fromEntries(Object.entries(found).filter(([key]) => key !== "pointers")) as Want;
}
type Value = FlowChange["before"];

function change(
  kind: ChangeKind,
  location: string,
  before: Value,
  after: Value,
  severity: Want["severity"],
  caughtBy?: Want["caughtBy"],
): Want {
  return {
    kind,
    severity,
    ...(caughtBy ? { caughtBy } : {}),
    location,
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
  };
}
const breaking =
  (caughtBy: NonNullable<Want["caughtBy"]>) => (kind: ChangeKind, location: string, before: Value, after: Value) =>
    change(kind, location, before, after, "breaking", caughtBy);
const tsc = breaking("tsc");
const validator = breaking("validator");
const service = breaking("service");
const compatible = (kind: ChangeKind, location: string, before: Value, after: Value) =>
  change(kind, location, before, after, "compatible");

const V = "input.person.value";
const str = { type: "string" };
const scan = (extra: Record<string, unknown> = {}) => ({
  "input[doc][scan]": { type: "string", format: "binary", ...extra },
});
const jpegPng = { "input[doc][scan]": { contentType: "image/jpeg, image/png" } };
const png = { "input[doc][scan]": { contentType: "image/png" } };
const filesBlock = {
  type: "object",
  additionalProperties: false,
  properties: {
    files: { type: "array", items: { type: "object", additionalProperties: false, properties: { name: str } } },
  },
};
const ALL_LOCALES = ["en", "de", "fr", "pl", "it", "es"];

type Case = [string, { before: DescriptionParts; after: DescriptionParts; want: Want[] }];

const cases: Case[] = [
  // Presence
  [
    "a new required field",
    {
      before: block({ a: str }),
      after: block({ a: str, b: str }, ["b"]),
      want: [tsc("fieldAdded", "input.person.b", undefined, { required: true, type: "string" })],
    },
  ],
  [
    "a new optional field",
    {
      before: block({ a: str }),
      after: block({ a: str, b: str }),
      want: [compatible("fieldAdded", "input.person.b", undefined, { required: false, type: "string" })],
    },
  ],
  [
    "a removed optional field of a closed object (excess property)",
    {
      before: block({ a: str, b: str }),
      after: block({ a: str }),
      want: [tsc("fieldRemoved", "input.person.b", { required: false, type: "string" }, undefined)],
    },
  ],
  [
    "a removed field of an object open to extra keys",
    {
      before: block({ a: str, b: str }, [], true),
      after: block({ a: str }, [], true),
      want: [compatible("fieldRemoved", "input.person.b", { required: false, type: "string" }, undefined)],
    },
  ],
  [
    "a removed field that fits the typed extra keys",
    {
      before: block({ b: str }, [], str),
      after: block({}, [], str),
      want: [compatible("fieldRemoved", "input.person.b", { required: false, type: "string" }, undefined)],
    },
  ],
  [
    "a removed field that does not fit the typed extra keys",
    {
      before: block({ b: { type: "integer" } }, [], str),
      after: block({}, [], str),
      want: [tsc("fieldRemoved", "input.person.b", { required: false, type: "integer" }, undefined)],
    },
  ],
  [
    "a new required data block",
    {
      before: blocks({ a: { type: "object" } }, ["a"]),
      after: blocks({ a: { type: "object" }, b: { type: "object" } }, ["a", "b"]),
      want: [tsc("blockAdded", "input.b", undefined, { required: true, type: "object" })],
    },
  ],
  [
    "a new optional data block",
    {
      before: blocks({ a: { type: "object" } }, ["a"]),
      after: blocks({ a: { type: "object" }, b: { type: "object" } }, ["a"]),
      want: [compatible("blockAdded", "input.b", undefined, { required: false, type: "object" })],
    },
  ],
  [
    "a removed data block (input is closed in the types even when open in the description)",
    {
      before: blocks({ a: { type: "object" }, b: { type: "object" } }, ["a"]),
      after: blocks({ a: { type: "object" } }, ["a"]),
      want: [tsc("blockRemoved", "input.b", { required: false, type: "object" }, undefined)],
    },
  ],
  [
    "optional → required",
    { before: field(str, { optional: true }), after: field(str), want: [tsc("required", V, false, true)] },
  ],
  [
    "required → optional",
    { before: field(str), after: field(str, { optional: true }), want: [compatible("required", V, true, false)] },
  ],
  // Types
  [
    "string → integer",
    { before: field(str), after: field({ type: "integer" }), want: [tsc("type", V, "string", "integer")] },
  ],
  [
    "number → integer (same TypeScript type, the validator refuses fractions)",
    {
      before: field({ type: "number" }),
      after: field({ type: "integer" }),
      want: [validator("type", V, "number", "integer")],
    },
  ],
  [
    "integer → number",
    {
      before: field({ type: "integer" }),
      after: field({ type: "number" }),
      want: [compatible("type", V, "integer", "number")],
    },
  ],
  [
    "object → array: nothing below is compared",
    {
      before: field({ type: "object", properties: { x: str } }),
      after: field({ type: "array", items: str }),
      want: [tsc("type", V, "object", "array")],
    },
  ],
  [
    "nullable dropped",
    { before: field({ ...str, nullable: true }), after: field(str), want: [tsc("nullable", V, true, false)] },
  ],
  [
    "nullable added",
    { before: field(str), after: field({ ...str, nullable: true }), want: [compatible("nullable", V, false, true)] },
  ],
  [
    "a validated format added",
    { before: field(str), after: field({ ...str, format: "date" }), want: [validator("format", V, undefined, "date")] },
  ],
  [
    "a format the service checks added",
    { before: field(str), after: field({ ...str, format: "phone" }), want: [service("format", V, undefined, "phone")] },
  ],
  [
    "a format changed",
    {
      before: field({ ...str, format: "date" }),
      after: field({ ...str, format: "date-time" }),
      want: [validator("format", V, "date", "date-time")],
    },
  ],
  [
    "a format dropped",
    {
      before: field({ ...str, format: "date" }),
      after: field(str),
      want: [compatible("format", V, "date", undefined)],
    },
  ],
  [
    "enum narrowed",
    {
      before: field({ ...str, enum: ["a", "b"] }),
      after: field({ ...str, enum: ["a"] }),
      want: [tsc("enum", V, ["a", "b"], ["a"])],
    },
  ],
  [
    "enum widened",
    {
      before: field({ ...str, enum: ["a"] }),
      after: field({ ...str, enum: ["a", "b"] }),
      want: [compatible("enum", V, ["a"], ["a", "b"])],
    },
  ],
  [
    "enum introduced",
    { before: field(str), after: field({ ...str, enum: ["a"] }), want: [tsc("enum", V, undefined, ["a"])] },
  ],
  [
    "enum dropped",
    { before: field({ ...str, enum: ["a"] }), after: field(str), want: [compatible("enum", V, ["a"], undefined)] },
  ],
  [
    "enum values swapped",
    {
      before: field({ ...str, enum: ["a", "b"] }),
      after: field({ ...str, enum: ["a", "c"] }),
      want: [tsc("enum", V, ["a", "b"], ["a", "c"])],
    },
  ],
  [
    "a number enum narrowed",
    {
      before: field({ type: "integer", enum: [1, 2] }),
      after: field({ type: "integer", enum: [2] }),
      want: [tsc("enum", V, [1, 2], [2])],
    },
  ],
  [
    "a boolean enum introduced",
    {
      before: field({ type: "boolean" }),
      after: field({ type: "boolean", enum: [true] }),
      want: [tsc("enum", V, undefined, [true])],
    },
  ],
  [
    "locales narrowed",
    {
      before: locales(),
      after: locales(["en", "de"]),
      want: [tsc("locales", "metadata.locale", ALL_LOCALES, ["en", "de"])],
    },
  ],
  [
    "locales widened",
    {
      before: locales(["en"]),
      after: locales(["en", "fr"]),
      want: [compatible("locales", "metadata.locale", ["en"], ["en", "fr"])],
    },
  ],
  [
    "a default changed",
    {
      before: field({ ...str, default: "a" }),
      after: field({ ...str, default: "b" }),
      want: [compatible("default", V, "a", "b")],
    },
  ],
  // Limits
  [
    "pattern added",
    {
      before: field(str),
      after: field({ ...str, pattern: "^[A-Z]+$" }),
      want: [validator("pattern", V, undefined, "^[A-Z]+$")],
    },
  ],
  [
    "pattern changed",
    {
      before: field({ ...str, pattern: "^a" }),
      after: field({ ...str, pattern: "^a+" }),
      want: [validator("pattern", V, "^a", "^a+")],
    },
  ],
  [
    "pattern dropped",
    { before: field({ ...str, pattern: "^a" }), after: field(str), want: [compatible("pattern", V, "^a", undefined)] },
  ],
  [
    "minLength raised",
    {
      before: field({ ...str, minLength: 1 }),
      after: field({ ...str, minLength: 2 }),
      want: [validator("minLength", V, 1, 2)],
    },
  ],
  [
    "minLength lowered",
    {
      before: field({ ...str, minLength: 2 }),
      after: field({ ...str, minLength: 1 }),
      want: [compatible("minLength", V, 2, 1)],
    },
  ],
  [
    "maxLength lowered",
    {
      before: field({ ...str, maxLength: 150 }),
      after: field({ ...str, maxLength: 100 }),
      want: [validator("maxLength", V, 150, 100)],
    },
  ],
  [
    "maxLength introduced",
    { before: field(str), after: field({ ...str, maxLength: 10 }), want: [validator("maxLength", V, undefined, 10)] },
  ],
  [
    "maxLength raised",
    {
      before: field({ ...str, maxLength: 150 }),
      after: field({ ...str, maxLength: 200 }),
      want: [compatible("maxLength", V, 150, 200)],
    },
  ],
  [
    "maxLength dropped",
    {
      before: field({ ...str, maxLength: 150 }),
      after: field(str),
      want: [compatible("maxLength", V, 150, undefined)],
    },
  ],
  [
    "minimum raised",
    {
      before: field({ type: "integer", minimum: 0 }),
      after: field({ type: "integer", minimum: 1 }),
      want: [validator("minimum", V, 0, 1)],
    },
  ],
  [
    "minimum lowered",
    {
      before: field({ type: "integer", minimum: 1 }),
      after: field({ type: "integer", minimum: 0 }),
      want: [compatible("minimum", V, 1, 0)],
    },
  ],
  [
    "maximum lowered",
    {
      before: field({ type: "number", maximum: 10 }),
      after: field({ type: "number", maximum: 9.5 }),
      want: [validator("maximum", V, 10, 9.5)],
    },
  ],
  [
    "maximum raised",
    {
      before: field({ type: "number", maximum: 10 }),
      after: field({ type: "number", maximum: 11 }),
      want: [compatible("maximum", V, 10, 11)],
    },
  ],
  [
    "exclusiveMinimum raised",
    {
      before: field({ type: "number", minimum: 0, exclusiveMinimum: true }),
      after: field({ type: "number", minimum: 1, exclusiveMinimum: true }),
      want: [validator("exclusiveMinimum", V, 0, 1)],
    },
  ],
  [
    "exclusiveMinimum dropped",
    {
      before: field({ type: "number", minimum: 0, exclusiveMinimum: true }),
      after: field({ type: "number" }),
      want: [compatible("exclusiveMinimum", V, 0, undefined)],
    },
  ],
  [
    "exclusiveMaximum lowered",
    {
      before: field({ type: "number", maximum: 5, exclusiveMaximum: true }),
      after: field({ type: "number", maximum: 4, exclusiveMaximum: true }),
      want: [validator("exclusiveMaximum", V, 5, 4)],
    },
  ],
  [
    "exclusiveMaximum raised",
    {
      before: field({ type: "number", maximum: 5, exclusiveMaximum: true }),
      after: field({ type: "number", maximum: 6, exclusiveMaximum: true }),
      want: [compatible("exclusiveMaximum", V, 5, 6)],
    },
  ],
  [
    "multipleOf to a multiple",
    {
      before: field({ type: "integer", multipleOf: 5 }),
      after: field({ type: "integer", multipleOf: 10 }),
      want: [validator("multipleOf", V, 5, 10)],
    },
  ],
  [
    "multipleOf to a divisor",
    {
      before: field({ type: "integer", multipleOf: 10 }),
      after: field({ type: "integer", multipleOf: 5 }),
      want: [compatible("multipleOf", V, 10, 5)],
    },
  ],
  [
    "minItems raised",
    {
      before: field({ type: "array", items: str, minItems: 1 }),
      after: field({ type: "array", items: str, minItems: 2 }),
      want: [validator("minItems", V, 1, 2)],
    },
  ],
  // Optional: a required array needs an element whatever minItems says (model/property.ts).
  [
    "minItems dropped",
    {
      before: field({ type: "array", items: str, minItems: 1 }, { optional: true }),
      after: field({ type: "array", items: str }, { optional: true }),
      want: [compatible("minItems", V, 1, undefined)],
    },
  ],
  [
    "maxItems lowered",
    {
      before: field({ type: "array", items: str, maxItems: 5 }),
      after: field({ type: "array", items: str, maxItems: 3 }),
      want: [validator("maxItems", V, 5, 3)],
    },
  ],
  [
    "maxItems raised",
    {
      before: field({ type: "array", items: str, maxItems: 5 }),
      after: field({ type: "array", items: str, maxItems: 10 }),
      want: [compatible("maxItems", V, 5, 10)],
    },
  ],
  [
    "a limit of every element",
    {
      before: field({ type: "array", items: { ...str, maxLength: 9 } }),
      after: field({ type: "array", items: { ...str, maxLength: 8 } }),
      want: [validator("maxLength", `${V}[]`, 9, 8)],
    },
  ],
  [
    "extra keys no longer accepted",
    {
      before: field({ type: "object", properties: { x: str } }),
      after: field({ type: "object", properties: { x: str }, additionalProperties: false }),
      want: [tsc("additionalProperties", V, "any", "none")],
    },
  ],
  [
    "extra keys accepted",
    {
      before: field({ type: "object", additionalProperties: false }),
      after: field({ type: "object", additionalProperties: true }),
      want: [compatible("additionalProperties", V, "none", "any")],
    },
  ],
  [
    "extra data blocks no longer accepted (input has no index signature: the validator refuses them)",
    {
      before: blocks({ a: { type: "object" } }, ["a"]),
      after: blocks({ a: { type: "object" } }, ["a"], false),
      want: [validator("additionalProperties", "input", "any", "none")],
    },
  ],
  [
    "typed extra keys tightened",
    {
      before: field({ type: "object", additionalProperties: { ...str, maxLength: 5 } }),
      after: field({ type: "object", additionalProperties: { ...str, maxLength: 3 } }),
      want: [validator("maxLength", `${V}.*`, 5, 3)],
    },
  ],
  // Files
  [
    "a file limit lowered",
    {
      before: multipart(scan({ maxLength: 1000 })),
      after: multipart(scan({ maxLength: 500 })),
      want: [validator("maxBytes", "input.doc.scan", 1000, 500)],
    },
  ],
  [
    "a file limit below the service default",
    {
      before: multipart(scan()),
      after: multipart(scan({ maxLength: 1000 })),
      want: [validator("maxBytes", "input.doc.scan", 26214400, 1000)],
    },
  ],
  [
    "a file limit raised",
    {
      before: multipart(scan({ maxLength: 1000 })),
      after: multipart(scan({ maxLength: 2000 })),
      want: [compatible("maxBytes", "input.doc.scan", 1000, 2000)],
    },
  ],
  [
    "a media type no longer accepted",
    {
      before: multipart(scan(), [], jpegPng),
      after: multipart(scan(), [], png),
      want: [validator("mediaTypes", "input.doc.scan", ["image/jpeg", "image/png"], ["image/png"])],
    },
  ],
  [
    "media types where any was accepted",
    {
      before: multipart(scan()),
      after: multipart(scan(), [], png),
      want: [validator("mediaTypes", "input.doc.scan", [], ["image/png"])],
    },
  ],
  [
    "a media type added",
    {
      before: multipart(scan(), [], png),
      after: multipart(scan(), [], jpegPng),
      want: [compatible("mediaTypes", "input.doc.scan", ["image/png"], ["image/jpeg", "image/png"])],
    },
  ],
  [
    "any media type accepted",
    {
      before: multipart(scan(), [], png),
      after: multipart(scan()),
      want: [compatible("mediaTypes", "input.doc.scan", ["image/png"], [])],
    },
  ],
  // The wire
  [
    "a part name moved ([] segment → indexed array)",
    {
      before: multipart({ "input[docs][files][][name]": str }),
      after: multipart({
        "input[docs][files]": { type: "array", items: { type: "object", properties: { name: str } } },
      }),
      want: [
        service("partName", "input.docs.files[].name", "input[docs][files][][name]", "input[docs][files][{i}][name]"),
      ],
    },
  ],
  [
    "a part name moved in a flow sent as JSON (its parts never reach the wire)",
    {
      before: { ...multipart({ "input[docs][files][][name]": str }), ...blocks({ docs: filesBlock }, [], false) },
      after: {
        ...multipart({ "input[docs][files]": { type: "array", items: { type: "object", properties: { name: str } } } }),
        ...blocks({ docs: filesBlock }, [], false),
      },
      want: [],
    },
  ],
  [
    "JSON → multipart (a file appeared)",
    {
      before: blocks(
        { doc: { type: "object", additionalProperties: false, required: ["kind"], properties: { kind: str } } },
        ["doc"],
        false,
      ),
      after: multipart({ "input[doc][kind]": str, ...scan() }, ["input[doc][kind]"]),
      want: [
        service("bodyForm", "", "json", "multipart"),
        compatible("fieldAdded", "input.doc.scan", undefined, { required: false, type: "file" }),
      ],
    },
  ],
  [
    "multipart → JSON, the multipart form still declared",
    {
      before: multipart({ "input[doc][kind]": str }),
      after: {
        ...multipart({ "input[doc][kind]": str }),
        ...blocks({ doc: { type: "object", additionalProperties: false, properties: { kind: str } } }, [], false),
      },
      want: [compatible("bodyForm", "", "multipart", "json")],
    },
  ],
  [
    "multipart → JSON, the multipart form gone",
    {
      before: multipart({ "input[doc][kind]": str }),
      after: blocks({ doc: { type: "object", additionalProperties: false, properties: { kind: str } } }, [], false),
      want: [service("bodyForm", "", "multipart", "json")],
    },
  ],
  [
    "another flow id",
    {
      before: field(str),
      after: elsewhere(field(str), "f-456", "staging"),
      want: [service("flowId", "", "f-123", "f-456")],
    },
  ],
  [
    "another environment (createSession takes a client of the new one)",
    {
      before: field(str),
      after: elsewhere(field(str), "f-123", "live"),
      want: [tsc("environment", "", "staging", "live")],
    },
  ],
  // The response, read by the caller
  [
    "a response field removed",
    {
      before: response({ a: str, b: str }),
      after: response({ a: str }),
      want: [tsc("fieldRemoved", "response.b", { required: false, type: "string" }, undefined)],
    },
  ],
  [
    "a response field added",
    {
      before: response({ a: str }),
      after: response({ a: str, b: str }, ["b"]),
      want: [compatible("fieldAdded", "response.b", undefined, { required: true, type: "string" })],
    },
  ],
  [
    "a response field no longer always there",
    {
      before: response({ a: str }, ["a"]),
      after: response({ a: str }),
      want: [tsc("required", "response.a", true, false)],
    },
  ],
  [
    "a response field now always there",
    {
      before: response({ a: str }),
      after: response({ a: str }, ["a"]),
      want: [compatible("required", "response.a", false, true)],
    },
  ],
  [
    "a response enum widened",
    {
      before: response({ a: { ...str, enum: ["x"] } }),
      after: response({ a: { ...str, enum: ["x", "y"] } }),
      want: [tsc("enum", "response.a", ["x"], ["x", "y"])],
    },
  ],
  [
    "a response enum narrowed",
    {
      before: response({ a: { ...str, enum: ["x", "y"] } }),
      after: response({ a: { ...str, enum: ["x"] } }),
      want: [compatible("enum", "response.a", ["x", "y"], ["x"])],
    },
  ],
  [
    "a response field may be null",
    {
      before: response({ a: str }),
      after: response({ a: { ...str, nullable: true } }),
      want: [tsc("nullable", "response.a", false, true)],
    },
  ],
  [
    "a response limit (in no generated type)",
    {
      before: response({ a: { ...str, maxLength: 5 } }),
      after: response({ a: { ...str, maxLength: 9 } }),
      want: [compatible("maxLength", "response.a", 5, 9)],
    },
  ],
  // Not changes
  [
    "texts, order, title, summary and server",
    {
      before: block({ a: { ...str, description: "old", enum: ["x", "y"] }, b: str }),
      after: {
        ...block({ b: str, a: { ...str, description: "new", enum: ["y", "x"] } }),
        info: { title: "Renamed", description: "New text" },
        operation: { summary: "Another summary" },
        document: { servers: [{ url: "https://elsewhere.example.test/prefix" }] },
      },
      want: [],
    },
  ],
];

describe("compareFlowModels", () => {
  test.each(cases)("%s", (_name, { before, after, want }) => {
    const got = changesOf(before, after).map(withoutPointers);
    expect(got).toEqual(want);
  });

  it("covers every kind of change, breaking and compatible wherever both exist", () => {
    const seen = new Map<ChangeKind, Set<string>>();
    for (const [, { want }] of cases)
      for (const item of want) seen.set(item.kind, (seen.get(item.kind) ?? new Set()).add(item.severity));
    // Always breaking on the request (another path, wire name or closed Input), or never (a default is no constraint).
    const oneSided: Partial<Record<ChangeKind, string>> = {
      flowId: "breaking",
      environment: "breaking",
      partName: "breaking",
      blockRemoved: "breaking",
      default: "compatible",
    };
    const got = Object.fromEntries(
      CHANGE_KINDS.map((kind) => [kind, [...(seen.get(kind) ?? [])].sort().join(" and ")]),
    );
    const want = Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, oneSided[kind] ?? "breaking and compatible"]));
    expect(got).toEqual(want);
  });

  it("points into both documents: the field itself, or its parent where it is missing", () => {
    const [removed] = changesOf(block({ a: str, b: str }), block({ a: str }));
    expect(removed?.pointers.before).toMatch(/\/schema\/properties\/input\/properties\/person\/properties\/b$/);
    expect(removed?.pointers.after).toMatch(/\/schema\/properties\/input\/properties\/person$/);
    const [limit] = changesOf(multipart(scan({ maxLength: 1000 })), multipart(scan({ maxLength: 500 })));
    expect(limit?.pointers.after).toMatch(/multipart~1form-data\/schema\/properties\/input\[doc\]\[scan\]$/);
  });

  it("reports a required leaf in a multipart group at every level it makes required", () => {
    const before = multipart({ "input[person][name]": str, "input[person][age]": { type: "integer" } });
    const after = multipart({ "input[person][name]": str, "input[person][age]": { type: "integer" } }, [
      "input[person][name]",
    ]);
    expect(changesOf(before, after).map((c) => [c.location, c.kind, c.severity])).toEqual([
      ["input", "required", "breaking"],
      ["input.person", "required", "breaking"],
      ["input.person.name", "required", "breaking"],
    ]);
  });

  it("sorts the flow first, then the request by location, then the response", () => {
    const before = response({ a: str });
    const after = {
      ...elsewhere(block({ a: str, z: str }, ["z"]), "f-123", "live"),
      operation: response({}).operation,
    };
    expect(changesOf(before, after).map((c) => c.location)).toEqual([
      "",
      "input.person.a",
      "input.person.value",
      "input.person.z",
      "response.a",
    ]);
  });
});
