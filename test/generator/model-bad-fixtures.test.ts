import { readFile } from "node:fs/promises";
import path from "node:path";
import { buildFlowModelOrThrow } from "../../generator/model/build-flow-model";
import { CodegenError, type CodegenErrorCode } from "../../generator/errors";
import { parseDescriptionOrThrow } from "../../generator/read/load-description";

const ROOT = path.resolve(__dirname, "../..");
const BAD = "test/fixtures/descriptions/bad";
const PROPERTIES =
  "#/paths/~1api~1v1~1flows~1f1~1live~1sessions/post/requestBody/content/multipart~1form-data/schema/properties";

describe("bad description files fail with a code, the file, the pointer and the line", () => {
  test.each<[string, { given: string; want: { code: CodegenErrorCode; pointer: string; line: number; says: RegExp } }]>(
    [
      [
        "missing x-flow-id",
        {
          given: "missing-flow-id.yaml",
          want: { code: "NOT_A_FLOW_DESCRIPTION", pointer: "#/info", line: 3, says: /x-flow-id is missing/ },
        },
      ],
      [
        "flow id vs path",
        {
          given: "path-mismatch-id.yaml",
          want: {
            code: "PATH_MISMATCH",
            pointer: "#/paths/~1api~1v1~1flows~1f2~1live~1sessions",
            line: 12,
            says: /"f2" but info.x-flow-id is "f1"/,
          },
        },
      ],
      [
        "environment vs path",
        {
          given: "path-mismatch-environment.yaml",
          want: {
            code: "PATH_MISMATCH",
            pointer: "#/paths/~1api~1v1~1flows~1f1~1staging~1sessions",
            line: 12,
            says: /"staging" but info.x-environment is "live"/,
          },
        },
      ],
      [
        "dangling $ref",
        {
          given: "dangling-ref.yaml",
          want: {
            code: "DANGLING_REF",
            pointer: `${PROPERTIES}/input[basicIdentity][name]/$ref`,
            line: 26,
            says: /"#\/components\/schemas\/Missing" points to nothing/,
          },
        },
      ],
      [
        "external $ref",
        {
          given: "external-ref.yaml",
          want: {
            code: "UNSUPPORTED_CONSTRUCT",
            pointer: `${PROPERTIES}/input[basicIdentity][name]/$ref`,
            line: 26,
            says: /outside this document/,
          },
        },
      ],
      [
        "recursive schema",
        {
          given: "recursive-ref.yaml",
          want: {
            code: "UNSUPPORTED_CONSTRUCT",
            pointer: "#/components/schemas/Node/properties/child",
            line: 42,
            says: /recursive schema/,
          },
        },
      ],
      [
        "no request body",
        {
          given: "no-request-body.yaml",
          want: {
            code: "NO_REQUEST_BODY",
            pointer: "#/paths/~1api~1v1~1flows~1f1~1live~1sessions/post",
            line: 13,
            says: /no requestBody/,
          },
        },
      ],
      [
        "no usable body form",
        {
          given: "form-urlencoded-only.yaml",
          want: {
            code: "NO_REQUEST_BODY",
            pointer: "#/paths/~1api~1v1~1flows~1f1~1live~1sessions/post/requestBody",
            line: 15,
            says: /neither application\/json nor multipart\/form-data/,
          },
        },
      ],
      [
        "oneOf",
        {
          given: "unsupported-oneof.yaml",
          want: {
            code: "UNSUPPORTED_CONSTRUCT",
            pointer: `${PROPERTIES}/input[basicIdentity][givenName]/oneOf`,
            line: 26,
            says: /`oneOf` is not supported/,
          },
        },
      ],
    ],
  )("%s", async (_name, { given, want }) => {
    const file = `${BAD}/${given}`;
    let caught: unknown;
    try {
      buildFlowModelOrThrow(parseDescriptionOrThrow(await readFile(path.join(ROOT, file)), file), { name: "bad" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CodegenError);
    const error = caught as CodegenError;
    expect(error.code).toBe(want.code);
    expect(error.context).toEqual({ flow: "bad", file, pointer: want.pointer, line: want.line });
    expect(error.message).toContain(`flow "bad": ${file}:${want.line} ${want.pointer}: `);
    expect(error.message).toMatch(want.says);
  });
});
