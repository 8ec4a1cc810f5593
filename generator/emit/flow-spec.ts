/**
 * The runtime's view of a flow (runtime/flow-spec.ts), taken from the model:
 * what a generated module embeds as `spec`. Multipart flows carry the request
 * tree with exact part names and file limits; JSON flows need none of it.
 */
import type { FieldSpec, FlowSpec } from "@flowsmith/runtime";
import { CodegenError } from "../errors.js";
import type { FlowModel, Schema } from "../model/types.js";

export function toFlowSpec(model: FlowModel): FlowSpec {
  const base = {
    id: model.id,
    version: model.version,
    environment: model.environment,
    path: model.path,
    bodyForm: model.bodyForm,
    locales: model.locales,
  };
  return model.bodyForm === "multipart" ? { ...base, fields: toFieldSpecOrThrow(model.request, model) } : base;
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
