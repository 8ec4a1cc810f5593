/**
 * How large a request (or response) tree the model accepts. Beyond these the
 * generated code stops being code a compiler or a reader can take: tsc runs
 * out of stack emitting a validator nested a few hundred levels deep, and a
 * handful of `$ref`s used in each other can describe more fields than atoms.
 * Flow descriptions the service produces are a few levels deep and have at
 * most some hundred fields, far inside both limits.
 */
import type { BuildContext } from "./build-context.js";

/** Objects and arrays on the way from the root to a schema, the schema included. */
export const MAX_SCHEMA_DEPTH = 64;

/** Schemas in one flow's request and response together, after `$ref`s are expanded. */
export const MAX_SCHEMA_COUNT = 10_000;

/**
 * Values of one `enum`. Each is a member of a generated union type and of the validators' checks,
 * and ajv's meta-schema compares every value with every other (uniqueItems): past this a long list
 * costs minutes, not milliseconds. Real enums (countries, currencies) have some hundred.
 */
export const MAX_ENUM_VALUES = 10_000;

/**
 * Refuses an object or array at `level` (1 = the root) beyond MAX_SCHEMA_DEPTH.
 * Called before its children are read, so no reader recurses further.
 */
export function checkDepthOrThrow(context: BuildContext, level: number, pointer: string): void {
  if (level <= MAX_SCHEMA_DEPTH) return;
  throw context.error(
    "TOO_DEEP",
    `objects and arrays nest more than ${String(MAX_SCHEMA_DEPTH)} levels deep here; flatten the schema (a flow description is a few levels deep)`,
    pointer,
  );
}

/** Counts one more schema of this build (BuildContext.counts); refuses the one past MAX_SCHEMA_COUNT. */
export function countSchemaOrThrow(context: BuildContext, pointer: string): void {
  context.counts.schemas += 1;
  if (context.counts.schemas <= MAX_SCHEMA_COUNT) return;
  throw context.error(
    "TOO_LARGE",
    `the request and response hold more than ${String(MAX_SCHEMA_COUNT)} schemas once $refs are expanded; a flow description has at most some hundred fields`,
    pointer,
  );
}

/** Refuses an `enum` of more than MAX_ENUM_VALUES values, before any of them is looked at. */
export function checkEnumLengthOrThrow(context: BuildContext, length: number, pointer: string): void {
  if (length <= MAX_ENUM_VALUES) return;
  throw context.error(
    "TOO_LARGE",
    `the enum lists ${String(length)} values, more than ${String(MAX_ENUM_VALUES)}; a field with that many choices is a plain string (or number) checked by your own code`,
    pointer,
  );
}
