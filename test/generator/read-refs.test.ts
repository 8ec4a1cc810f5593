import { CodegenError, type CodegenErrorCode } from "../../generator/errors";
import { resolveRefOrThrow } from "../../generator/read/refs";

const document = {
  components: {
    schemas: {
      Name: { type: "string" },
      Alias: { $ref: "#/components/schemas/Name" },
      "a~b/c": { type: "number" },
      "with space": { type: "boolean" },
      prénom: { type: "string", description: "non-ASCII key" },
      LoopA: { $ref: "#/components/schemas/LoopB" },
      LoopB: { $ref: "#/components/schemas/LoopA" },
      Self: { $ref: "#/components/schemas/Self" },
      Broken: { $ref: "#/components/schemas/Nowhere" },
    },
  },
  paths: { "/api/v1/x": { post: { tags: ["first", "second"] } } },
};

describe("resolveRefOrThrow: found", () => {
  test.each<[string, { given: string; want: { pointer: string; value: unknown } }]>([
    [
      "plain",
      { given: "#/components/schemas/Name", want: { pointer: "#/components/schemas/Name", value: { type: "string" } } },
    ],
    [
      "~0 and ~1 unescaped",
      {
        given: "#/components/schemas/a~0b~1c",
        want: { pointer: "#/components/schemas/a~0b~1c", value: { type: "number" } },
      },
    ],
    [
      "percent-decoded",
      {
        given: "#/components/schemas/with%20space",
        want: { pointer: "#/components/schemas/with space", value: { type: "boolean" } },
      },
    ],
    [
      "percent-encoded UTF-8",
      {
        given: "#/components/schemas/pr%C3%A9nom",
        want: { pointer: "#/components/schemas/prénom", value: { type: "string", description: "non-ASCII key" } },
      },
    ],
    [
      "a chain of refs is followed",
      {
        given: "#/components/schemas/Alias",
        want: { pointer: "#/components/schemas/Name", value: { type: "string" } },
      },
    ],
    [
      "array index",
      {
        given: "#/paths/~1api~1v1~1x/post/tags/1",
        want: { pointer: "#/paths/~1api~1v1~1x/post/tags/1", value: "second" },
      },
    ],
  ])("%s", (_name, { given, want }) => {
    expect(resolveRefOrThrow(document, given, "#/somewhere")).toEqual(want);
  });
});

describe("resolveRefOrThrow: errors", () => {
  test.each<[string, { given: string; want: { code: CodegenErrorCode; pointer: string; says: RegExp } }]>([
    [
      "dangling",
      {
        given: "#/components/schemas/Missing",
        want: {
          code: "DANGLING_REF",
          pointer: "#/used/here",
          says: /"#\/components\/schemas\/Missing" points to nothing/,
        },
      },
    ],
    [
      "dangling at the end of a chain",
      {
        given: "#/components/schemas/Broken",
        want: { code: "DANGLING_REF", pointer: "#/components/schemas/Broken/$ref", says: /Nowhere/ },
      },
    ],
    [
      "inherited names are not keys",
      {
        given: "#/components/schemas/constructor",
        want: { code: "DANGLING_REF", pointer: "#/used/here", says: /points to nothing/ },
      },
    ],
    [
      "leading-zero index",
      {
        given: "#/paths/~1api~1v1~1x/post/tags/01",
        want: { code: "DANGLING_REF", pointer: "#/used/here", says: /points to nothing/ },
      },
    ],
    [
      "external file",
      {
        given: "common.yaml#/components/schemas/Name",
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: "#/used/here", says: /outside this document/ },
      },
    ],
    [
      "external URL",
      {
        given: "https://example.test/s.json",
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: "#/used/here", says: /only internal references/ },
      },
    ],
    [
      "bad percent-encoding",
      {
        given: "#/components/%E0%A4%A",
        want: { code: "DANGLING_REF", pointer: "#/used/here", says: /percent-encoding/ },
      },
    ],
    [
      "not a pointer",
      { given: "#Name", want: { code: "DANGLING_REF", pointer: "#/used/here", says: /not a JSON pointer/ } },
    ],
    [
      "two-step cycle",
      {
        given: "#/components/schemas/LoopA",
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: "#/used/here", says: /cycle: .*LoopA -> .*LoopB -> .*LoopA/ },
      },
    ],
    [
      "self reference",
      {
        given: "#/components/schemas/Self",
        want: { code: "UNSUPPORTED_CONSTRUCT", pointer: "#/used/here", says: /cycle/ },
      },
    ],
  ])("%s", (_name, { given, want }) => {
    let caught: unknown;
    try {
      resolveRefOrThrow(document, given, "#/used/here", {
        flow: "f",
        file: "flows/f.yaml",
        lineOfOrUndefined: () => 12,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CodegenError);
    const error = caught as CodegenError;
    expect(error.code).toBe(want.code);
    expect(error.context).toEqual({ flow: "f", file: "flows/f.yaml", pointer: want.pointer, line: 12 });
    expect(error.message).toContain(`flows/f.yaml:12 ${want.pointer}: `);
    expect(error.message).toMatch(want.says);
  });
});
