/**
 * JSDoc for generated declarations: the description's text plus the
 * constraints a user cannot see in a TypeScript type (lengths, formats, file
 * limits, multipart part names). All text passes through escape.ts.
 *
 * Each comment is handed to ts-morph as its text (paragraphs, a blank line,
 * then one `@tag text` a line), which ts-morph prints as it prints a
 * JSDocStructure of the same description and tags: with the structure it
 * made a writer for the comment and one for each tag, which cost a fifth of
 * printing a module (bench/analysis.md, codegen per step).
 */
import type { JsonValue, PartName, Schema } from "../model/types.js";
import { jsDocText } from "./escape.js";

/** `@name` and its text, already escaped. */
interface Tag {
  readonly tagName: string;
  readonly text?: string;
}
/** The `docs` of a ts-morph structure: none, or the text of one JSDoc comment. */
export type Docs = string[];

/** Docs for a property or declaration of `schema`; `lead` comes before the schema's own description. */
export function schemaDocs(schema: Schema, lead?: string): Docs {
  const text = [lead, schema.description].filter((t): t is string => Boolean(t?.trim()));
  return docs(text, constraintTags(schema));
}

/** Docs from plain text paragraphs and tags; no docs at all when both are empty. */
export function docs(paragraphs: readonly string[], tags: readonly Tag[] = []): Docs {
  let text = "";
  for (const paragraph of paragraphs) {
    const escaped = jsDocText(paragraph);
    if (escaped) text = text ? `${text}\n\n${escaped}` : escaped;
  }
  // A blank line between the text and its tags; a tag's text is trimmed (jsDocText), so it never starts a line of its own.
  if (text && tags.length > 0) text += "\n";
  for (const { tagName, text: tagText } of tags)
    text = `${text}${text ? "\n" : ""}@${tagName}${tagText ? ` ${tagText}` : ""}`;
  return text ? [text] : [];
}

/** `@name` and its text, escaped (and so trimmed). */
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
      if (schema.items.kind !== "object" && schema.items.kind !== "array") tags.push(...constraintTags(schema.items));
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
  return part.map((segment) => (typeof segment === "string" ? segment : `{${indexName(segment.index)}}`)).join("");
}

function indexName(index: number): string {
  return index < 18 ? String.fromCharCode("i".charCodeAt(0) + index) : `i${String(index)}`;
}
