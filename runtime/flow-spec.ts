/**
 * What the runtime knows of a flow: the small, serializable part of the
 * generator's model that each generated module embeds as `spec` and passes to
 * the runtime. The service-wide constants live in service-limits.ts.
 */

import type { Environment, Locale } from "./service-limits.js";
import type { JsonSchema } from "./validation/schema-check.js";

/**
 * One segment of a multipart part name: literal text, or the index of an
 * enclosing array (0 = outermost array on the way from the request root).
 * `["input[docs][documents][", { index: 0 }, "][templateId]"]` names the
 * templateId of each element with an explicit index; a declared `[]` name is
 * a single literal: `["input[docs][documents][][templateId]"]`.
 */
export type PartSegment = string | { readonly index: number };
export type PartName = readonly PartSegment[];

/** How a create-session request is sent: a JSON body, or multipart/form-data parts. */
export type BodyForm = "json" | "multipart";

/** The request tree of a multipart flow, as the runtime walks it to encode parts. */
export type FieldSpec =
  | {
      readonly kind: "object";
      /** In document order: parts are sent in this order. */
      readonly properties: readonly { readonly name: string; readonly spec: FieldSpec }[];
    }
  | { readonly kind: "array"; readonly items: FieldSpec }
  | { readonly kind: "value"; readonly part: PartName }
  | {
      readonly kind: "file";
      readonly part: PartName;
      /** Per-file limit in bytes (the description's maxLength, or DEFAULT_MAX_FILE_BYTES). */
      readonly maxBytes: number;
      /** Accepted media types, lower-case; empty = any. */
      readonly mediaTypes: readonly string[];
    };

export interface FlowSpec<E extends Environment = Environment> {
  readonly id: string;
  readonly version: number;
  readonly environment: E;
  /**
   * `/api/v1/flows/<id>/<environment>/sessions`, for readers of the module.
   * The runtime builds the request path itself from `id` and `environment`,
   * each encoded as one path segment (paths.ts), so no id can reach another path.
   */
  readonly path: string;
  readonly bodyForm: BodyForm;
  /** Locales the flow accepts. */
  readonly locales: readonly Locale[];
  /** Multipart flows only: the request tree with exact part names and file limits. */
  readonly fields?: FieldSpec;
  /**
   * The request's JSON Schema, checked before anything is sent (a file is
   * any present value here: its size and media type are checked from
   * `fields`). Its patterns run on the engine the generated module passes
   * (`@flowsmith/runtime/patterns`); one that engine cannot run is not in it.
   */
  readonly request: JsonSchema;
  /** The 201 body's JSON Schema, checked after the fields every created session has. */
  readonly response: JsonSchema;
}
