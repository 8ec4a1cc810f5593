/**
 * The runtime's view of a flow (runtime/flow-spec.ts), taken from the model:
 * what a generated module embeds as `spec`. Multipart flows carry the request
 * tree with exact part names and file limits; JSON flows need none of it.
 * Every flow carries its request and 201 schemas as data, which the
 * runtime's schema checker reads (no validator code is generated).
 */
import type { FieldSpec, FlowSpec } from "@flowsmith/runtime/flow-module";
import { CodegenError } from "../errors.js";
import { toJsonSchema, type JsonSchema } from "../model/json-schema.js";
import type { FlowModel, Schema } from "../model/types.js";

/** A file in the request schema is any present value: the runtime checks files from `fields` (size, media type). */
const ANY_FILE: JsonSchema = {};

export function toFlowSpec(model: FlowModel): FlowSpec {
  const { id, version, environment, path, bodyForm, locales } = model;
  const request = toJsonSchema(model.request, { file: ANY_FILE });
  const response = toJsonSchema(model.response, { file: ANY_FILE, formats: false });
  // Whole literals, not spreads followed by other keys (json-schema.ts's nullable says why).
  return bodyForm === "multipart"
    ? {
        id,
        version,
        environment,
        path,
        bodyForm,
        locales,
        fields: toFieldSpecOrThrow(model.request, model),
        request,
        response,
      }
    : { id, version, environment, path, bodyForm, locales, request, response };
}

/** Whether the flow's schemas have a pattern the client checks: its module then imports the pattern engine. */
export function hasCheckedPattern(schema: Schema): boolean {
  switch (schema.kind) {
    case "string":
      return schema.pattern !== undefined && schema.patternLeftToService === undefined;
    case "array":
      return hasCheckedPattern(schema.items);
    case "object":
      return (
        schema.properties.some((p) => hasCheckedPattern(p.schema)) ||
        (typeof schema.additionalProperties !== "boolean" && hasCheckedPattern(schema.additionalProperties))
      );
    default:
      return false;
  }
}

function toFieldSpecOrThrow(schema: Schema, model: FlowModel): FieldSpec {
  switch (schema.kind) {
    case "object":
      return {
        kind: "object",
        properties: schema.properties.map((p) => ({
          name: p.name,
          spec: toFieldSpecOrThrow(p.schema, model),
        })),
      };
    case "array":
      return { kind: "array", items: toFieldSpecOrThrow(schema.items, model) };
    case "file":
      return {
        kind: "file",
        part: partOrThrow(schema, model),
        maxBytes: schema.maxBytes,
        mediaTypes: schema.mediaTypes,
      };
    case "string":
    case "number":
    case "boolean":
      return { kind: "value", part: partOrThrow(schema, model) };
  }
}

function partOrThrow(schema: Schema, model: FlowModel) {
  if (schema.part) return schema.part;
  throw new CodegenError("INVALID_SCHEMA", "a field of a multipart request has no part name", {
    flow: model.name,
    file: model.source.file,
    pointer: schema.pointer,
  });
}
