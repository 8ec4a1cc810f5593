/**
 * JSDoc for generated declarations: the description's text plus the
 * constraints a user cannot see in a TypeScript type (lengths, formats, file
 * limits, multipart part names). All text passes through escape.ts.
 */
import type { JSDocStructure, JSDocTagStructure, OptionalKind } from "ts-morph";
import type { JsonValue, PartName, Schema } from "../model/types.js";
import { jsDocText } from "./escape.js";

type Tag = OptionalKind<JSDocTagStructure>;
export type Docs = OptionalKind<JSDocStructure>[];

/** Docs for a property or declaration of `schema`; `lead` comes before the schema's own description. */
export function schemaDocs(schema: Schema, lead?: string): Docs {
  const text = [lead, schema.description].filter((t): t is string => Boolean(t?.trim()));
  return docs(text, constraintTags(schema));
}

/** Docs from plain text paragraphs and tags; no docs at all when both are empty. */
export function docs(paragraphs: readonly string[], tags: readonly Tag[] = []): Docs {
  const description = paragraphs.map(jsDocText).filter(Boolean).join("\n\n");
  if (!description && tags.length === 0) return [];
  // The trailing newline leaves a blank line between the text and its tags.
  const text = description && tags.length > 0 ? `${description}\n` : description;
  return [{ description: text || undefined, tags: [...tags] }];
}

function tag(tagName: string, text?: string): Tag {
  return text === undefined ? { tagName } : { tagName, text: jsDocText(text) };
}

function constraintTags(schema: Schema): Tag[] {
  const tags: (Tag | undefined)[] = [];
  switch (schema.kind) {
    case "string":
      tags.push(
        optional("format", schema.format),
        optional("pattern", schema.pattern),
        optional("minLength", schema.minLength),
        optional("maxLength", schema.maxLength),
      );
      break;
    case "number":
      tags.push(
        schema.integer ? tag("integer") : undefined,
        optional("minimum", schema.minimum),
        optional("maximum", schema.maximum),
        optional("exclusiveMinimum", schema.exclusiveMinimum),
        optional("exclusiveMaximum", schema.exclusiveMaximum),
        optional("multipleOf", schema.multipleOf),
      );
      break;
    case "file":
      tags.push(
        tag("maxBytes", String(schema.maxBytes)),
        schema.mediaTypes.length > 0 ? tag("accept", schema.mediaTypes.join(", ")) : undefined,
      );
      break;
    case "array":
      tags.push(optional("minItems", schema.minItems), optional("maxItems", schema.maxItems));
      // An element that is a leaf has no declaration of its own: its constraints go here.
      if (schema.items.kind !== "object" && schema.items.kind !== "array")
        tags.push(...constraintTags(schema.items));
      break;
    case "boolean":
    case "object":
      break;
  }
  tags.push(schema.default === undefined ? undefined : tag("default", defaultText(schema.default)));
  tags.push(schema.part ? tag("part", partText(schema.part)) : undefined);
  return tags.filter((t): t is Tag => t !== undefined);
}

function optional(tagName: string, value: string | number | undefined): Tag | undefined {
  return value === undefined ? undefined : tag(tagName, String(value));
}

/** Strings as written (`@default en`); anything else as JSON. */
function defaultText(value: JsonValue): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `input[docs][documents][{i}][templateId]`: each enclosing array index as `{i}`, `{j}`, ... */
function partText(part: PartName): string {
  return part
    .map((segment) => (typeof segment === "string" ? segment : `{${indexName(segment.index)}}`))
    .join("");
}

function indexName(index: number): string {
  return index < 18 ? String.fromCharCode("i".charCodeAt(0) + index) : `i${String(index)}`;
}
