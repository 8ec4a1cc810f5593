/**
 * The model's request (or any model schema) as a JSON Schema (draft-07) for
 * ajv: the generator compiles it to a standalone validator for the client's
 * pre-flight check, and the emulator compiles it to validate what it receives.
 * One translation, so client and emulator agree on what is valid.
 */
import type { Schema } from "./types.js";

export type JsonSchema = { readonly [key: string]: unknown } | boolean;

/**
 * The ajv options a validator of these schemas needs. `ownProperties`: a
 * property counts only when the object itself has it, as JSON.stringify and
 * the multipart encoder see it; without it a required `constructor` or
 * `toString` would always be "present" (inherited from Object.prototype),
 * and an optional one always present with the wrong type.
 */
export const JSON_SCHEMA_AJV_OPTIONS = { ownProperties: true } as const;

/**
 * Whether an object of `schema` has a property named like a member of
 * Object.prototype (`__proto__`, `constructor`, `toString`, ...). Only then
 * does a validator need JSON_SCHEMA_AJV_OPTIONS: for any other name an own
 * check and ajv's `!== undefined` agree on the plain objects a request is
 * made of, and the generated validator stays as small as without it.
 */
export function hasPrototypeNames(schema: Schema): boolean {
  switch (schema.kind) {
    case "array":
      return hasPrototypeNames(schema.items);
    case "object":
      return (
        schema.properties.some((p) => Object.hasOwn(Object.prototype, p.name) || hasPrototypeNames(p.schema)) ||
        (typeof schema.additionalProperties !== "boolean" && hasPrototypeNames(schema.additionalProperties))
      );
    default:
      return false;
  }
}

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
      // Null prototypes, so a property named `__proto__` is a key like any other here.
      const properties = Object.create(null) as Record<string, JsonSchema>;
      const patternProperties = Object.create(null) as Record<string, JsonSchema>;
      for (const property of schema.properties) {
        // ajv skips a "__proto__" key of `properties` (against prototype
        // pollution), so that one is matched by name; `required` (with
        // JSON_SCHEMA_AJV_OPTIONS) still demands it as an own key.
        if (property.name === "__proto__") patternProperties["^__proto__$"] = toJsonSchema(property.schema, options);
        else properties[property.name] = toJsonSchema(property.schema, options);
      }
      const required = schema.properties.filter((p) => p.required).map((p) => p.name);
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
