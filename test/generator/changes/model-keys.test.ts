/**
 * Every key of the flow model, and the change kind a difference in it is
 * reported as (or why it is none). When the model gains a key, this file
 * stops compiling (`npm run typecheck`): decide what a change to it does to
 * calls (generator/changes/rules.ts), teach compare-schemas.ts, list it here.
 */
import { CHANGE_KINDS, type ChangeKind } from "../../../generator/changes/index";
import type {
  ArraySchema,
  BooleanSchema,
  FileSchema,
  FlowModel,
  NumberSchema,
  ObjectSchema,
  Property,
  StringSchema,
} from "../../../generator/model/types";

/** A change kind, several, "walked" (compared below it), or why a difference is not a change. */
type Treatment = ChangeKind | readonly ChangeKind[] | "walked" | `not a change: ${string}`;
type Decided<T> = { readonly [K in keyof Required<T>]: Treatment };

const COMMON = {
  kind: "type",
  pointer: "not a change: where it is declared",
  description: "not a change: text",
  nullable: "nullable",
  default: "default",
  part: "partName",
} as const;

const FLOW: Decided<FlowModel> = {
  name: "not a change: the config's name for the output folder",
  source: "not a change: reported as the files compared",
  id: "flowId",
  version: "not a change: the report's header",
  versionLabel: "not a change: the report's header",
  environment: "environment",
  title: "not a change: text",
  description: "not a change: text",
  summary: "not a change: text",
  serverUrl: "not a change: the client's baseUrl decides where calls go",
  path: "not a change: follows flowId and environment",
  declaredBodyForms: "bodyForm",
  bodyForm: "bodyForm",
  request: "walked",
  locales: "locales",
  response: "walked",
};

const PROPERTY: Decided<Property> = {
  name: ["blockAdded", "blockRemoved", "fieldAdded", "fieldRemoved"],
  required: "required",
  schema: "walked",
};

const SCHEMAS = {
  string: {
    ...COMMON,
    format: "format",
    enum: ["enum", "locales"],
    pattern: "pattern",
    patternLeftToService: "not a change: follows pattern",
    minLength: "minLength",
    maxLength: "maxLength",
  } satisfies Decided<StringSchema>,
  number: {
    ...COMMON,
    integer: "type",
    enum: "enum",
    minimum: "minimum",
    maximum: "maximum",
    exclusiveMinimum: "exclusiveMinimum",
    exclusiveMaximum: "exclusiveMaximum",
    multipleOf: "multipleOf",
  } satisfies Decided<NumberSchema>,
  boolean: { ...COMMON, enum: "enum" } satisfies Decided<BooleanSchema>,
  file: { ...COMMON, maxBytes: "maxBytes", mediaTypes: "mediaTypes" } satisfies Decided<FileSchema>,
  array: { ...COMMON, items: "walked", minItems: "minItems", maxItems: "maxItems" } satisfies Decided<ArraySchema>,
  object: {
    ...COMMON,
    properties: "walked",
    additionalProperties: "additionalProperties",
  } satisfies Decided<ObjectSchema>,
};

describe("the flow model's keys", () => {
  it("each lead to a change kind, and every change kind comes from one", () => {
    const tables: readonly Record<string, Treatment>[] = [FLOW, PROPERTY, ...Object.values(SCHEMAS)];
    const named = new Set(
      tables.flatMap((table) =>
        Object.values(table).flatMap((treatment) => (typeof treatment === "string" ? [treatment] : [...treatment])),
      ),
    );
    expect(CHANGE_KINDS.filter((kind) => !named.has(kind))).toEqual([]);
  });
});
