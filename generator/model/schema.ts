/**
 * One OpenAPI schema object (after refs and allOf, see flat-schema.ts) into a
 * model Schema. Anything the model cannot say exactly is refused with its
 * pointer: no schema ever degrades to "any".
 */
import { appendPointer } from "../read/json-pointer.js";
import { valueText } from "../read/value-text.js";
import type { BuildContext, Located } from "./build-context.js";
import { flattenSchemaOrThrow } from "./flat-schema.js";
import type { FlatSchema } from "./flat-schema-types.js";
import { checkDepthOrThrow, checkEnumLengthOrThrow, countSchemaOrThrow } from "./limits.js";
import { checkItemCountsOrThrow, propertyOrThrow } from "./property.js";
import { inferKindOrThrow } from "./schema-kind.js";
import { DEFAULT_MAX_FILE_BYTES } from "@flowsmith/runtime/service-limits";
import type { PatternEngine } from "@flowsmith/runtime/internal";
import {
  type ArraySchema,
  type BooleanSchema,
  type FileSchema,
  type JsonValue,
  type NumberSchema,
  type ObjectSchema,
  type Property,
  type Schema,
  type StringSchema,
} from "./types.js";

/**
 * Where a schema is used. Files exist only in the multipart form, and in a
 * JSON form beside one (both forms are produced from one schema, and the
 * flow is then sent as multipart); objects in the multipart form are closed
 * (their parts are all declared).
 */
export type SchemaUse = "json" | "json-beside-multipart" | "multipart" | "response";

/** Keywords a flow description may carry that the model has no place for, refused rather than dropped. */
const REFUSED_KEYWORDS = ["uniqueItems", "minProperties", "maxProperties", "discriminator"] as const;

/**
 * `enclosing`: how many objects and arrays hold this schema (0 at a form's
 * or the response's root), for the depth limit of limits.ts.
 */
export function convertSchemaOrThrow(context: BuildContext, at: Located, use: SchemaUse, enclosing = 0): Schema {
  countSchemaOrThrow(context, at.pointer);
  const flat = flattenSchemaOrThrow(context, at);
  refuseUnsupportedKeywordsOrThrow(context, flat);
  const kind = inferKindOrThrow(context, flat);
  if (kind === "array" || kind === "object") checkDepthOrThrow(context, enclosing + 1, flat.pointer);
  switch (kind) {
    case "string":
      return stringSchemaOrThrow(context, flat);
    case "file":
      return fileSchemaOrThrow(context, flat, use);
    case "number":
    case "integer":
      return numberSchemaOrThrow(context, flat, kind === "integer");
    case "boolean":
      return booleanSchemaOrThrow(context, flat);
    case "array":
      return arraySchemaOrThrow(context, flat, use, enclosing + 1);
    case "object":
      return objectSchemaOrThrow(context, flat, use, enclosing + 1);
  }
}

function refuseUnsupportedKeywordsOrThrow(context: BuildContext, flat: FlatSchema): void {
  for (const keyword of REFUSED_KEYWORDS) {
    if (keyword in flat.keywords) {
      throw context.error(
        "UNSUPPORTED_CONSTRUCT",
        `\`${keyword}\` is not supported in flow descriptions`,
        appendPointer(flat.pointer, keyword),
      );
    }
  }
}

function stringSchemaOrThrow(context: BuildContext, flat: FlatSchema): StringSchema {
  const pattern = text(flat, "pattern");
  const patternLeftToService = pattern === undefined ? undefined : patternLeftToServiceOrThrow(context, flat, pattern);
  return {
    kind: "string",
    ...base(flat),
    ...present({
      format: text(flat, "format"),
      enum: enumOrThrow(context, flat, (v): v is string => typeof v === "string"),
      pattern,
      patternLeftToService,
      minLength: numeric(flat, "minLength"),
      maxLength: numeric(flat, "maxLength"),
    }),
  };
}

function fileSchemaOrThrow(context: BuildContext, flat: FlatSchema, use: SchemaUse): FileSchema {
  if (use === "json") {
    throw context.error(
      "UNSUPPORTED_CONSTRUCT",
      "a file (type: string, format: binary) in a JSON-only request: files are sent only as multipart parts, so the description needs a multipart/form-data form",
      flat.pointer,
    );
  }
  if (use === "response") {
    throw context.error(
      "UNSUPPORTED_CONSTRUCT",
      "a file (type: string, format: binary) cannot appear in the response",
      flat.pointer,
    );
  }
  // mediaTypes come from the form's `encoding`, which multipart-form.ts applies by part name.
  return {
    kind: "file",
    ...base(flat),
    maxBytes: numeric(flat, "maxLength") ?? DEFAULT_MAX_FILE_BYTES,
    mediaTypes: [],
  };
}

function numberSchemaOrThrow(context: BuildContext, flat: FlatSchema, integer: boolean): NumberSchema {
  // OpenAPI 3.0 writes exclusive bounds as booleans beside minimum/maximum; the model (like JSON Schema 7) wants numbers.
  const minimum = numeric(flat, "minimum");
  const maximum = numeric(flat, "maximum");
  const lowerExclusive = flat.keywords["exclusiveMinimum"] === true && minimum !== undefined;
  const upperExclusive = flat.keywords["exclusiveMaximum"] === true && maximum !== undefined;
  return {
    kind: "number",
    ...base(flat),
    integer,
    ...present({
      enum: enumOrThrow(context, flat, (v): v is number => typeof v === "number"),
      minimum: lowerExclusive ? undefined : minimum,
      maximum: upperExclusive ? undefined : maximum,
      exclusiveMinimum: lowerExclusive ? minimum : undefined,
      exclusiveMaximum: upperExclusive ? maximum : undefined,
      multipleOf: numeric(flat, "multipleOf"),
    }),
  };
}

function booleanSchemaOrThrow(context: BuildContext, flat: FlatSchema): BooleanSchema {
  return {
    kind: "boolean",
    ...base(flat),
    ...present({ enum: enumOrThrow(context, flat, (v): v is boolean => typeof v === "boolean") }),
  };
}

function arraySchemaOrThrow(context: BuildContext, flat: FlatSchema, use: SchemaUse, level: number): ArraySchema {
  if (!flat.items) {
    throw context.error("INVALID_SCHEMA", "an array schema needs `items`", flat.pointer);
  }
  const schema: ArraySchema = {
    kind: "array",
    ...base(flat),
    items: convertSchemaOrThrow(context, flat.items, use, level),
    ...present({ minItems: numeric(flat, "minItems"), maxItems: numeric(flat, "maxItems") }),
  };
  checkItemCountsOrThrow(context, schema);
  return schema;
}

function objectSchemaOrThrow(context: BuildContext, flat: FlatSchema, use: SchemaUse, level: number): ObjectSchema {
  const names = new Set(flat.properties.map((property) => property.name));
  const unknown = flat.required.find((name) => !names.has(name));
  if (unknown !== undefined) {
    throw context.error(
      "INVALID_SCHEMA",
      `\`required\` lists ${valueText(unknown)}, which is not among the object's properties`,
      appendPointer(flat.pointer, "required"),
    );
  }
  const required = new Set(flat.required);
  const properties = flat.properties.map((property): Property =>
    propertyOrThrow(
      context,
      property.name,
      required.has(property.name),
      convertSchemaOrThrow(context, property, use, level),
    ),
  );
  return {
    kind: "object",
    ...base(flat),
    properties,
    additionalProperties: additionalPropertiesOrThrow(context, flat, use, level),
  };
}

function additionalPropertiesOrThrow(
  context: BuildContext,
  flat: FlatSchema,
  use: SchemaUse,
  level: number,
): boolean | Schema {
  const declared = flat.additionalProperties;
  if (use === "multipart") {
    if (declared === undefined || declared === false) return false;
    throw context.error(
      "UNSUPPORTED_CONSTRUCT",
      "additionalProperties in the multipart form: every part must be declared by name",
      appendPointer(flat.pointer, "additionalProperties"),
    );
  }
  if (declared === undefined || isAnySchema(declared)) return true;
  return typeof declared === "boolean" ? declared : convertSchemaOrThrow(context, declared, use, level);
}

/** `additionalProperties: {}` (maybe with only a description): any extra key, as `true` says. */
function isAnySchema(declared: boolean | Located): boolean {
  if (
    typeof declared === "boolean" ||
    typeof declared.value !== "object" ||
    declared.value === null ||
    Array.isArray(declared.value)
  )
    return false;
  return Object.keys(declared.value).every((key) => key === "description" || key === "title" || key.startsWith("x-"));
}

function base(flat: FlatSchema): { pointer: string; nullable: boolean; description?: string; default?: JsonValue } {
  return {
    pointer: flat.pointer,
    nullable: flat.keywords["nullable"] === true,
    ...present({ description: text(flat, "description") }),
    ...("default" in flat.keywords ? { default: flat.keywords["default"] as JsonValue } : {}),
  };
}

/** The enum's members of the schema's type, each once (a repeated value means nothing more). */
function enumOrThrow<T>(
  context: BuildContext,
  flat: FlatSchema,
  isMember: (value: unknown) => value is T,
): readonly T[] | undefined {
  const values = flat.keywords["enum"];
  if (!Array.isArray(values)) return undefined;
  checkEnumLengthOrThrow(context, values.length, appendPointer(flat.pointer, "enum"));
  const nullable = flat.keywords["nullable"] === true;
  const members: T[] = [];
  // Members are strings, numbers or booleans (isMember): a set tells a repeat at once, where comparing
  // each value with every member kept was quadratic in the enum's length.
  const seen = new Set<unknown>();
  values.forEach((value: unknown, index) => {
    if (value === null && nullable) return;
    if (!isMember(value)) {
      throw context.error(
        "INVALID_SCHEMA",
        `enum value ${valueText(value)} does not match the schema's type`,
        appendPointer(flat.pointer, "enum", index),
      );
    }
    if (seen.has(value)) return;
    seen.add(value);
    members.push(value);
  });
  return members;
}

/**
 * A pattern runs on the runtime's linear-time engine (RE2), in the generated
 * client and the emulator alike, so that no value can make validation slow.
 * One it cannot run (a backreference, a lookaround) is not run by a
 * backtracking engine instead: the client leaves that one check to the
 * service, and the reason is returned here for the run's report. A pattern
 * that is not a regular expression at all is a broken description.
 */
function patternLeftToServiceOrThrow(context: BuildContext, flat: FlatSchema, pattern: string): string | undefined {
  try {
    // Parsing only, linear in the pattern's length: the native RegExp never runs.
    new RegExp(pattern, "u");
  } catch (error) {
    throw context.error(
      "INVALID_SCHEMA",
      `pattern is not a valid regular expression: ${(error as Error).message}`,
      appendPointer(flat.pointer, "pattern"),
    );
  }
  const compiled = linearPatterns().compile(pattern);
  return "unsupported" in compiled ? compiled.unsupported : undefined;
}

let engine: PatternEngine | undefined;

/** The engine (and re2js with it) is loaded with the first pattern: most descriptions have none. */
function linearPatterns(): PatternEngine {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the first pattern
  engine ??= (require("@flowsmith/runtime/patterns") as typeof import("@flowsmith/runtime/patterns")).linearPatterns;
  return engine;
}

function text(flat: FlatSchema, key: string): string | undefined {
  const value = flat.keywords[key];
  return typeof value === "string" ? value : undefined;
}

function numeric(flat: FlatSchema, key: string): number | undefined {
  const value = flat.keywords[key];
  return typeof value === "number" ? value : undefined;
}

/** Drops undefined entries, so optional model fields are absent rather than `undefined`. */
function present<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
