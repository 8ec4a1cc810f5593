/**
 * How many parts (multipart) or values (JSON) one create-session request of a
 * flow may have, from what the flow declares, so a flow with many optional
 * fields is not cut short by a fixed number, and a body cannot make the
 * emulator hold more than the flow could ever use.
 *
 * Every declared leaf counts once. An array counts its element's leaves once
 * per element it may have: its maxItems, else 30 when the element holds a
 * file (no request carries more files, docs/service.md section 8), else
 * ARRAY_ELEMENTS. An object open to extra keys (additionalProperties) allows
 * FREE_FORM_VALUES more.
 */
import { MAX_FILES_PER_REQUEST } from "@flowsmith/runtime";
import { hasFile, type ObjectSchema, type Schema } from "../generator/index.js";

export interface RequestLimits {
  /** Multipart parts, fields and files together. */
  readonly parts: number;
  /** JSON values: scalars, objects and arrays. */
  readonly values: number;
}

/** Longest part name, in bytes. */
export const MAX_PART_NAME_BYTES = 4096;
/** Longest text part, and longest string or number in a JSON body, in bytes. */
export const MAX_TEXT_VALUE_BYTES = 1024 * 1024;

/** Elements allowed in an array that gives no maxItems and holds no file. */
const ARRAY_ELEMENTS = 1000;
const FREE_FORM_VALUES = 100;
/** No flow's arrays multiply past this, unless the flow declares more fields than that outright. */
const MAX_EXPANDED = 100_000;
/** JSON values over the declared ones: a few stray keys get the schema's own error (naming them) rather than this limit. */
const JSON_SLACK = 32;

interface Count {
  readonly leaves: number;
  readonly values: number;
}

export function requestLimitsOf(request: ObjectSchema): RequestLimits {
  const expanded = count(request, true);
  const flat = count(request, false);
  return {
    parts: Math.max(Math.min(expanded.leaves, MAX_EXPANDED), flat.leaves),
    values: Math.max(Math.min(expanded.values, MAX_EXPANDED), flat.values) + JSON_SLACK,
  };
}

/** With `expand` false, every array counts one element: the flow's declared fields. */
function count(schema: Schema, expand: boolean): Count {
  switch (schema.kind) {
    case "object": {
      const free = schema.additionalProperties === false ? 0 : FREE_FORM_VALUES;
      let leaves = free;
      let values = 1 + free;
      for (const property of schema.properties) {
        const inner = count(property.schema, expand);
        leaves += inner.leaves;
        values += inner.values;
      }
      return { leaves, values };
    }
    case "array": {
      const inner = count(schema.items, expand);
      const elements = expand ? elementsOf(schema.items, schema.maxItems) : 1;
      return { leaves: inner.leaves * elements, values: 1 + inner.values * elements };
    }
    default:
      return { leaves: 1, values: 1 };
  }
}

function elementsOf(items: Schema, maxItems: number | undefined): number {
  if (hasFile(items)) return Math.min(maxItems ?? MAX_FILES_PER_REQUEST, MAX_FILES_PER_REQUEST);
  return maxItems ?? ARRAY_ELEMENTS;
}
