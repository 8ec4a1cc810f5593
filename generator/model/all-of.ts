/**
 * `allOf` as flow descriptions use it: object members adding up to one object
 * (union of properties and required), members without `type` adding
 * constraints, `nullable: true` next to a single reference. Members that
 * disagree on a keyword cannot be expressed as one type, so they are refused.
 */
import type { BuildContext, Located } from "./build-context.js";
import type { FlatProperty, FlatSchema } from "./flat-schema-types.js";
import { jsonEqual } from "./json-equal.js";
import { valueText } from "../read/value-text.js";

/** Keywords that describe a schema without constraining values: members may differ on them. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  "description",
  "title",
  "example",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "externalDocs",
  "xml",
]);

export function mergeAllOfOrThrow(context: BuildContext, own: FlatSchema, members: readonly FlatSchema[]): FlatSchema {
  const all = [own, ...members];
  return {
    pointer: own.pointer,
    trail: own.trail,
    keywords: mergeKeywordsOrThrow(context, own, members),
    properties: mergePropertiesOrThrow(context, all),
    required: [...new Set(all.flatMap((schema) => schema.required))],
    ...optional(
      "items",
      mergeSubschemaOrThrow(context, all, "items", (s) => s.items),
    ),
    ...optional(
      "additionalProperties",
      mergeSubschemaOrThrow(context, all, "additionalProperties", (s) => s.additionalProperties),
    ),
  };
}

function mergeKeywordsOrThrow(
  context: BuildContext,
  own: FlatSchema,
  members: readonly FlatSchema[],
): Readonly<Record<string, unknown>> {
  const merged: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const origin = new Map<string, string>();
  for (const schema of [own, ...members]) {
    for (const [key, value] of Object.entries(schema.keywords)) {
      if (!(key in merged)) {
        merged[key] = value;
        origin.set(key, schema.pointer);
      } else if (ANNOTATIONS.has(key) || key.startsWith("x-")) {
        // Words about the schema, not constraints: the outer schema's describe this use; otherwise the first member's win.
      } else if (key === "nullable") {
        merged[key] = merged[key] === true || value === true;
      } else if (!jsonEqual(merged[key], value)) {
        throw context.error(
          "UNSUPPORTED_CONSTRUCT",
          `allOf members disagree on \`${key}\`: ${valueText(merged[key])} at ${origin.get(key) ?? own.pointer} and ${valueText(value)} at ${schema.pointer}`,
          `${own.pointer}/allOf`,
        );
      }
    }
  }
  return merged;
}

function mergePropertiesOrThrow(context: BuildContext, all: readonly FlatSchema[]): readonly FlatProperty[] {
  const byName = new Map<string, FlatProperty>();
  for (const property of all.flatMap((schema) => schema.properties)) {
    const seen = byName.get(property.name);
    if (!seen) {
      byName.set(property.name, property);
    } else if (!jsonEqual(seen.value, property.value)) {
      throw context.error(
        "UNSUPPORTED_CONSTRUCT",
        `allOf members declare property ${valueText(property.name)} differently (${seen.pointer} and ${property.pointer})`,
        property.pointer,
      );
    }
  }
  return [...byName.values()];
}

function mergeSubschemaOrThrow<T extends boolean | Located>(
  context: BuildContext,
  all: readonly FlatSchema[],
  keyword: string,
  pick: (schema: FlatSchema) => T | undefined,
): T | undefined {
  let merged: T | undefined;
  for (const schema of all) {
    const value = pick(schema);
    if (value === undefined) continue;
    if (merged === undefined) merged = value;
    else if (!jsonEqual(valueOf(merged), valueOf(value))) {
      throw context.error(
        "UNSUPPORTED_CONSTRUCT",
        `allOf members disagree on \`${keyword}\``,
        `${schema.pointer}/${keyword}`,
      );
    }
  }
  return merged;
}

function valueOf(value: boolean | Located): unknown {
  return typeof value === "boolean" ? value : value.value;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
