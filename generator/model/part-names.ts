/**
 * Part names for the leaves of one declared multipart property. A leaf the
 * document names keeps exactly that name; below a `type: array`/`object`
 * property the names are derived with explicit indices:
 * `name[` {index: depth} `][field]`.
 */
import type { PartName, PartSegment, Schema } from "./types.js";

export function withPartNames(schema: Schema, part: PartName, depth: number, mediaTypes: readonly string[]): Schema {
  switch (schema.kind) {
    case "string":
    case "number":
    case "boolean":
      return { ...schema, part };
    case "file":
      return { ...schema, part, mediaTypes };
    case "array":
      return {
        ...schema,
        items: withPartNames(schema.items, appendPart(part, "[", { index: depth }, "]"), depth + 1, mediaTypes),
      };
    case "object":
      return {
        ...schema,
        properties: schema.properties.map((property) => ({
          ...property,
          schema: withPartNames(property.schema, appendPart(part, `[${property.name}]`), depth, mediaTypes),
        })),
      };
  }
}

/** Appends segments, joining neighbouring literals so equal names have one spelling. */
function appendPart(part: PartName, ...segments: readonly PartSegment[]): PartName {
  const out: PartSegment[] = [...part];
  for (const segment of segments) {
    const last = out[out.length - 1];
    if (typeof segment === "string" && typeof last === "string") out[out.length - 1] = last + segment;
    else out.push(segment);
  }
  return out;
}
