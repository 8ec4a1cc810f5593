/** Whether a schema has a file: what makes a request multipart (request-body.ts), and what the emulator counts. */
import type { Schema } from "./types.js";

/** Whether a file sits anywhere in the schema (in an object's property or an array's items): such a request is sent as multipart. */
export function hasFile(schema: Schema): boolean {
  if (schema.kind === "file") return true;
  if (schema.kind === "array") return hasFile(schema.items);
  if (schema.kind === "object") return schema.properties.some((property) => hasFile(property.schema));
  return false;
}
