/**
 * An OpenAPI schema object with its `$ref`s followed and its `allOf` merged:
 * one set of keywords, plus the sub-schemas (still unconverted) with their
 * own pointers, so errors deep inside point at the right place.
 */
import { appendPointer } from "../read/json-pointer.js";
import { isRecord, ownValue, type BuildContext, type Located } from "./build-context.js";
import { mergeAllOfOrThrow } from "./all-of.js";
import type { FlatSchema } from "./flat-schema-types.js";
import { valueText } from "../read/value-text.js";

const STRUCTURAL = new Set(["$ref", "allOf", "properties", "required", "items", "additionalProperties"]);
const UNSUPPORTED = ["oneOf", "anyOf", "not"] as const;

export function flattenSchemaOrThrow(context: BuildContext, at: Located): FlatSchema {
  if (!isRecord(at.value)) {
    throw context.error("INVALID_SCHEMA", `expected a schema object, got ${valueText(at.value)}`, at.pointer);
  }
  const ref = ownValue(at.value, "$ref");
  if (typeof ref === "string") return flattenReferenceOrThrow(context, at, ref);
  rejectUnsupportedOrThrow(context, at);
  const own = flattenOwnKeywords(at);
  const allOf = ownValue(at.value, "allOf");
  if (!Array.isArray(allOf) || allOf.length === 0) return own;
  const members = allOf.map((member, index) =>
    flattenSchemaOrThrow(context, {
      value: member,
      pointer: appendPointer(at.pointer, "allOf", index),
      trail: at.trail,
    }),
  );
  return mergeAllOfOrThrow(context, own, members);
}

function flattenReferenceOrThrow(context: BuildContext, at: Located, ref: string): FlatSchema {
  const target = context.resolveRefOrThrow(ref, appendPointer(at.pointer, "$ref"));
  if (at.trail.includes(target.pointer)) {
    throw context.error(
      "UNSUPPORTED_CONSTRUCT",
      `recursive schema: ${target.pointer} contains itself (via ${[...at.trail, target.pointer].join(" -> ")}); a request must be a finite tree`,
      at.pointer,
    );
  }
  const flat = flattenSchemaOrThrow(context, {
    value: target.value,
    pointer: target.pointer,
    trail: [...at.trail, target.pointer],
  });
  // OpenAPI 3.0 ignores siblings of $ref, but a description next to a reference is the author's intent for this use.
  const description = ownValue(at.value as Record<string, unknown>, "description");
  return typeof description === "string"
    ? { ...flat, keywords: withKeyword(flat.keywords, "description", description) }
    : flat;
}

function rejectUnsupportedOrThrow(context: BuildContext, at: Located): void {
  const record = at.value as Record<string, unknown>;
  for (const keyword of UNSUPPORTED) {
    if (Object.hasOwn(record, keyword)) {
      throw context.error(
        "UNSUPPORTED_CONSTRUCT",
        `\`${keyword}\` is not supported in flow descriptions (only allOf combines schemas)`,
        appendPointer(at.pointer, keyword),
      );
    }
  }
}

function flattenOwnKeywords(at: Located): FlatSchema {
  const record = at.value as Record<string, unknown>;
  const keywords: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!STRUCTURAL.has(key)) keywords[key] = record[key];
  const child = (value: unknown, ...keys: string[]): Located => ({
    value,
    pointer: appendPointer(at.pointer, ...keys),
    trail: at.trail,
  });
  const properties = ownValue(record, "properties");
  const required = ownValue(record, "required");
  const items = ownValue(record, "items");
  const additional = ownValue(record, "additionalProperties");
  return {
    pointer: at.pointer,
    trail: at.trail,
    keywords,
    properties: isRecord(properties)
      ? Object.keys(properties).map((name) => ({ name, ...child(properties[name], "properties", name) }))
      : [],
    required: Array.isArray(required) ? required.filter((name): name is string => typeof name === "string") : [],
    ...(items !== undefined ? { items: child(items, "items") } : {}),
    ...(additional === undefined
      ? {}
      : {
          additionalProperties:
            typeof additional === "boolean" ? additional : child(additional, "additionalProperties"),
        }),
  };
}

function withKeyword(
  keywords: Readonly<Record<string, unknown>>,
  key: string,
  value: unknown,
): Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  Object.assign(out, keywords);
  out[key] = value;
  return out;
}
