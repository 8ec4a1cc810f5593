import { expect } from "@jest/globals";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { CodegenError, type CodegenErrorCode } from "../../generator/errors";
import { parseDescriptionOrThrow, type LoadedDescription } from "../../generator/read/load-description";

const ROOT = path.resolve(__dirname, "../..");
const BAD = "test/fixtures/descriptions/bad";
const SIGNING = "flows/signing.yaml";

/** Reading the bytes is read-source.ts's job (tested with the pipeline); this suite tests parsing them. */
async function loadDescriptionOrThrow(file: string): Promise<LoadedDescription> {
  return parseDescriptionOrThrow(await readFile(path.join(ROOT, file)), file);
}

async function loadError(file: string): Promise<CodegenError> {
  try {
    await loadDescriptionOrThrow(file);
  } catch (error) {
    if (error instanceof CodegenError) return error;
    throw error;
  }
  throw new Error(`${file} loaded without error`);
}

describe("parseDescriptionOrThrow: valid descriptions", () => {
  test.each([
    ["signing", SIGNING],
    ["document verification", "flows/document-verification.yaml"],
    ["aml screening", "flows/aml-screening.yaml"],
    ["odd names", "test/fixtures/descriptions/odd-names.yaml"],
    ["both forms", "test/fixtures/descriptions/json-and-multipart.yaml"],
  ])("%s loads, keeps the display path and hashes the bytes", async (_name, file) => {
    const bytes = await readFile(path.join(ROOT, file));
    const loaded = await loadDescriptionOrThrow(file);
    expect(loaded.file).toBe(file);
    expect(loaded.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(loaded.document).toMatchObject({ openapi: expect.stringMatching(/^3\.0\./) });
  });

  test("maps a JSON pointer to the line of its key", async () => {
    const loaded = await loadDescriptionOrThrow(SIGNING);
    const text = await readFile(path.join(ROOT, SIGNING), "utf8");
    const lineOf = (needle: string): number => text.split("\n").findIndex((line) => line.includes(needle)) + 1;
    const properties =
      "#/paths/~1api~1v1~1flows~16f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13~1staging~1sessions/post/requestBody/content/multipart~1form-data/schema/properties";
    const cases: readonly [string, number][] = [
      ["#/info/x-flow-id", lineOf("x-flow-id:")],
      [
        `${properties}/input[documentsToSign][documents][][source]`,
        lineOf("input[documentsToSign][documents][][source]:"),
      ],
      [`${properties}/metadata[locale]/enum/1`, lineOf("enum: [en, de, fr")],
      ["#/servers/0/url", lineOf("- url:")],
    ];
    for (const [pointer, line] of cases) expect([pointer, loaded.lineOfOrUndefined(pointer)]).toEqual([pointer, line]);
    expect(loaded.lineOfOrUndefined("#/info/nope")).toBeUndefined();
    expect(loaded.lineOfOrUndefined("#/servers/7")).toBeUndefined();
  });
});

describe("parseDescriptionOrThrow", () => {
  test("reads JSON, and bytes and strings hash alike", async () => {
    const yamlText = await readFile(path.join(ROOT, "flows/aml-screening.yaml"), "utf8");
    const fromYaml = parseDescriptionOrThrow(yamlText, "aml.yaml");
    const json = JSON.stringify(fromYaml.document, null, 2);
    const fromString = parseDescriptionOrThrow(json, "api:a41f0c6d/staging");
    const fromBytes = parseDescriptionOrThrow(new TextEncoder().encode(json), "api:a41f0c6d/staging");
    expect(fromString.document).toEqual(fromYaml.document);
    expect(fromBytes.sha256).toBe(fromString.sha256);
    expect(fromString.sha256).toBe(createHash("sha256").update(json).digest("hex"));
    expect(fromString.lineOfOrUndefined("#/info/x-flow-id")).toBe(
      json.split("\n").findIndex((l) => l.includes('"x-flow-id"')) + 1,
    );
  });

  test("bytes that are not UTF-8 are a syntax error", () => {
    const error = catchError(() => parseDescriptionOrThrow(new Uint8Array([0x6f, 0x70, 0xff, 0xfe]), "bin.yaml"));
    expect([error.code, error.message]).toEqual(["SYNTAX_ERROR", "bin.yaml: the file is not valid UTF-8 text"]);
  });

  test.each<[string, { given: string; want: { code: CodegenErrorCode; message: RegExp } }]>([
    ["empty file", { given: "", want: { code: "NOT_OPENAPI_3", message: /x\.yaml .*not an OpenAPI document/ } }],
    ["a list", { given: "- a\n- b\n", want: { code: "NOT_OPENAPI_3", message: /expected a mapping/ } }],
    [
      "numeric version",
      { given: "openapi: 3.0\n", want: { code: "NOT_OPENAPI_3", message: /x\.yaml:1 #\/openapi: .*must be a string/ } },
    ],
    [
      "version 2",
      { given: "openapi: 2.0.0\n", want: { code: "NOT_OPENAPI_3", message: /"2\.0\.0" is not supported/ } },
    ],
    [
      "two documents",
      { given: "a: 1\n---\nb: 2\n", want: { code: "SYNTAX_ERROR", message: /x\.yaml:2: not valid YAML/ } },
    ],
    [
      "JSON duplicate key",
      {
        given: '{"openapi": "3.0.3",\n "openapi": "3.0.1"}',
        want: { code: "DUPLICATE_KEY", message: /x\.yaml:2 #\/openapi: "openapi" appears twice/ },
      },
    ],
    [
      "missing info",
      {
        given: "openapi: 3.0.3\npaths: {}\n",
        want: { code: "INVALID_OPENAPI", message: /x\.yaml:1 #: .*missing required key "info"/ },
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const error = catchError(() => parseDescriptionOrThrow(given, "x.yaml"));
    expect(error.code).toBe(want.code);
    expect(error.message).toMatch(want.message);
  });

  // Keys are checked for repeats once each, not against every earlier key of their mapping (the yaml
  // package's own check, quadratic: a description of a few megabytes, as POST /__emulator/flows takes,
  // held the emulator for minutes).
  test.each([
    ["YAML", (keys: string[]) => `openapi: 3.0.3\nx-many:\n${keys.map((key) => `  ${key}: 1\n`).join("")}`],
    [
      "JSON",
      (keys: string[]) => `{"openapi": "3.0.3",\n"x-many": {\n${keys.map((key) => `"${key}": 1`).join(",\n")}}}`,
    ],
  ])("a repeated key at the end of a %s mapping of 50 000 keys is found, with its line", (_form, write) => {
    const keys = Array.from({ length: 50_000 }, (_, index) => `k${String(index)}`);
    const error = catchError(() => parseDescriptionOrThrow(write([...keys, "k0"]), "x.yaml"));
    expect([error.code, error.context.line, error.context.pointer]).toEqual(["DUPLICATE_KEY", 50_003, "#/x-many/k0"]);
  });

  test("a repeated key is reported where it comes first in the file, also inside a mapping that comes before", () => {
    const error = catchError(() => parseDescriptionOrThrow("a:\n  b: 1\n  c: {d: 1, d: 2}\n  b: 2\n", "x.yaml"));
    expect([error.code, error.context.line, error.context.pointer]).toEqual(["DUPLICATE_KEY", 3, "#/a/c/d"]);
  });
});

describe("parseDescriptionOrThrow: malformed descriptions", () => {
  test.each<
    [string, { given: string; want: { code: CodegenErrorCode; line?: number; pointer?: string; says: RegExp } }]
  >([
    [
      "YAML syntax error",
      { given: `${BAD}/syntax-error.yaml`, want: { code: "SYNTAX_ERROR", line: 7, says: /not valid YAML/ } },
    ],
    [
      "Swagger 2.0",
      {
        given: `${BAD}/swagger-2.yaml`,
        want: { code: "NOT_OPENAPI_3", line: 2, pointer: "#/swagger", says: /Swagger 2\.0 .*OpenAPI 3\.0/ },
      },
    ],
    [
      "no openapi field",
      { given: `${BAD}/no-openapi.yaml`, want: { code: "NOT_OPENAPI_3", pointer: "#", says: /no `openapi` field/ } },
    ],
    [
      "OpenAPI 3.1",
      {
        given: `${BAD}/openapi-3-1.yaml`,
        want: {
          code: "NOT_OPENAPI_3",
          line: 2,
          pointer: "#/openapi",
          says: /3\.1 is not supported, flow descriptions are 3\.0/,
        },
      },
    ],
    [
      "invalid OpenAPI 3.0",
      {
        given: `${BAD}/invalid-openapi.yaml`,
        want: {
          code: "INVALID_OPENAPI",
          line: 26,
          pointer: "#/paths/~1api~1v1~1flows~1f1~1live~1sessions/post/responses/201",
          says: /missing required key "description"/,
        },
      },
    ],
    [
      "duplicate multipart property",
      {
        given: `${BAD}/duplicate-names.yaml`,
        want: {
          code: "DUPLICATE_KEY",
          line: 27,
          pointer:
            "#/paths/~1api~1v1~1flows~1f1~1live~1sessions/post/requestBody/content/multipart~1form-data/schema/properties/input[basicIdentity][givenName]",
          says: /"input\[basicIdentity\]\[givenName\]" appears twice/,
        },
      },
    ],
  ])("%s", async (_name, { given, want }) => {
    const error = await loadError(given);
    expect(error.code).toBe(want.code);
    expect(error.context.file).toBe(given);
    expect(error.message).toContain(given);
    expect(error.message).toMatch(want.says);
    if (want.line !== undefined) expect(error.context.line).toBe(want.line);
    if (want.pointer !== undefined) {
      expect(error.context.pointer).toBe(want.pointer);
      expect(error.message).toContain(want.pointer);
    }
  });
});

function catchError(run: () => unknown): CodegenError {
  try {
    run();
  } catch (error) {
    if (error instanceof CodegenError) return error;
    throw error;
  }
  throw new Error("no error thrown");
}
