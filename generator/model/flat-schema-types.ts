/**
 * A schema with its `$ref`s followed and its `allOf` merged: what
 * flat-schema.ts makes and all-of.ts merges, in a module of its own so
 * neither of the two imports the other's types.
 */
import type { Located } from "./build-context.js";

export interface FlatProperty extends Located {
  readonly name: string;
}

export interface FlatSchema {
  /** Where the schema is written (the `$ref` target, for a reference). */
  readonly pointer: string;
  readonly trail: readonly string[];
  /** Every keyword except the structural ones below; null prototype. */
  readonly keywords: Readonly<Record<string, unknown>>;
  readonly properties: readonly FlatProperty[];
  readonly required: readonly string[];
  readonly items?: Located;
  readonly additionalProperties?: boolean | Located;
}
