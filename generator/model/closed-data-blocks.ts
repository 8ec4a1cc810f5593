/**
 * The config's `closedDataBlocks`: the request's open objects read as
 * closed. An object of the request's `input` (a data block, or an object at
 * any depth inside one: a field, an array's element, a map's value) that
 * declares properties and accepts any extra key (`additionalProperties`
 * absent, `true` or `{}`) becomes `additionalProperties: false`, so the
 * emitter writes no index signature (a misspelt field is a tsc error in an
 * object literal) and the request validator refuses the keys it does not
 * declare (also in values tsc does not check for extra keys). Untouched:
 * objects already closed, objects whose extra keys have a schema (a map),
 * objects with no properties (free-form JSON), `metadata` (always closed),
 * and the response.
 *
 * A step between the model and the emitters: the model itself stays the
 * description's reading (the change report and the emulator, which answers
 * as the service does, read it as written).
 */
import type { FlowModel, ObjectSchema, Schema } from "./types.js";

export function withClosedDataBlocks(model: FlowModel): FlowModel {
  const properties = model.request.properties.map((property) =>
    property.name === "input" ? { ...property, schema: closed(property.schema) } : property,
  );
  return { ...model, request: { ...model.request, properties } };
}

function closed(schema: Schema): Schema {
  if (schema.kind === "array") return { ...schema, items: closed(schema.items) };
  if (schema.kind !== "object") return schema;
  const properties = schema.properties.map((property) => ({ ...property, schema: closed(property.schema) }));
  return { ...schema, properties, additionalProperties: closedExtras(schema, properties.length) };
}

function closedExtras(schema: ObjectSchema, declared: number): ObjectSchema["additionalProperties"] {
  const extra = schema.additionalProperties;
  if (typeof extra !== "boolean") return closed(extra);
  return extra && declared === 0 ? true : false;
}
