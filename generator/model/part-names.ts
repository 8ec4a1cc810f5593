/**
 * Part names for the leaves of one declared multipart property. A leaf the
 * document names keeps exactly that name; below a `type: array`/`object`
 * property the names are derived with explicit indices:
 * `name[` {index: depth} `][field]`.
 */
import type { PartName, PartSegment, Schema } from "./types.js";

export function withPartNames(schema: Schema, part: PartName, depth: number, mediaTypes: readonly string[]): Schema {
  // Object.assign onto a new object, not a spread followed by other keys (json-schema.ts's nullable says why).
  switch (schema.kind) {
    case "string":
    case "number":
    case "boolean":
      return Object.assign({}, schema, { part });
    case "file":
      return Object.assign({}, schema, { part, mediaTypes });
    case "array":
      return Object.assign({}, schema, {
        items: withPartNames(schema.items, appendPart(part, "[", { index: depth }, "]"), depth + 1, mediaTypes),
      });
    case "object":
      return Object.assign({}, schema, {
        properties: schema.properties.map((property) =>
          Object.assign({}, property, {
            schema: withPartNames(property.schema, appendPart(part, `[${property.name}]`), depth, mediaTypes),
          }),
        ),
      });
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
