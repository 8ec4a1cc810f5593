/**
 * A property of an object schema, with the one rule that ties a property's
 * required-ness to its schema: a required array needs at least one element.
 * Its name is any Unicode text.
 * The service reads "required" as "at least one part under this name"
 * (docs/flow-descriptions.md, "Files"), so an empty array would be sent and
 * refused; the model says so once, and types and validators follow it.
 */
import { valueText } from "../read/value-text.js";
import type { BuildContext } from "./build-context.js";
import type { ArraySchema, Property, Schema } from "./types.js";

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function propertyOrThrow(context: BuildContext, name: string, required: boolean, schema: Schema): Property {
  if (LONE_SURROGATE.test(name)) {
    // Not text: UTF-8 (a multipart part name, a JSON body on the wire) cannot carry it, so no request could use the name.
    throw context.error(
      "INVALID_SCHEMA",
      `property name ${valueText(name)} holds half of a UTF-16 surrogate pair, which is not Unicode text and cannot be sent`,
      schema.pointer,
    );
  }
  if (!required || schema.kind !== "array" || (schema.minItems ?? 0) >= 1) return { name, required, schema };
  const atLeastOne: ArraySchema = { ...schema, minItems: 1 };
  checkItemCountsOrThrow(context, atLeastOne, `${valueText(name)} is required, so it needs at least one element`);
  return { name, required, schema: atLeastOne };
}

/** An array whose minItems exceeds its maxItems admits no value: refused rather than typed `never`. */
export function checkItemCountsOrThrow(context: BuildContext, schema: ArraySchema, why?: string): void {
  const { minItems, maxItems } = schema;
  if (minItems === undefined || maxItems === undefined || minItems <= maxItems) return;
  const conflict = why
    ? `${why}, but maxItems is ${String(maxItems)}`
    : `minItems is ${String(minItems)} but maxItems is ${String(maxItems)}`;
  throw context.error("INVALID_SCHEMA", `${conflict}: no array fits`, schema.pointer);
}
