/**
 * The normalised description text of snapshots and descriptions.json:
 * stable bytes, OpenAPI's own fields sorted, names a flow chose kept in the
 * document's order (that order is the generated code's), data kept as is;
 * and generating from the normalised text gives the same code as the
 * original file, for every description the tests know.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { emitFlowOrThrow } from "../../../generator/emit/emit-flow";
import { buildFlowModelOrThrow } from "../../../generator/model/build-flow-model";
import { descriptionJson } from "../../../generator/output/description-json";
import { parseDescriptionOrThrow } from "../../../generator/read/load-description";
import { REPO } from "../codegen-project";

const layouts: [string, { given: unknown; want: string }][] = [
  [
    "root and info first in reading order, then OpenAPI's fields by name",
    {
      given: { paths: {}, info: { "x-flow-id": "f", version: "1", title: "T" }, openapi: "3.0.3", components: {} },
      want: '{"openapi":"3.0.3","info":{"title":"T","version":"1","x-flow-id":"f"},"paths":{},"components":{}}',
    },
  ],
  [
    "schema keywords sorted, properties in the document's order, required and enum as written",
    {
      given: {
        components: {
          schemas: {
            Z: {
              type: "object",
              required: ["b", "a"],
              properties: { b: { type: "string", enum: ["y", "x"] }, a: { maxLength: 3, type: "string" } },
            },
            A: {},
          },
        },
      },
      want: '{"components":{"schemas":{"Z":{"properties":{"b":{"enum":["y","x"],"type":"string"},"a":{"maxLength":3,"type":"string"}},"required":["b","a"],"type":"object"},"A":{}}}}',
    },
  ],
  [
    "paths, media types, part encodings and responses keep their order; nested schemas are laid out too",
    {
      given: {
        paths: {
          "/b": {
            post: {
              responses: { "201": { description: "d" }, "400": {} },
              requestBody: {
                content: {
                  "multipart/form-data": {
                    schema: { type: "object", properties: { "x[1]": { type: "string", format: "binary" } } },
                    encoding: { z: { contentType: "image/png" }, a: {} },
                  },
                  "application/json": {},
                },
              },
            },
          },
          "/a": {},
        },
      },
      want: '{"paths":{"/b":{"post":{"requestBody":{"content":{"multipart/form-data":{"encoding":{"z":{"contentType":"image/png"},"a":{}},"schema":{"properties":{"x[1]":{"format":"binary","type":"string"}},"type":"object"}},"application/json":{}}},"responses":{"201":{"description":"d"},"400":{}}}},"/a":{}}}',
    },
  ],
  [
    "data is kept exactly: default, example and x- values, items of allOf laid out as schemas",
    {
      given: {
        components: {
          schemas: {
            S: {
              "x-z": { b: 1, a: 2 },
              default: { b: 1, a: 2 },
              allOf: [{ type: "object", properties: { q: {}, p: {} }, description: "d" }],
            },
          },
        },
      },
      want: '{"components":{"schemas":{"S":{"allOf":[{"description":"d","properties":{"q":{},"p":{}},"type":"object"}],"default":{"b":1,"a":2},"x-z":{"b":1,"a":2}}}}}',
    },
  ],
  [
    "a property named __proto__ stays a property",
    {
      given: JSON.parse('{"components":{"schemas":{"S":{"properties":{"__proto__":{"type":"string"}}}}}}') as unknown,
      want: '{"components":{"schemas":{"S":{"properties":{"__proto__":{"type":"string"}}}}}}',
    },
  ],
];

describe("descriptionJson", () => {
  it.each(layouts)("%s", (_name, { given, want }) => {
    const text = descriptionJson(given);
    expect(JSON.stringify(JSON.parse(text))).toBe(want);
    expect(text).toBe(`${JSON.stringify(JSON.parse(want), null, 2)}\n`);
    // Stable: its own output is a fixed point.
    expect(descriptionJson(JSON.parse(text))).toBe(text);
  });

  it.each([
    "flows/signing.yaml",
    "flows/document-verification.yaml",
    "flows/aml-screening.yaml",
    "test/fixtures/changes/signing-v2.yaml",
    "test/fixtures/descriptions/odd-names.yaml",
    "test/fixtures/descriptions/json-and-multipart.yaml",
  ])("generating from the normalised %s gives the file's code, apart from the header", async (file) => {
    const original = parseDescriptionOrThrow(await readFile(path.join(REPO, file)), file);
    const normalised = parseDescriptionOrThrow(descriptionJson(original.document), "snapshot.json");
    const emit = async (description: typeof original) =>
      (
        await emitFlowOrThrow(buildFlowModelOrThrow(description, { name: "flow" }), {
          runtimeImport: "@flowsmith/runtime",
        })
      ).map((emitted) => ({
        path: emitted.path,
        body: emitted.content.split("\n").slice(1).join("\n"),
      }));
    expect(await emit(normalised)).toEqual(await emit(original));
  });
});
