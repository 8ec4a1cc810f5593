/**
 * A model schema as JSON Schema (draft-07, with OpenAPI 3.0's boolean
 * exclusive bounds already folded into numbers): what the runtime's schema
 * checker reads. A generated module carries its flow's request and 201
 * schemas as this data (emit/flow-spec.ts), and the emulator checks what it
 * receives with the same checker on the same translation, so client and
 * emulator agree on what is valid. A pattern the linear-time engine cannot
 * run (the model's patternLeftToService) is left out: the service checks it.
 */
import type { Schema } from "./types.js";

export type JsonSchema = { readonly [key: string]: unknown } | boolean;

export interface JsonSchemaOptions {
  /**
   * What a file leaf becomes. The client checks files itself after
   * validation, so it passes `{}` (any present value); the emulator passes a
   * schema matching the marker objects it builds from file parts.
   */
  readonly file: JsonSchema;
  /**
   * Whether `format`s are kept (default true). The 201 schema a client checks
   * leaves them out: its fields' types, required fields and values are
   * checked, but a format is the service's to keep, and the first check of a
   * `uri` cost a fresh process more than its whole session call (the pattern
   * is compiled on first use; bench/analysis.md, "Cold start").
   */
  readonly formats?: boolean;
}

/** Formats the runtime checks (ajv-formats' checks); any other `format` is documentation only. */
export const VALIDATED_FORMATS: ReadonlySet<string> = new Set([
  "date",
  "time",
  "date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
  "byte",
  "int32",
  "int64",
  "float",
  "double",
]);

export function toJsonSchema(schema: Schema, options: JsonSchemaOptions): JsonSchema {
  switch (schema.kind) {
    case "file":
      return options.file;
    case "string":
      return nullable(schema.nullable, schema.enum, {
        type: "string",
        ...(schema.format && options.formats !== false && VALIDATED_FORMATS.has(schema.format)
          ? { format: schema.format }
          : {}),
        ...defined({
          pattern: schema.patternLeftToService === undefined ? schema.pattern : undefined,
          minLength: schema.minLength,
          maxLength: schema.maxLength,
        }),
      });
    case "number":
      return nullable(schema.nullable, schema.enum, {
        type: schema.integer ? "integer" : "number",
        ...defined({
          minimum: schema.minimum,
          maximum: schema.maximum,
          exclusiveMinimum: schema.exclusiveMinimum,
          exclusiveMaximum: schema.exclusiveMaximum,
          multipleOf: schema.multipleOf,
        }),
      });
    case "boolean":
      return nullable(schema.nullable, schema.enum, { type: "boolean" });
    case "array":
      return nullable(schema.nullable, undefined, {
        type: "array",
        items: toJsonSchema(schema.items, options),
        ...defined({ minItems: schema.minItems, maxItems: schema.maxItems }),
      });
    case "object": {
      // A null prototype, so a property named `__proto__` is a key like any other here (and in its JSON text).
      const properties = Object.create(null) as Record<string, JsonSchema>;
      for (const property of schema.properties) properties[property.name] = toJsonSchema(property.schema, options);
      const required = schema.properties.filter((p) => p.required).map((p) => p.name);
      return nullable(schema.nullable, undefined, {
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties:
          typeof schema.additionalProperties === "boolean"
            ? schema.additionalProperties
            : toJsonSchema(schema.additionalProperties, options),
      });
    }
  }
}

function nullable(
  isNullable: boolean,
  values: readonly (string | number | boolean)[] | undefined,
  base: { readonly type: string; readonly [key: string]: unknown },
): JsonSchema {
  // Object.assign onto a new object, not a spread followed by other keys, which gave each result a hidden class
  // of its own in V8: garbage that grew with the flows (bench/analysis.md, "Peak memory"). The objects are the
  // model's own, never read from disk, so Object.assign cannot meet a key `__proto__`.
  const withEnum = values ? Object.assign({}, base, { enum: isNullable ? [...values, null] : [...values] }) : base;
  return isNullable ? Object.assign({}, withEnum, { type: [base.type, "null"] }) : withEnum;
}

function defined(values: Record<string, number | string | undefined>): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out;
}
