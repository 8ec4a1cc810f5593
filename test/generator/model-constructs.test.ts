import { buildFlowModelOrThrow } from "../../generator/model/build-flow-model";
import { MAX_ENUM_VALUES } from "../../generator/model/limits";
import { toJsonSchema } from "../../generator/model/json-schema";
import { kebabCase } from "../../generator/model/names";
import { patternsLeftToService } from "../../generator/model/patterns-left";
import type { FlowModel, Schema } from "../../generator/model/types";
import { CodegenError, type CodegenErrorCode } from "../../generator/errors";
import { parseDescriptionOrThrow } from "../../generator/read/load-description";
import {
  JSON_FORM,
  MULTIPART,
  OPERATION,
  description,
  jsonForm,
  multipartForm,
  type DescriptionParts,
} from "../fixtures/descriptions/make-description";

const FILE = "flows/inline.yaml";

function build(parts: DescriptionParts, name?: string): FlowModel {
  return buildFlowModelOrThrow(parseDescriptionOrThrow(description(parts), FILE), name === undefined ? {} : { name });
}

function buildError(parts: DescriptionParts, name?: string): CodegenError {
  try {
    build(parts, name);
  } catch (error) {
    if (error instanceof CodegenError) return error;
    throw error;
  }
  throw new Error("built without error");
}

function at(schema: Schema, dotted: string): Schema {
  return dotted.split(".").reduce<Schema>((current, step) => {
    if (step === "[]" && current.kind === "array") return current.items;
    const property = current.kind === "object" ? current.properties.find((p) => p.name === step) : undefined;
    if (!property) throw new Error(`${dotted}: no ${step}`);
    return property.schema;
  }, schema);
}

function required(schema: Schema, dotted: string): boolean {
  const steps = dotted.split(".");
  const last = steps.pop() as string;
  const parent = steps.length ? at(schema, steps.join(".")) : schema;
  return parent.kind === "object" && parent.properties.some((p) => p.name === last && p.required);
}

const P = `${MULTIPART}/schema/properties`;
const J = `${JSON_FORM}/schema/properties`;
const RESPONSE = `${OPERATION}/responses/201/content/application~1json/schema`;

describe("schema constructs (JSON form)", () => {
  test.each<[string, { given: Record<string, unknown>; want: Record<string, unknown> }]>([
    [
      "string keywords",
      {
        given: {
          type: "string",
          format: "email",
          pattern: "^a",
          minLength: 1,
          maxLength: 9,
          default: "a",
          description: "d",
        },
        want: {
          kind: "string",
          format: "email",
          pattern: "^a",
          minLength: 1,
          maxLength: 9,
          default: "a",
          description: "d",
          nullable: false,
        },
      },
    ],
    [
      "integer",
      {
        given: { type: "integer", minimum: 1, maximum: 5 },
        want: { kind: "number", integer: true, minimum: 1, maximum: 5 },
      },
    ],
    [
      "exclusive bounds folded",
      {
        given: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
        want: { kind: "number", integer: false, exclusiveMinimum: 0, exclusiveMaximum: 1 },
      },
    ],
    [
      "exclusive false kept as bounds",
      { given: { type: "number", minimum: 0, exclusiveMinimum: false }, want: { kind: "number", minimum: 0 } },
    ],
    ["multipleOf", { given: { type: "number", multipleOf: 0.25 }, want: { kind: "number", multipleOf: 0.25 } }],
    ["boolean", { given: { type: "boolean", default: true }, want: { kind: "boolean", default: true } }],
    [
      "nullable enum without null",
      {
        given: { type: "string", nullable: true, enum: ["a", null] },
        want: { kind: "string", nullable: true, enum: ["a"] },
      },
    ],
    ["type inferred from enum", { given: { enum: ["x", "y"] }, want: { kind: "string", enum: ["x", "y"] } }],
    [
      "the longest enum, repeats kept once",
      {
        given: {
          type: "number",
          enum: [...Array.from({ length: MAX_ENUM_VALUES - 2 }, (_, index) => index), 0, MAX_ENUM_VALUES - 3],
        },
        want: { kind: "number", enum: Array.from({ length: MAX_ENUM_VALUES - 2 }, (_, index) => index) },
      },
    ],
    ["type inferred from maxLength", { given: { maxLength: 3 }, want: { kind: "string", maxLength: 3 } }],
    [
      "array",
      {
        given: { type: "array", minItems: 1, maxItems: 2, items: { type: "integer" } },
        want: {
          kind: "array",
          minItems: 1,
          maxItems: 2,
          items: expect.objectContaining({ kind: "number", integer: true }),
        },
      },
    ],
    [
      "object, open by default",
      {
        given: { type: "object", properties: { a: { type: "string" } } },
        want: { kind: "object", additionalProperties: true },
      },
    ],
    [
      "object, closed",
      { given: { type: "object", additionalProperties: false, properties: {} }, want: { additionalProperties: false } },
    ],
    [
      "object, typed extra keys",
      {
        given: { type: "object", additionalProperties: { type: "integer" } },
        want: { additionalProperties: expect.objectContaining({ kind: "number", integer: true }) },
      },
    ],
    [
      "allOf of objects: union of properties and required",
      {
        given: {
          allOf: [
            { type: "object", required: ["a"], properties: { a: { type: "string" } } },
            { type: "object", required: ["b"], properties: { b: { type: "number" }, a: { type: "string" } } },
          ],
        },
        want: {
          kind: "object",
          properties: [
            expect.objectContaining({ name: "a", required: true }),
            expect.objectContaining({ name: "b", required: true }),
          ],
        },
      },
    ],
    [
      "allOf: a member without type adds constraints",
      {
        given: { allOf: [{ type: "string", minLength: 2 }, { maxLength: 5 }] },
        want: { kind: "string", minLength: 2, maxLength: 5 },
      },
    ],
    [
      "allOf: nullable next to a single reference",
      {
        given: { nullable: true, description: "outer", allOf: [{ $ref: "#/components/schemas/Code" }] },
        want: {
          kind: "string",
          nullable: true,
          description: "outer",
          pattern: "^[A-Z]{3}$",
          pointer: expect.stringMatching(/\/block\/properties\/field$/),
        },
      },
    ],
    [
      "$ref with a description beside it",
      {
        given: { $ref: "#/components/schemas/Code", description: "here" },
        want: { kind: "string", description: "here", pointer: "#/components/schemas/Code" },
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const flow = build({
      json: jsonForm({ block: { type: "object", properties: { field: given } } }),
      schemas: { Code: { type: "string", pattern: "^[A-Z]{3}$", description: "A code" } },
    });
    expect(at(flow.request, "input.block.field")).toMatchObject(want);
  });
});

describe("request normalisation", () => {
  test("a JSON form without input, redirectUrl or state gets them; locales default to all", () => {
    const flow = build({
      json: {
        schema: {
          type: "object",
          properties: { metadata: { type: "object", properties: { subjectId: { type: "string" } } } },
        },
      },
    });
    expect(flow.request.properties.map((p) => [p.name, p.required])).toEqual([
      ["metadata", true],
      ["input", false],
      ["redirectUrl", false],
      ["state", false],
    ]);
    expect(at(flow.request, "input")).toMatchObject({ kind: "object", properties: [], additionalProperties: false });
    expect(at(flow.request, "metadata")).toMatchObject({ additionalProperties: false });
    expect(required(flow.request, "metadata.subjectId")).toBe(true);
    expect(at(flow.request, "metadata.locale")).toMatchObject({
      kind: "string",
      enum: ["en", "de", "fr", "pl", "it", "es"],
    });
    expect(at(flow.request, "redirectUrl")).toMatchObject({ kind: "string", format: "uri" });
    expect(at(flow.request, "state")).toMatchObject({ kind: "string", maxLength: 2048 });
    expect(JSON.stringify(flow.request)).not.toContain('"part"');
    expect(flow.locales).toEqual(["en", "de", "fr", "pl", "it", "es"]);
  });

  test("a multipart form gets the service's part names for what it leaves out", () => {
    const flow = build({ multipart: multipartForm({}) });
    expect(at(flow.request, "metadata.locale")).toMatchObject({ part: ["metadata[locale]"] });
    expect(at(flow.request, "redirectUrl")).toMatchObject({ part: ["redirectUrl"] });
    expect(at(flow.request, "state")).toMatchObject({ part: ["state"], maxLength: 2048 });
    expect(flow).toMatchObject({ declaredBodyForms: ["multipart"], bodyForm: "multipart" });
  });

  test("a declared state keeps a smaller maxLength; a locale subset becomes the flow's locales", () => {
    const flow = build({
      multipart: multipartForm({
        state: { type: "string", maxLength: 64 },
        "metadata[locale]": { type: "string", enum: ["pl", "it", "pl"] },
      }),
    });
    expect(at(flow.request, "state")).toMatchObject({ maxLength: 64 });
    expect(flow.locales).toEqual(["pl", "it"]);
  });

  test("input is required only when a data block is", () => {
    const optional = build({ json: jsonForm({ a: { type: "object", properties: { x: { type: "string" } } } }) });
    const mandatory = build({
      json: jsonForm({ a: { type: "object", properties: { x: { type: "string" } } } }, ["a"]),
    });
    expect([required(optional.request, "input"), required(mandatory.request, "input")]).toEqual([false, true]);
  });
});

describe("multipart form", () => {
  test("bracket objects are required when any leaf is; names stay exact", () => {
    const flow = build({
      multipart: multipartForm(
        {
          "input[a-b][1st]": { type: "string" },
          "input[a-b][default]": { type: "string" },
          "input[opt][x]": { type: "string" },
          "input[tags][]": { type: "integer" },
        },
        ["input[a-b][1st]"],
      ),
    });
    expect(
      ["input", "input.a-b", "input.a-b.1st", "input.a-b.default", "input.opt", "input.tags"].map((d) =>
        required(flow.request, d),
      ),
    ).toEqual([true, true, true, false, false, false]);
    expect(at(flow.request, "input.tags")).toMatchObject({
      kind: "array",
      items: { kind: "number", integer: true, part: ["input[tags][]"] },
    });
    expect(at(flow.request, "input.opt")).toMatchObject({ additionalProperties: false, pointer: `${P}/input[opt][x]` });
  });

  test("a `type: array` inside a `[]` array indexes with depth 1", () => {
    const flow = build({
      multipart: multipartForm(
        {
          "input[docs][items][][pages]": {
            type: "array",
            items: { type: "object", properties: { scan: { type: "string", format: "binary" } } },
          },
        },
        [],
        { "input[docs][items][][pages]": { contentType: "image/png" } },
      ),
    });
    expect(at(flow.request, "input.docs.items.[].pages.[].scan")).toMatchObject({
      kind: "file",
      mediaTypes: ["image/png"],
      part: ["input[docs][items][][pages][", { index: 1 }, "][scan]"],
    });
    expect(flow.bodyForm).toBe("multipart");
  });

  test("an array of arrays indexes each level", () => {
    const flow = build({
      multipart: multipartForm({
        "input[grid][rows]": { type: "array", items: { type: "array", items: { type: "number" } } },
      }),
    });
    expect(at(flow.request, "input.grid.rows.[].[]")).toMatchObject({
      part: ["input[grid][rows][", { index: 0 }, "][", { index: 1 }, "]"],
    });
  });

  test("a `type: object` property derives names without indices", () => {
    const flow = build({
      multipart: multipartForm({
        "input[person]": {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string" }, "e-mail": { type: "string" } },
        },
      }),
    });
    expect(at(flow.request, "input.person.e-mail")).toMatchObject({ part: ["input[person][e-mail]"] });
    expect([required(flow.request, "input.person"), required(flow.request, "input.person.name")]).toEqual([
      false,
      true,
    ]);
  });

  test("a part declared in two allOf members is one part: no two names reach one node of the bracket tree", () => {
    const form = multipartForm({ "input[a][b]": { type: "string" } }) as { schema: Record<string, unknown> };
    const flow = build({
      multipart: {
        schema: { allOf: [form.schema, { type: "object", properties: { "input[a][b]": { type: "string" } } }] },
      },
    });
    expect(at(flow.request, "input.a.b")).toMatchObject({ kind: "string", part: ["input[a][b]"] });
    const group = at(flow.request, "input.a");
    expect(group.kind === "object" ? group.properties.map((property) => property.name) : []).toEqual(["b"]);
  });

  test("file size defaults to the service limit", () => {
    const flow = build({ multipart: multipartForm({ "input[doc][scan]": { type: "string", format: "binary" } }) });
    expect(at(flow.request, "input.doc.scan")).toMatchObject({ kind: "file", maxBytes: 26_214_400, mediaTypes: [] });
  });
});

describe("names", () => {
  test.each<[string, { given: string; want: string }]>([
    ["words", { given: "Bank account and address check", want: "bank-account-and-address-check" }],
    ["acronym", { given: "AML screening", want: "aml-screening" }],
    ["camelCase", { given: "documentVerification v2", want: "document-verification-v2" }],
    ["accents", { given: "Vérification d'identité", want: "verification-d-identite" }],
    ["symbols", { given: "  */ `x` ${y} ", want: "x-y" }],
    ["nothing left", { given: "検証", want: "" }],
  ])("%s", (_name, { given, want }) => {
    expect(kebabCase(given)).toBe(want);
  });

  test("the config name wins over the title", () => {
    expect(build({ json: jsonForm({}) }, "my-flow").name).toBe("my-flow");
    expect(build({ json: jsonForm({}) }).name).toBe("test-flow");
  });
});

describe("patterns the linear-time engine cannot run are left to the service (issue 31)", () => {
  // Patterns run on RE2, never on a backtracking engine: one it cannot run is not refused (the service checks it anyway)
  // and not run otherwise. The model keeps it with the reason, the schema the client and the emulator check leaves it
  // out (the field's other keywords stay), and the run's report names the field.
  test.each<
    [string, { given: DescriptionParts; want: { field: string; pointer: string; pattern: string; reason: unknown } }]
  >([
    [
      "a backreference",
      {
        given: { json: jsonForm({ a: { type: "string", pattern: "^(a+)\\1$", maxLength: 9 } }) },
        want: {
          field: "request.input.a",
          pointer: `${J}/input/properties/a/pattern`,
          pattern: "^(a+)\\1$",
          reason: "a backreference (\\1)",
        },
      },
    ],
    [
      "a named backreference",
      {
        given: { json: jsonForm({ a: { type: "string", pattern: "(?<q>['\"]).*\\k<q>", maxLength: 9 } }) },
        want: {
          field: "request.input.a",
          pointer: `${J}/input/properties/a/pattern`,
          pattern: "(?<q>['\"]).*\\k<q>",
          reason: "a named backreference (\\k<name>)",
        },
      },
    ],
    [
      "a lookahead",
      {
        given: { json: jsonForm({ a: { type: "string", pattern: "^(?=.*[0-9])[A-Za-z0-9]{8,}$", maxLength: 9 } }) },
        want: {
          field: "request.input.a",
          pointer: `${J}/input/properties/a/pattern`,
          pattern: "^(?=.*[0-9])[A-Za-z0-9]{8,}$",
          reason: "a lookahead ((?= or (?!)",
        },
      },
    ],
    [
      "a lookbehind, in a multipart part",
      {
        given: { multipart: multipartForm({ "input[a][b]": { type: "string", pattern: "(?<!x)y", maxLength: 9 } }) },
        want: {
          field: "request.input.a.b",
          pointer: `${P}/input[a][b]/pattern`,
          pattern: "(?<!x)y",
          reason: "a lookbehind ((?<= or (?<!)",
        },
      },
    ],
    [
      "a repetition over 1000 times",
      {
        given: { json: jsonForm({ a: { type: "string", pattern: "^a{2000}$", maxLength: 9 } }) },
        want: {
          field: "request.input.a",
          pointer: `${J}/input/properties/a/pattern`,
          pattern: "^a{2000}$",
          reason: "a repetition count above 1000 ({2000})",
        },
      },
    ],
    [
      "a binary Unicode property",
      {
        given: { json: jsonForm({ a: { type: "string", pattern: "^\\p{Alphabetic}+$", maxLength: 9 } }) },
        want: {
          field: "request.input.a",
          pointer: `${J}/input/properties/a/pattern`,
          pattern: "^\\p{Alphabetic}+$",
          reason: expect.stringMatching(/^the Unicode property \\p\{Alphabetic\} \(RE2 knows/) as unknown,
        },
      },
    ],
    [
      "a lookahead in an array's items",
      {
        given: { json: jsonForm({ a: { type: "array", items: { type: "string", pattern: "^(?!x)", maxLength: 9 } } }) },
        want: {
          field: "request.input.a[]",
          pointer: `${J}/input/properties/a/items/pattern`,
          pattern: "^(?!x)",
          reason: "a lookahead ((?= or (?!)",
        },
      },
    ],
    [
      "a lookahead in the 201 response",
      {
        given: {
          json: jsonForm({}),
          operation: {
            responses: {
              "201": {
                description: "x",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: { code: { type: "string", pattern: "^(?=A)", maxLength: 9 } },
                    },
                  },
                },
              },
            },
          },
        },
        want: {
          field: "response.code",
          pointer: `${RESPONSE}/properties/code/pattern`,
          pattern: "^(?=A)",
          reason: "a lookahead ((?= or (?!)",
        },
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const flow = build(given);
    expect(patternsLeftToService(flow)).toEqual([want]);
    const steps = want.field
      .split(".")
      .slice(1)
      .flatMap((step) => (step.endsWith("[]") ? [step.slice(0, -2), "[]"] : [step]));
    const field = at(want.field.startsWith("response") ? flow.response : flow.request, steps.join("."));
    // The model keeps the pattern as written (the docs show it) with the reason.
    expect(field).toMatchObject({
      kind: "string",
      pattern: want.pattern,
      patternLeftToService: want.reason,
      maxLength: 9,
    });
    // The checked schema leaves out that one keyword.
    expect(toJsonSchema(field, { file: {} })).toEqual({ type: "string", maxLength: 9 });
  });

  test("a pattern RE2 runs is kept in the schema and reported nowhere", () => {
    const flow = build({ json: jsonForm({ a: { type: "string", pattern: "^(a+)+$" } }) });
    const field = at(flow.request, "input.a");
    expect(field).toMatchObject({ kind: "string", pattern: "^(a+)+$" });
    expect(field).not.toHaveProperty("patternLeftToService");
    expect(toJsonSchema(field, { file: {} })).toEqual({ type: "string", pattern: "^(a+)+$" });
    expect(patternsLeftToService(flow)).toEqual([]);
  });
});

describe("errors name the file and the JSON pointer", () => {
  test.each<[string, { given: DescriptionParts; want: { code: CodegenErrorCode; pointer: string; says: RegExp } }]>([
    [
      "missing x-flow-id",
      {
        given: { json: jsonForm({}), info: { "x-flow-id": undefined } },
        want: { code: "NOT_A_FLOW_DESCRIPTION", pointer: "#/info", says: /x-flow-id is missing/ },
      },
    ],
    [
      "x-flow-version not a number",
      {
        given: { json: jsonForm({}), info: { "x-flow-version": "1" } },
        want: { code: "NOT_A_FLOW_DESCRIPTION", pointer: "#/info/x-flow-version", says: /must be a number, got "1"/ },
      },
    ],
    [
      "unknown environment",
      {
        given: { json: jsonForm({}), info: { "x-environment": "prod" } },
        want: { code: "NOT_A_FLOW_DESCRIPTION", pointer: "#/info/x-environment", says: /staging, live/ },
      },
    ],
    [
      "path flow id differs",
      {
        given: { json: jsonForm({}), path: "/api/v1/flows/other/staging/sessions" },
        want: {
          code: "PATH_MISMATCH",
          pointer: "#/paths/~1api~1v1~1flows~1other~1staging~1sessions",
          says: /"other" but info.x-flow-id is "f-123"/,
        },
      },
    ],
    [
      "path environment differs",
      {
        given: { json: jsonForm({}), path: "/api/v1/flows/f-123/live/sessions" },
        want: {
          code: "PATH_MISMATCH",
          pointer: "#/paths/~1api~1v1~1flows~1f-123~1live~1sessions",
          says: /"live" but info.x-environment is "staging"/,
        },
      },
    ],
    [
      "path template",
      {
        given: { json: jsonForm({}), path: "/api/v1/flows/{flowId}/{environment}/sessions" },
        want: {
          code: "PATH_MISMATCH",
          pointer: "#/paths/~1api~1v1~1flows~1{flowId}~1{environment}~1sessions",
          says: /flow "\{flowId\}"/,
        },
      },
    ],
    [
      "path of another shape",
      {
        given: { json: jsonForm({}), path: "/sessions" },
        want: {
          code: "PATH_MISMATCH",
          pointer: "#/paths/~1sessions",
          says: /is not \/api\/v1\/flows\/f-123\/staging\/sessions/,
        },
      },
    ],
    [
      "wrong operationId",
      {
        given: { json: jsonForm({}), operation: { operationId: "create" } },
        want: { code: "NOT_A_FLOW_DESCRIPTION", pointer: OPERATION, says: /createSession, got "create"/ },
      },
    ],
    [
      "no servers",
      {
        given: { json: jsonForm({}), document: { servers: undefined } },
        want: { code: "NOT_A_FLOW_DESCRIPTION", pointer: "#", says: /servers\[0\]\.url is missing/ },
      },
    ],
    [
      "no 201 response",
      {
        given: { json: jsonForm({}), operation: { responses: { "200": { description: "ok" } } } },
        want: { code: "NOT_A_FLOW_DESCRIPTION", pointer: `${OPERATION}/responses`, says: /no 201 response/ },
      },
    ],
    [
      "no request body",
      {
        given: { json: jsonForm({}), operation: { requestBody: undefined } },
        want: { code: "NO_REQUEST_BODY", pointer: OPERATION, says: /no requestBody/ },
      },
    ],
    [
      "dangling $ref",
      {
        given: { json: jsonForm({ a: { $ref: "#/components/schemas/Gone" } }) },
        want: {
          code: "DANGLING_REF",
          pointer: `${J}/input/properties/a/$ref`,
          says: /"#\/components\/schemas\/Gone" points to nothing/,
        },
      },
    ],
    [
      "recursive schema",
      {
        given: {
          json: jsonForm({ a: { $ref: "#/components/schemas/Tree" } }),
          schemas: {
            Tree: {
              type: "object",
              properties: { kids: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
            },
          },
        },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: "#/components/schemas/Tree/properties/kids/items",
          says: /recursive schema/,
        },
      },
    ],
    [
      "oneOf",
      {
        given: { json: jsonForm({ a: { oneOf: [{ type: "string" }, { type: "number" }] } }) },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: `${J}/input/properties/a/oneOf`,
          says: /`oneOf` is not supported/,
        },
      },
    ],
    [
      "anyOf",
      {
        given: { json: jsonForm({ a: { anyOf: [{ type: "string" }] } }) },
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: `${J}/input/properties/a/anyOf`, says: /`anyOf`/ },
      },
    ],
    [
      "not",
      {
        given: { json: jsonForm({ a: { not: { type: "string" } } }) },
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: `${J}/input/properties/a/not`, says: /`not`/ },
      },
    ],
    [
      "no type",
      {
        given: { json: jsonForm({ a: { description: "what am I?" } }) },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: `${J}/input/properties/a`,
          says: /no `type` and nothing in it says/,
        },
      },
    ],
    [
      "ambiguous type",
      {
        given: { json: jsonForm({ a: { minimum: 1, maxLength: 2 } }) },
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: `${J}/input/properties/a`, says: /more than one type/ },
      },
    ],
    [
      "uniqueItems",
      {
        given: { json: jsonForm({ a: { type: "array", uniqueItems: true, items: { type: "string" } } }) },
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: `${J}/input/properties/a/uniqueItems`, says: /uniqueItems/ },
      },
    ],
    [
      "allOf conflict",
      {
        given: { json: jsonForm({ a: { allOf: [{ type: "string" }, { type: "number" }] } }) },
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: `${J}/input/properties/a/allOf`, says: /disagree on `type`/ },
      },
    ],
    [
      "allOf property conflict",
      {
        given: {
          json: jsonForm({
            a: { allOf: [{ properties: { x: { type: "string" } } }, { properties: { x: { type: "number" } } }] },
          }),
        },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: `${J}/input/properties/a/allOf/1/properties/x`,
          says: /declare property "x" differently/,
        },
      },
    ],
    [
      "file in a JSON-only form",
      {
        given: { json: jsonForm({ a: { type: "string", format: "binary" } }) },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: `${J}/input/properties/a`,
          says: /file .* JSON-only request: .* needs a multipart\/form-data form/,
        },
      },
    ],
    [
      "file in the response",
      {
        given: {
          json: jsonForm({}),
          operation: {
            responses: {
              "201": {
                description: "x",
                content: { "application/json": { schema: { type: "string", format: "binary" } } },
              },
            },
          },
        },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: `${OPERATION}/responses/201/content/application~1json/schema`,
          says: /cannot appear in the response/,
        },
      },
    ],
    [
      "required names an unknown property",
      {
        given: { json: jsonForm({ a: { type: "object", required: ["zz"], properties: {} } }) },
        want: { code: "INVALID_SCHEMA", pointer: `${J}/input/properties/a/required`, says: /"zz"/ },
      },
    ],
    [
      "enum too long",
      {
        given: {
          json: jsonForm({
            a: { type: "string", enum: Array.from({ length: MAX_ENUM_VALUES + 1 }, (_, index) => `v${String(index)}`) },
          }),
        },
        want: { code: "TOO_LARGE", pointer: `${J}/input/properties/a/enum`, says: /10001 values, more than 10000/ },
      },
    ],
    [
      "enum value of the wrong type",
      {
        given: { json: jsonForm({ a: { type: "string", enum: ["a", 1] } }) },
        want: { code: "INVALID_SCHEMA", pointer: `${J}/input/properties/a/enum/1`, says: /enum value 1/ },
      },
    ],
    [
      "invalid pattern",
      {
        given: { json: jsonForm({ a: { type: "string", pattern: "([a-" } }) },
        want: {
          code: "INVALID_OPENAPI",
          pointer: `${J}/input/properties/a/pattern`,
          says: /must match format "regex"/,
        },
      },
    ],
    [
      "pattern invalid as a unicode regex",
      {
        given: { json: jsonForm({ a: { type: "string", pattern: "a\\-b" } }) },
        want: {
          code: "INVALID_SCHEMA",
          pointer: `${J}/input/properties/a/pattern`,
          says: /not a valid regular expression/,
        },
      },
    ],
    // Not left to the service: a pattern that is no regular expression is a broken description, in the response too.
    [
      "response pattern invalid as a unicode regex",
      {
        given: {
          json: jsonForm({}),
          operation: {
            responses: {
              "201": {
                description: "x",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { code: { type: "string", pattern: "a\\-b" } } },
                  },
                },
              },
            },
          },
        },
        want: {
          code: "INVALID_SCHEMA",
          pointer: `${RESPONSE}/properties/code/pattern`,
          says: /not a valid regular expression/,
        },
      },
    ],
    [
      "unknown top-level key (JSON)",
      {
        given: { json: { schema: { type: "object", properties: { extra: { type: "string" } } } } },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: `${J}/extra`,
          says: /"extra": a request has only input, metadata/,
        },
      },
    ],
    [
      "input not an object",
      {
        given: { json: { schema: { type: "object", properties: { input: { type: "string" } } } } },
        want: { code: "INVALID_SCHEMA", pointer: `${J}/input`, says: /"input" must be an object, not string/ },
      },
    ],
    [
      "metadata with another key",
      {
        given: { multipart: multipartForm({ "metadata[email]": { type: "string" } }) },
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: `${P}/metadata[email]`, says: /only subjectId and locale/ },
      },
    ],
    [
      "subjectId not a string",
      {
        given: {
          multipart: { schema: { type: "object", properties: { "metadata[subjectId]": { type: "integer" } } } },
        },
        want: { code: "INVALID_SCHEMA", pointer: `${P}/metadata[subjectId]`, says: /"subjectId" must be a string/ },
      },
    ],
    [
      "unknown locale",
      {
        given: { multipart: multipartForm({ "metadata[locale]": { type: "string", enum: ["en", "nl"] } }) },
        want: { code: "INVALID_SCHEMA", pointer: `${P}/metadata[locale]/enum/1`, says: /locale "nl"/ },
      },
    ],
    [
      "unknown top-level part",
      {
        given: { multipart: multipartForm({ "extra[x]": { type: "string" } }) },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: `${P}/extra[x]`,
          says: /only input, metadata, redirectUrl and state/,
        },
      },
    ],
    [
      "unpaired brackets",
      {
        given: { multipart: multipartForm({ "input[a][b": { type: "string" } }) },
        want: { code: "INVALID_SCHEMA", pointer: `${P}/input[a][b`, says: /not a valid bracket name/ },
      },
    ],
    [
      "leaf, then deeper",
      {
        given: { multipart: multipartForm({ "input[a]": { type: "string" }, "input[a][b]": { type: "string" } }) },
        want: { code: "INVALID_SCHEMA", pointer: `${P}/input[a][b]`, says: /goes inside "input\[a\]"/ },
      },
    ],
    [
      "deeper, then leaf",
      {
        given: { multipart: multipartForm({ "input[a][b]": { type: "string" }, "input[a]": { type: "string" } }) },
        want: { code: "INVALID_SCHEMA", pointer: `${P}/input[a]`, says: /"input\[a\]\[b\]" .* puts fields inside it/ },
      },
    ],
    [
      "array and object at one name",
      {
        given: { multipart: multipartForm({ "input[a][][x]": { type: "string" }, "input[a][y]": { type: "string" } }) },
        want: { code: "INVALID_SCHEMA", pointer: `${P}/input[a][y]`, says: /array \(\[\]\) or an object/ },
      },
    ],
    [
      "additionalProperties in multipart",
      {
        given: {
          multipart: multipartForm({ "input[a]": { type: "object", additionalProperties: true, properties: {} } }),
        },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer: `${P}/input[a]/additionalProperties`,
          says: /every part must be declared/,
        },
      },
    ],
    [
      "required part not declared",
      {
        given: { multipart: multipartForm({}, ["input[a][b]"]) },
        want: { code: "INVALID_SCHEMA", pointer: `${MULTIPART}/schema/required`, says: /"input\[a\]\[b\]"/ },
      },
    ],
    [
      "encoding for an unknown part",
      {
        given: { multipart: multipartForm({}, [], { "input[x]": { contentType: "image/png" } }) },
        want: { code: "INVALID_SCHEMA", pointer: `${MULTIPART}/encoding/input[x]`, says: /not a property of the form/ },
      },
    ],
    [
      "forms disagree on required",
      {
        given: {
          json: jsonForm({ a: { type: "object", properties: { b: { type: "string" } } } }),
          multipart: multipartForm({ "input[a][b]": { type: "string" } }, ["input[a][b]"]),
        },
        want: {
          code: "INVALID_SCHEMA",
          pointer: `${P}/input[a][b]`,
          says: /at request.input: required in multipart, optional in JSON/,
        },
      },
    ],
    [
      "forms disagree on kind",
      {
        given: {
          json: jsonForm({ a: { type: "object", properties: { b: { type: "string" } } } }),
          multipart: multipartForm({ "input[a][b]": { type: "number" } }),
        },
        want: {
          code: "INVALID_SCHEMA",
          pointer: `${P}/input[a][b]`,
          says: /request.input.a.b: string in JSON, number in multipart/,
        },
      },
    ],
    [
      "forms disagree on fields",
      {
        given: {
          json: jsonForm({ a: { type: "object", properties: { b: { type: "string" }, c: { type: "string" } } } }),
          multipart: multipartForm({ "input[a][b]": { type: "string" } }),
        },
        want: { code: "INVALID_SCHEMA", pointer: `${P}/input[a][b]`, says: /"c" is only in the JSON form/ },
      },
    ],
    [
      "only form-urlencoded",
      {
        given: {
          document: {},
          operation: { requestBody: { content: { "text/plain": { schema: { type: "string" } } } } },
        },
        want: { code: "NO_REQUEST_BODY", pointer: `${OPERATION}/requestBody`, says: /found: text\/plain/ },
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const error = buildError(given);
    expect(error.code).toBe(want.code);
    expect(error.context.file).toBe(FILE);
    expect(error.context.pointer).toBe(want.pointer);
    expect(error.context.line).toEqual(expect.any(Number));
    expect(error.message).toContain(`${FILE}:${error.context.line} ${want.pointer}: `);
    expect(error.message).toMatch(want.says);
    // Reading fails before there is a flow name; so does deriving the name itself.
    const named = want.code !== "INVALID_OPENAPI" && want.pointer !== "#/info/title";
    expect(error.context.flow).toBe(named ? "test-flow" : undefined);
  });
});
