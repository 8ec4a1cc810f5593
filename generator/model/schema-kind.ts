/**
 * Which model kind a schema is: its `type`, or, when the author left `type`
 * out, the one kind its keywords allow. No kind at all is an error, never "any".
 */
import type { BuildContext } from "./build-context.js";
import type { FlatSchema } from "./flat-schema-types.js";
import { valueText } from "../read/value-text.js";

export type SchemaKind = "string" | "file" | "number" | "integer" | "boolean" | "array" | "object";

const KEYWORD_KINDS: readonly (readonly [string, SchemaKind])[] = [
  ["pattern", "string"],
  ["minLength", "string"],
  ["maxLength", "string"],
  ["format", "string"],
  ["minimum", "number"],
  ["maximum", "number"],
  ["multipleOf", "number"],
  ["minItems", "array"],
  ["maxItems", "array"],
];

export function inferKindOrThrow(context: BuildContext, flat: FlatSchema): SchemaKind {
  const type = flat.keywords["type"];
  if (type === "string") return flat.keywords["format"] === "binary" ? "file" : "string";
  if (type === "number" || type === "integer" || type === "boolean" || type === "array" || type === "object")
    return type;
  if (type !== undefined) {
    throw context.error("UNSUPPORTED_CONSTRUCT", `unsupported type ${valueText(type)}`, `${flat.pointer}/type`);
  }
  const candidates = new Set(inferredKinds(flat));
  const [only] = candidates;
  if (candidates.size === 1 && only !== undefined)
    return only === "string" && flat.keywords["format"] === "binary" ? "file" : only;
  const reason =
    candidates.size === 0
      ? "nothing in it says what type it is"
      : `its keywords fit more than one type (${[...candidates].join(", ")})`;
  throw context.error("UNSUPPORTED_CONSTRUCT", `schema has no \`type\` and ${reason}; add \`type\``, flat.pointer);
}

function inferredKinds(flat: FlatSchema): readonly SchemaKind[] {
  const kinds: SchemaKind[] = [];
  if (flat.properties.length > 0 || flat.additionalProperties !== undefined || flat.required.length > 0)
    kinds.push("object");
  if (flat.items) kinds.push("array");
  for (const [keyword, kind] of KEYWORD_KINDS) if (keyword in flat.keywords) kinds.push(kind);
  const values = flat.keywords["enum"];
  if (Array.isArray(values)) {
    for (const value of values) {
      if (typeof value === "string") kinds.push("string");
      else if (typeof value === "number") kinds.push("number");
      else if (typeof value === "boolean") kinds.push("boolean");
    }
  }
  return kinds;
}
