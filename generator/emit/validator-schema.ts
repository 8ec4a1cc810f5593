/**
 * The request schema as ajv compiles it for the generated validator: every
 * object or array at a level past a multiple of FUNCTION_DEPTH moves into
 * `definitions` behind a `$ref`, which ajv (with `inlineRefs: false`) turns
 * into a function of its own. ajv writes the whole schema path of a keyword
 * into each error it can report, and nests a block per level, so one
 * function for a deep schema grows with the square of its depth and nests
 * deeper than tsc can emit; functions of bounded depth keep the code linear
 * in the schema's size. Schemas no deeper than FUNCTION_DEPTH (every flow
 * the service describes) are left exactly as they are.
 */
import type { JsonSchema } from "../model/json-schema.js";

/** Levels of objects and arrays one validator function covers. */
const FUNCTION_DEPTH = 8;

type SchemaObject = { readonly [key: string]: unknown };

export function withNestedFunctions(root: JsonSchema): JsonSchema {
  const definitions = Object.create(null) as Record<string, JsonSchema>;
  const hoisted = (schema: JsonSchema, level: number): JsonSchema => {
    if (typeof schema === "boolean" || !isContainer(schema)) return schema;
    const here = level + 1;
    const own = withChildren(schema, (child) => hoisted(child, here));
    if (here === 1 || (here - 1) % FUNCTION_DEPTH !== 0) return own;
    // Numbered in document order, so the same schema always gives the same names.
    const name = `d${String(Object.keys(definitions).length + 1)}`;
    definitions[name] = own;
    return { $ref: `#/definitions/${name}` };
  };
  const result = hoisted(root, 0);
  if (Object.keys(definitions).length === 0 || typeof result === "boolean") return result;
  return { ...result, definitions };
}

function isContainer(schema: SchemaObject): boolean {
  const types = Array.isArray(schema["type"]) ? (schema["type"] as unknown[]) : [schema["type"]];
  return types.includes("object") || types.includes("array");
}

/** The schema with each subschema (properties, patternProperties, additionalProperties, items) mapped. */
function withChildren(schema: SchemaObject, map: (child: JsonSchema) => JsonSchema): SchemaObject {
  const out: Record<string, unknown> = { ...schema };
  for (const keyword of ["properties", "patternProperties"]) {
    const members = schema[keyword] as Record<string, JsonSchema> | undefined;
    if (members === undefined) continue;
    // Null prototype, so a member named `__proto__` stays a member.
    const mapped = Object.create(null) as Record<string, JsonSchema>;
    for (const key of Object.keys(members)) mapped[key] = map(members[key] as JsonSchema);
    out[keyword] = mapped;
  }
  for (const keyword of ["additionalProperties", "items"]) {
    const child = schema[keyword];
    if (child !== undefined && typeof child !== "boolean") out[keyword] = map(child as JsonSchema);
  }
  return out;
}
