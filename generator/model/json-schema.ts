/**
 * The model's request (or any model schema) as a JSON Schema (draft-07) for
 * ajv: the generator compiles it to a standalone validator for the client's
 * pre-flight check, and the emulator compiles it to validate what it receives.
 * One translation, so client and emulator agree on what is valid.
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
}

/** Formats ajv-formats implements; any other `format` is documentation only. */
export const VALIDATED_FORMATS: ReadonlySet<string> = new Set([
  "date", "time", "date-time", "duration", "uri", "uri-reference", "uri-template", "url",
  "email", "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer",
  "relative-json-pointer", "byte", "int32", "int64", "float", "double",
]);

export function toJsonSchema(schema: Schema, options: JsonSchemaOptions): JsonSchema {
  switch (schema.kind) {
    case "file":
      return options.file;
    case "string":
      return nullable(schema.nullable, schema.enum, {
        type: "string",
        ...(schema.format && VALIDATED_FORMATS.has(schema.format) ? { format: schema.format } : {}),
        ...defined({ pattern: schema.pattern, minLength: schema.minLength, maxLength: schema.maxLength }),
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
      const properties: Record<string, JsonSchema> = {};
      const patternProperties: Record<string, JsonSchema> = {};
      for (const property of schema.properties) {
        // ajv drops a "__proto__" key from `properties` (and cannot test it
        // with `required`: every object has one), so it is matched by name.
        if (property.name === "__proto__") patternProperties["^__proto__$"] = toJsonSchema(property.schema, options);
        else properties[property.name] = toJsonSchema(property.schema, options);
      }
      const required = schema.properties.filter((p) => p.required && p.name !== "__proto__").map((p) => p.name);
      return nullable(schema.nullable, undefined, {
        type: "object",
        properties,
        ...(Object.keys(patternProperties).length > 0 ? { patternProperties } : {}),
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
  const withEnum = values ? { ...base, enum: isNullable ? [...values, null] : [...values] } : base;
  return isNullable ? { ...withEnum, type: [base.type, "null"] } : withEnum;
}

function defined(values: Record<string, number | string | undefined>): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out;
}
