/** The JSON form (`application/json`): nested objects as written, `required` at each level. */
import { appendPointer } from "../read/json-pointer.js";
import { isRecord, ownValue, type BuildContext, type Located } from "./build-context.js";
import { convertSchemaOrThrow, type SchemaUse } from "./schema.js";
import type { ObjectSchema } from "./types.js";

/**
 * The form's request tree, before request.ts normalises it. `use` is
 * "json-beside-multipart" when the description also has a multipart form:
 * files are then allowed here (request-body.ts).
 */
export function buildJsonFormOrThrow(
  context: BuildContext,
  media: Located,
  use: Extract<SchemaUse, "json" | "json-beside-multipart">,
): ObjectSchema {
  const value = isRecord(media.value) ? ownValue(media.value, "schema") : undefined;
  const pointer = appendPointer(media.pointer, "schema");
  if (value === undefined)
    throw context.error("NO_REQUEST_BODY", "the application/json request body has no schema", media.pointer);
  const schema = convertSchemaOrThrow(context, { value, pointer, trail: media.trail }, use);
  if (schema.kind !== "object") {
    throw context.error(
      "INVALID_SCHEMA",
      `the JSON request body must be an object, not ${schema.kind}`,
      schema.pointer,
    );
  }
  return schema;
}
