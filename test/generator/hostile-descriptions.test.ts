/**
 * Regression tests for the descriptions of issue 10: text that broke
 * comments or the validator's rewiring, documents refused although the
 * service could produce them, requests accepted although the service would
 * refuse them, unsafe flow ids, nesting, titles, and messages that did not
 * show the value. Each generated flow is type-checked (one program for all)
 * and its request schema (data in its `spec`) run through the checks
 * createSession makes of it.
 */
import { writeFileSync } from "node:fs";
import ts from "typescript";
import { join } from "node:path";
import { emitFlowOrThrow } from "../../generator/emit/emit-flow.js";
import type { EmittedFile } from "../../generator/emit/emitted-file.js";
import { CodegenError, type CodegenErrorCode } from "../../generator/errors.js";
import { buildFlowModelOrThrow } from "../../generator/model/build-flow-model.js";
import { MAX_SCHEMA_COUNT, MAX_SCHEMA_DEPTH } from "../../generator/model/limits.js";
import { MAX_DOCUMENT_DEPTH } from "../../generator/read/document-shape.js";
import type { FlowModel } from "../../generator/model/types.js";
import { parseDescriptionOrThrow } from "../../generator/read/load-description.js";
import type { FlowSpec } from "../../runtime/flow-spec.js";
import { flowChecksOrThrow } from "../../runtime/flow-checks.js";
import { issuesOf } from "../../runtime/validation/schema-check.js";
import { deepSchema, file, HOSTILE_GENERATES as GENERATES } from "../fixtures/descriptions/hostile.js";
import {
  description,
  jsonForm,
  multipartForm,
  type DescriptionParts,
} from "../fixtures/descriptions/make-description.js";
import { makeTempDir, removeDir, runtimeImportFor, typeCheck, writeFiles } from "../fixtures/golden/compile.js";

const FILE = "flows/hostile.yaml";

function build(parts: DescriptionParts | string, name?: string): FlowModel {
  const text = typeof parts === "string" ? parts : description(parts);
  return buildFlowModelOrThrow(parseDescriptionOrThrow(text, FILE), name === undefined ? {} : { name });
}

function refusal(parts: DescriptionParts | string): CodegenError {
  try {
    build(parts);
  } catch (error) {
    if (error instanceof CodegenError) return error;
    throw error;
  }
  throw new Error("built without error");
}

describe("descriptions that generate", () => {
  const dir = makeTempDir();
  const emitted = new Map<string, { model: FlowModel; files: EmittedFile[] }>();
  afterAll(() => {
    removeDir(dir);
  });

  beforeAll(async () => {
    for (const [index, [name, parts]] of GENERATES.entries()) {
      const model = build(parts, `case-${String(index)}`);
      const files = await emitFlowOrThrow(model, { runtimeImport: runtimeImportFor(dir) });
      writeFiles(dir, files);
      emitted.set(name, { model, files });
    }
  });

  test("every one type-checks under strict, with the type tests below", () => {
    const paths = [...emitted.values()].flatMap(({ files }) => files.map((f) => join(dir, f.path)));
    writeFileSync(join(dir, "type-tests.ts"), TYPE_TESTS);
    expect(typeCheck([...paths, join(dir, "type-tests.ts")])).toEqual([]);
  });

  test("comment text stays comment text: no `*/`, `/*` or `//` inside a JSDoc, no tag from text", () => {
    for (const { files } of emitted.values()) {
      const index = files[0]?.content ?? "";
      for (const comment of index.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
        const body = comment.slice(3, -2);
        expect([comment, /\*\/|\/\*|\/\//.test(body)]).toEqual([comment, false]);
        expect([
          comment,
          /(^|\s)@(?!(format|pattern|minLength|maxLength|integer|minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|maxBytes|accept|minItems|maxItems|default|part)\b)/m.test(
            body,
          ),
        ]).toEqual([comment, false]);
      }
      for (const raw of ["\u2028", "\u2029", "\u202e", "\u0000", "\u001b"]) expect(index.includes(raw)).toBe(false);
    }
    const scan = emitted.get("a description with /*")?.files[0]?.content;
    expect(scan).toContain("Scan of the ID card, image/\\* accepted.");
  });

  test("a file in both forms is sent as multipart", () => {
    const model = emitted.get("a file in both forms")?.model;
    expect(model).toMatchObject({ declaredBodyForms: ["json", "multipart"], bodyForm: "multipart" });
  });

  test("titles that give no folder name fall back to the flow id", () => {
    for (const name of ["a title of 500 characters", "a title of punctuation", "a title without Latin letters"]) {
      const [, parts] = GENERATES.find(([n]) => n === name) as [string, DescriptionParts];
      expect(build(parts).name).toBe("flow-f-123");
    }
  });

  test("a repeated enum value is one member", () => {
    const index = emitted.get("a repeated enum value")?.files[0]?.content;
    expect(index).toMatch(/b\?: "x" \| "y";/);
  });

  describe("the request check (the module's spec.request, through the runtime's schema checker)", () => {
    /** The module as it loads; the issues createSession would refuse a request with, as `path message`. */
    const load = (name: string): ((request: unknown) => string[]) => {
      const model = emitted.get(name)?.model as FlowModel;
      const { spec } = jest.requireActual<{ spec: FlowSpec }>(join(dir, model.name, "index.ts"));
      const { request } = flowChecksOrThrow(spec);
      return (value) => issuesOf(request, value).map((issue) => `${issue.path} ${issue.message}`);
    };
    const metadata = { subjectId: "s" };

    test("a property named require(x) is checked like any other", () => {
      const issues = load("a property named require(x)");
      expect(issues({ input: { a: { "require(x)": "ok" } }, metadata })).toEqual([]);
      expect(issues({ input: { a: { "require(x)": 1 } }, metadata })).toEqual(['input.a["require(x)"] must be string']);
    });

    test("a required [] group needs an element", () => {
      const issues = load("a required [] group");
      const documents = [{ templateId: "t", source: new Uint8Array([1]) }];
      expect(issues({ input: { docs: { documents } }, metadata })).toEqual([]);
      expect(issues({ input: { docs: { documents: [] } }, metadata })).toEqual([
        "input.docs.documents must NOT have fewer than 1 items",
      ]);
    });

    test("required arrays need an element; minItems and maxItems hold", () => {
      const issues = load("required arrays with counts");
      const many = Array.from({ length: 20 }, () => "m");
      expect(issues({ input: { a: { one: ["x"], few: [1, 2], many } }, metadata })).toEqual([]);
      expect(issues({ input: { a: { one: [], few: [1, 2] } }, metadata })).toEqual([
        "input.a.one must NOT have fewer than 1 items",
      ]);
      expect(issues({ input: { a: { one: ["x"], few: [1, 2, 3, 4] } }, metadata })).toEqual([
        "input.a.few must NOT have more than 3 items",
      ]);
      expect(issues({ input: { a: { one: ["x"], few: [1, 2], many: many.slice(1) } }, metadata })).toEqual([
        "input.a.many must NOT have fewer than 20 items",
      ]);
    });

    test("required Object.prototype names must be the object's own", () => {
      const issues = load("required Object.prototype names");
      const present = JSON.parse('{"__proto__": "p", "constructor": "c", "toString": "t"}') as unknown;
      expect(issues({ input: { a: present }, metadata })).toEqual([]);
      expect(issues({ input: { a: {} }, metadata }).sort()).toEqual([
        "input.a.__proto__ is required",
        "input.a.constructor is required",
        "input.a.toString is required",
      ]);
      expect(
        issues({
          input: { a: JSON.parse('{"__proto__": 1, "constructor": "c", "toString": "t"}') as unknown },
          metadata,
        }),
      ).toEqual(["input.a.__proto__ must be string"]);
    });
  });
});

/** Type-level tests of the flows above: each `@ts-expect-error` must meet an error. */
const TYPE_TESTS = `
import * as group from "./case-8/index.js";
import * as counts from "./case-9/index.js";
import * as proto from "./case-10/index.js";
import * as empty from "./case-11/index.js";
import * as inheritedNames from "./case-19/index.js";

const metadata = { subjectId: "s" };
declare const blob: Blob;
export const ok: empty.CreateSessionRequest[] = [{ metadata }, { input: {}, metadata }];
// @ts-expect-error input is an object
export const five: empty.CreateSessionRequest = { input: 5, metadata };
// @ts-expect-error no data blocks: no keys
export const extra: empty.CreateSessionRequest = { input: { x: 1 }, metadata };

export const one: group.Docs = { documents: [{ templateId: "t", source: blob }] };
// @ts-expect-error a required [] group needs an element
export const none: group.Docs = { documents: [] };
declare const maybeEmpty: group.DocsDocument[];
// @ts-expect-error an array that may be empty
export const unknownLength: group.Docs = { documents: maybeEmpty };

export const fits: counts.A = { one: ["x"], few: [1, 2], many: ["a", "b", "c", "d", "e", "f", "g", "h"] };
// @ts-expect-error few has two or three elements
export const tooFew: counts.A = { one: ["x"], few: [1] };
// @ts-expect-error few has two or three elements
export const tooMany: counts.A = { one: ["x"], few: [1, 2, 3, 4] };

export const own: proto.A = { ["__proto__"]: "p", constructor: "c", toString: "t" };
// @ts-expect-error constructor and toString are required (Object.prototype's do not count)
export const inherited: proto.A = { ["__proto__"]: "p" };

// Optional ones can be left out: a literal's inherited constructor or toString does not make it wrong.
export const leftOut: inheritedNames.CreateSessionRequest = { input: { a: {} }, metadata };
export const given: inheritedNames.CreateSessionRequest = { input: { a: { constructor: { z: 1 }, toString: true, valueOf: 2, hasOwnProperty: "h" }, constructor: { x: "y" } }, metadata };
// @ts-expect-error a value of the wrong type is still an error
export const wrongType: inheritedNames.CreateSessionRequest = { input: { a: { valueOf: "two" } }, metadata };
// @ts-expect-error __proto__ is required
export const noProto: proto.A = { constructor: "c", toString: "t" };
`;

describe("descriptions that are refused, with the value as written", () => {
  test.each<
    [
      string,
      { given: DescriptionParts | string; want: { code: CodegenErrorCode; pointer: string | RegExp; says: RegExp } },
    ]
  >([
    [
      "a file in a JSON-only form",
      {
        given: { json: jsonForm({ a: { type: "object", properties: { f: file() } } }) },
        want: {
          code: "UNSUPPORTED_CONSTRUCT",
          pointer:
            "#/paths/~1api~1v1~1flows~1f-123~1staging~1sessions/post/requestBody/content/application~1json/schema/properties/input/properties/a/properties/f",
          says: /JSON-only request: .* needs a multipart\/form-data form/,
        },
      },
    ],
    [
      "x-flow-version: .inf",
      {
        given: yamlWith("x-flow-version: 1", "x-flow-version: .inf"),
        want: { code: "INVALID_OPENAPI", pointer: "#/info/x-flow-version", says: /^.*: \.inf is not a finite number/ },
      },
    ],
    [
      "maxLength: .inf",
      {
        given: yamlWith("maxLength: 150", "maxLength: .inf"),
        want: { code: "INVALID_OPENAPI", pointer: /\/maxLength$/, says: /: \.inf is not a finite number/ },
      },
    ],
    [
      "maximum: -.INF",
      {
        given: yamlWith("maxLength: 150", "maximum: -.INF"),
        want: { code: "INVALID_OPENAPI", pointer: /\/maximum$/, says: /: -\.INF is not a finite number/ },
      },
    ],
    [
      "a required array of at most none",
      {
        given: {
          json: jsonForm({
            a: {
              type: "object",
              required: ["b"],
              properties: { b: { type: "array", maxItems: 0, items: { type: "string" } } },
            },
          }),
        },
        want: {
          code: "INVALID_SCHEMA",
          pointer: /\/properties\/b$/,
          says: /"b" is required, so it needs at least one element, but maxItems is 0/,
        },
      },
    ],
    [
      "minItems above maxItems",
      {
        given: {
          json: jsonForm({
            a: {
              type: "object",
              properties: { b: { type: "array", minItems: 3, maxItems: 2, items: { type: "string" } } },
            },
          }),
        },
        want: { code: "INVALID_SCHEMA", pointer: /\/properties\/b$/, says: /minItems is 3 but maxItems is 2/ },
      },
    ],
    [
      "a property name with half a surrogate pair",
      {
        given: { json: jsonForm({ a: { type: "object", properties: { "x\ud800": { type: "string" } } } }) },
        want: {
          code: "INVALID_SCHEMA",
          pointer: /\/properties\/x\ud800$/,
          says: /"x\\ud800" holds half of a UTF-16 surrogate pair/,
        },
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const error = refusal(given);
    expect(error.code).toBe(want.code);
    if (typeof want.pointer === "string") expect(error.context.pointer).toBe(want.pointer);
    else expect(error.context.pointer).toMatch(want.pointer);
    expect(error.context.file).toBe(FILE);
    expect(error.message).toMatch(want.says);
    expect(error.message).not.toMatch(/\bnull\b|undefined/);
  });

  test.each(["..", ".", "x#frag", "x?y=1", "%2e%2e", "a\tb", "a\\b", "a b", "a/b", "é", ""])("flow id %j", (id) => {
    const error = refusal({
      info: { "x-flow-id": id },
      path: `/api/v1/flows/${id}/staging/sessions`,
      json: jsonForm({}),
    });
    expect(error.code).toBe(id === "" ? "NOT_A_FLOW_DESCRIPTION" : "UNSAFE_FLOW_ID");
    expect(error.context.pointer).toBe("#/info/x-flow-id");
    expect(error.message).toContain(JSON.stringify(id).replace(/\t/g, "\\t"));
  });

  test("safe flow ids are accepted as they are", () => {
    for (const id of ["6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13", "A.b_c~d-9", "..."]) {
      expect(
        build({ info: { "x-flow-id": id }, path: `/api/v1/flows/${id}/staging/sessions`, json: jsonForm({}) }).id,
      ).toBe(id);
    }
  });
});

/** The description of make-description.ts as YAML, with one line replaced (a YAML-only value such as `.inf`). */
function yamlWith(line: string, replacement: string): string {
  const text = description({
    json: jsonForm({ a: { type: "object", properties: { b: { type: "string", maxLength: 150 } } } }),
  });
  if (!text.includes(line)) throw new Error(`no ${line}`);
  return text.replace(line, replacement);
}

describe("nesting and size", () => {
  const deepJson = (levels: number): DescriptionParts => ({ json: jsonForm({ deep: deepSchema(levels) }, ["deep"]) });

  test("64 levels (the request, input and 62 below) generate; the module grows linearly but for indentation, and tsc emits it", async () => {
    const dir = makeTempDir();
    try {
      const sizes: { lines: number; unindented: number }[] = [];
      let deepest: string[] = [];
      for (const levels of [31, 62]) {
        const files = await emitFlowOrThrow(build(deepJson(levels), `deep-${String(levels)}`), {
          runtimeImport: runtimeImportFor(dir),
        });
        expect(files.map((each) => each.path)).toEqual([`deep-${String(levels)}/index.ts`]);
        const lines = (files[0]?.content ?? "").split("\n");
        sizes.push({ lines: lines.length, unindented: lines.reduce((sum, line) => sum + line.trimStart().length, 0) });
        deepest = writeFiles(dir, files);
      }
      // Twice the levels, about twice the text (the spec's JSON indents each level: bounded by the depth limit).
      const [shallow, deep] = sizes as [{ lines: number; unindented: number }, { lines: number; unindented: number }];
      expect(deep.lines / shallow.lines).toBeLessThan(2.3);
      expect(deep.unindented / shallow.unindented).toBeLessThan(2.3);
      // The schemas are a string to tsc (JSON.parse of a template literal), however deep: it emits the module.
      expect(emitsJavaScript(deepest)).toBe(true);
    } finally {
      removeDir(dir);
    }
  });

  test.each<[string, DescriptionParts | string, RegExp]>([
    ["65 levels", deepJson(63), /\/properties\/deep(\/properties\/k\d+){62}$/],
    // Refused while the document is read (400 levels of YAML), before the model counts 64 levels of schema.
    ["250 levels (issue 10)", deepJson(248), /\/properties\/deep(\/properties\/k\d+){190,}\/required$/],
    [
      "bracket names 70 deep",
      { multipart: multipartForm({ [`input${"[a]".repeat(70)}`]: { type: "string" } }) },
      /\/properties\/input(\[a\]){70}$/,
    ],
    [
      "arrays in arrays",
      {
        json: jsonForm({
          m: {
            type: "object",
            properties: {
              x: Array.from({ length: 70 }).reduce<Record<string, unknown>>((items) => ({ type: "array", items }), {
                type: "string",
              }),
            },
          },
        }),
      },
      /\/properties\/x(\/items){61}$/,
    ],
  ])("%s: TOO_DEEP, naming the pointer", (_name, given, pointer) => {
    const error = refusal(given);
    expect(error.code).toBe("TOO_DEEP");
    expect(error.context.pointer).toMatch(pointer);
    expect(error.message).toContain(
      `more than ${String(error.context.pointer?.includes("/required") ? MAX_DOCUMENT_DEPTH : MAX_SCHEMA_DEPTH)} levels`,
    );
  });

  test("a document nested thousands of levels: TOO_DEEP, not a stack overflow", () => {
    for (const text of [
      "[".repeat(5000) + "]".repeat(5000),
      `a: ${"{b: ".repeat(3000)}1${"}".repeat(3000)}`,
      `{"a": ${"[".repeat(450)}${"]".repeat(450)}}`,
    ]) {
      const error = refusal(text);
      expect(error.code).toBe("TOO_DEEP");
      expect(error.context.file).toBe(FILE);
    }
  });

  test("$refs that expand to more schemas than any flow has: TOO_LARGE", () => {
    const schemas: Record<string, unknown> = { L0: { type: "string" } };
    for (let level = 1; level <= 12; level += 1) {
      const ref = { $ref: `#/components/schemas/L${String(level - 1)}` };
      schemas[`L${String(level)}`] = { type: "object", properties: { a: ref, b: ref, c: ref, d: ref } };
    }
    const error = refusal({ schemas, json: jsonForm({ bomb: { $ref: "#/components/schemas/L12" } }) });
    expect(error.code).toBe("TOO_LARGE");
    expect(error.message).toContain(`more than ${String(MAX_SCHEMA_COUNT)} schemas`);
  });
});

/** Whether tsc emits JavaScript for `files` (it once ran out of stack on validator code nested 250 levels deep); emit needs no lib. */
function emitsJavaScript(files: readonly string[]): boolean {
  const program = ts.createProgram([...files], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    skipLibCheck: true,
    noResolve: true,
    noLib: true,
    types: [],
  });
  let written = 0;
  const result = program.emit(undefined, () => {
    written += 1;
  });
  return !result.emitSkipped && written === files.length;
}
