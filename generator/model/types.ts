/**
 * The typed intermediate model of one flow description.
 *
 * Parsing (generator/read) produces it; the emitter (generator/emit), the
 * runtime metadata (FlowSpec) and the emulator read only this model, never raw
 * OpenAPI. Every default is already applied and every awkward part of the
 * document (refs, allOf, bracket-named multipart properties, encodings) is
 * already resolved, so readers never need to look back at the document.
 */

import type { BodyForm, Environment, Locale, PartName } from "@flowsmith/runtime/flow-module";

export type { BodyForm, Environment, Locale, PartName, PartSegment } from "@flowsmith/runtime/flow-module";

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

interface SchemaBase {
  /** JSON pointer (RFC 6901, with leading `#`) of the declaration in the source document. */
  readonly pointer: string;
  readonly description?: string;
  /** OpenAPI `nullable: true`: the value may also be `null`. */
  readonly nullable: boolean;
  readonly default?: JsonValue;
  /**
   * Multipart only, set on leaves (string, number, boolean, file): the exact
   * part name on the wire. Absent in JSON-only flows.
   */
  readonly part?: PartName;
}

export interface StringSchema extends SchemaBase {
  readonly kind: "string";
  /** `date`, `date-time`, `uri`, ... as written; unknown formats are kept for docs only. */
  readonly format?: string;
  readonly enum?: readonly string[];
  readonly pattern?: string;
  /**
   * Set when `pattern` cannot run on the linear-time engine (a lookahead, a
   * backreference): why. The client then leaves that check to the service,
   * and the run's report names the field and this reason.
   */
  readonly patternLeftToService?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
}

export interface NumberSchema extends SchemaBase {
  readonly kind: "number";
  /** `type: integer`. */
  readonly integer: boolean;
  readonly enum?: readonly number[];
  readonly minimum?: number;
  readonly maximum?: number;
  /** OpenAPI 3.0 boolean exclusiveMinimum/Maximum already folded into numbers. */
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
}

export interface BooleanSchema extends SchemaBase {
  readonly kind: "boolean";
  readonly enum?: readonly boolean[];
}

/** `type: string, format: binary`: an uploaded file (multipart only). */
export interface FileSchema extends SchemaBase {
  readonly kind: "file";
  /** Per-file limit in bytes: `maxLength`, or DEFAULT_MAX_FILE_BYTES. */
  readonly maxBytes: number;
  /** From `encoding.<part>.contentType`, lower-cased, in document order; empty = any type. */
  readonly mediaTypes: readonly string[];
}

export interface ArraySchema extends SchemaBase {
  readonly kind: "array";
  readonly items: Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface Property {
  /** The key exactly as in the document (any string). */
  readonly name: string;
  readonly required: boolean;
  readonly schema: Schema;
}

export interface ObjectSchema extends SchemaBase {
  readonly kind: "object";
  /** In document order. */
  readonly properties: readonly Property[];
  /** `false`: closed; `true`: any extra keys; a schema: extra keys of that type. */
  readonly additionalProperties: boolean | Schema;
}

export type Schema = StringSchema | NumberSchema | BooleanSchema | FileSchema | ArraySchema | ObjectSchema;

export interface FlowModel {
  /** Folder under outputDir: the config name, or the title in kebab-case, or one made from the flow id (names.ts). */
  readonly name: string;
  readonly source: {
    /** The description's path as given in the config (posix separators), or `api:<flowId>/<environment>`. */
    readonly file: string;
    /** sha256 (hex) of the description's bytes. */
    readonly sha256: string;
  };
  /** info.x-flow-id: one safe path segment, `[A-Za-z0-9._~-]+`, not `.` or `..`. */
  readonly id: string;
  /** info.x-flow-version */
  readonly version: number;
  /** info.version, as written. */
  readonly versionLabel: string;
  /** info.x-environment */
  readonly environment: Environment;
  readonly title: string;
  readonly description?: string;
  /** The operation's summary, when given. */
  readonly summary?: string;
  /** servers[0].url, as written (may carry a path prefix). */
  readonly serverUrl: string;
  /** The one POST path: `/api/v1/flows/<id>/<environment>/sessions`. */
  readonly path: string;
  /** Request body forms the document declares. */
  readonly declaredBodyForms: readonly BodyForm[];
  /** How the runtime sends it: multipart when the request has a file or JSON is not declared. */
  readonly bodyForm: BodyForm;
  /**
   * The whole request as the user writes it (the JSON shape):
   * `input` (one property per data block), `metadata` (exactly `subjectId`
   * and `locale`), `redirectUrl`, `state`. In multipart flows every leaf has
   * its `part`. `metadata.locale` is a string enum of `locales`; `state` has
   * maxLength <= MAX_STATE_LENGTH; both are added when the document omits them.
   */
  readonly request: ObjectSchema;
  /** Locales the flow accepts: metadata.locale's enum, or all SERVICE_LOCALES. */
  readonly locales: readonly Locale[];
  /** The 201 response body. */
  readonly response: Schema;
}
