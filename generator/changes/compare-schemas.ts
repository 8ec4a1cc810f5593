/**
 * Two model schemas of the same place (old and new), walked together: every
 * difference that can change what a call may send (or a reader may get) is
 * recorded as a FlowChange, judged by rules.ts. Where the type itself
 * changed, nothing below it is compared: the type change says it all.
 */
import { VALIDATED_FORMATS } from "../model/json-schema.js";
import type {
  ArraySchema,
  BooleanSchema,
  FileSchema,
  JsonValue,
  NumberSchema,
  ObjectSchema,
  Property,
  Schema,
  StringSchema,
} from "../model/types.js";
import { jsonEqual } from "../model/json-equal.js";
import { locationOf, partText, type Segment } from "./location.js";
import {
  judge,
  lowerBoundShift,
  multipleOfShift,
  restrictionShift,
  setShift,
  upperBoundShift,
  type Delta,
  type Shift,
  type Side,
} from "./rules.js";
import type { CaughtBy, ChangeKind, FlowChange } from "./types.js";

/** What holds for a whole walk. */
interface WalkContext {
  readonly side: Side;
  /**
   * Both versions send multipart: only then do part names reach the wire
   * (a flow sent as JSON may still declare a multipart form).
   */
  readonly partsSent: boolean;
}

export interface SchemaPair<S extends Schema = Schema> {
  readonly context: WalkContext;
  readonly path: readonly Segment[];
  readonly before: S;
  readonly after: S;
}

/** Appends the changes between `pair.before` and `pair.after` (and below them) to `out`. */
export function compareSchemas(pair: SchemaPair, out: FlowChange[]): void {
  const { before, after } = pair;
  const beforeType = typeLabel(before);
  const afterType = typeLabel(after);
  if (beforeType !== afterType) {
    const numeric = before.kind === "number" && after.kind === "number";
    // number ↔ integer is `number` in TypeScript either way; only the validator tells them apart.
    const shift: Shift = numeric ? (afterType === "integer" ? "narrower" : "wider") : "different";
    record(pair, out, {
      kind: "type",
      before: beforeType,
      after: afterType,
      shift,
      caughtBy: numeric ? "validator" : "tsc",
    });
    if (!numeric) return;
  }
  compareCommon(pair, out);
  switch (before.kind) {
    case "string":
      compareStrings(pair as SchemaPair<StringSchema>, out);
      break;
    case "number":
      compareNumbers(pair as SchemaPair<NumberSchema>, out);
      break;
    case "boolean":
      compareEnums(pair as SchemaPair<BooleanSchema>, out);
      break;
    case "file":
      compareFiles(pair as SchemaPair<FileSchema>, out);
      break;
    case "array":
      compareArrays(pair as SchemaPair<ArraySchema>, out);
      break;
    case "object":
      compareObjects(pair as SchemaPair<ObjectSchema>, out);
      break;
  }
}

/** The type as a user reads it: `integer` apart from `number`, `file` apart from `string`. */
function typeLabel(schema: Schema): string {
  return schema.kind === "number" && schema.integer ? "integer" : schema.kind;
}

function compareCommon(pair: SchemaPair, out: FlowChange[]): void {
  const { before, after } = pair;
  if (before.nullable !== after.nullable) {
    record(pair, out, {
      kind: "nullable",
      before: before.nullable,
      after: after.nullable,
      shift: after.nullable ? "wider" : "narrower",
      caughtBy: "tsc",
    });
  }
  if (!jsonEqual(before.default, after.default)) {
    record(pair, out, { kind: "default", ...values(before.default, after.default), shift: "same", caughtBy: "tsc" });
  }
  // A change of body form is reported once, as such, not as every part appearing.
  if (pair.context.partsSent && before.part && after.part && partText(before.part) !== partText(after.part)) {
    record(pair, out, {
      kind: "partName",
      before: partText(before.part),
      after: partText(after.part),
      shift: "different",
      caughtBy: "service",
    });
  }
}

function compareStrings(pair: SchemaPair<StringSchema>, out: FlowChange[]): void {
  const { before, after } = pair;
  const format = restrictionShift(before.format, after.format);
  if (format !== "same") {
    const checked = after.format !== undefined && VALIDATED_FORMATS.has(after.format);
    record(pair, out, {
      kind: "format",
      ...values(before.format, after.format),
      shift: format,
      caughtBy: checked ? "validator" : "service",
    });
  }
  compareEnums(pair, out);
  compareRestriction(pair, out, "pattern", before.pattern, after.pattern);
  compareBound(pair, out, "minLength", before.minLength, after.minLength, lowerBoundShift);
  compareBound(pair, out, "maxLength", before.maxLength, after.maxLength, upperBoundShift);
}

function compareNumbers(pair: SchemaPair<NumberSchema>, out: FlowChange[]): void {
  const { before, after } = pair;
  compareEnums(pair, out);
  compareBound(pair, out, "minimum", before.minimum, after.minimum, lowerBoundShift);
  compareBound(pair, out, "maximum", before.maximum, after.maximum, upperBoundShift);
  compareBound(pair, out, "exclusiveMinimum", before.exclusiveMinimum, after.exclusiveMinimum, lowerBoundShift);
  compareBound(pair, out, "exclusiveMaximum", before.exclusiveMaximum, after.exclusiveMaximum, upperBoundShift);
  compareBound(pair, out, "multipleOf", before.multipleOf, after.multipleOf, multipleOfShift);
}

function compareEnums(pair: SchemaPair<StringSchema | NumberSchema | BooleanSchema>, out: FlowChange[]): void {
  const before = pair.before.enum as readonly (string | number | boolean)[] | undefined;
  const after = pair.after.enum as readonly (string | number | boolean)[] | undefined;
  const shift = setShift(before, after);
  if (shift === "same") return;
  // metadata.locale's enum is the flow's locale list (model/request.ts), the `Locale` type.
  const kind = pair.context.side === "request" && locationOf(pair.path) === "metadata.locale" ? "locales" : "enum";
  record(pair, out, { kind, ...values(before, after), shift, caughtBy: "tsc" });
}

function compareFiles(pair: SchemaPair<FileSchema>, out: FlowChange[]): void {
  const { before, after } = pair;
  // The runtime checks size and media type before sending (runtime/multipart.ts): the validator's side.
  compareBound(pair, out, "maxBytes", before.maxBytes, after.maxBytes, upperBoundShift);
  const anyType = (types: readonly string[]) => (types.length === 0 ? undefined : types);
  const shift = setShift(anyType(before.mediaTypes), anyType(after.mediaTypes));
  if (shift !== "same") {
    record(pair, out, {
      kind: "mediaTypes",
      before: before.mediaTypes,
      after: after.mediaTypes,
      shift,
      caughtBy: "validator",
    });
  }
}

function compareArrays(pair: SchemaPair<ArraySchema>, out: FlowChange[]): void {
  const { before, after } = pair;
  compareBound(pair, out, "minItems", before.minItems, after.minItems, lowerBoundShift);
  compareBound(pair, out, "maxItems", before.maxItems, after.maxItems, upperBoundShift);
  compareSchemas({ context: pair.context, path: [...pair.path, "[]"], before: before.items, after: after.items }, out);
}

function compareObjects(pair: SchemaPair<ObjectSchema>, out: FlowChange[]): void {
  const { before, after } = pair;
  // `input`'s interface is declared closed whatever the description says (emit/flow-types.ts).
  const typeClosed = pair.context.side === "request" && locationOf(pair.path) === "input";
  const afterByName = new Map(after.properties.map((property) => [property.name, property]));
  const beforeNames = new Set(before.properties.map((property) => property.name));
  for (const old of before.properties) {
    const path = [...pair.path, { key: old.name }];
    const now = afterByName.get(old.name);
    if (!now) {
      recordRemoved(pair, out, old, typeClosed);
      continue;
    }
    const child: SchemaPair = { context: pair.context, path, before: old.schema, after: now.schema };
    if (old.required !== now.required) {
      record(child, out, {
        kind: "required",
        before: old.required,
        after: now.required,
        shift: now.required ? "narrower" : "wider",
        caughtBy: "tsc",
      });
    }
    compareSchemas(child, out);
  }
  for (const added of after.properties) {
    if (beforeNames.has(added.name)) continue;
    const kind = presenceKind(pair, "Added");
    const delta: Delta = { kind, after: summary(added), shift: added.required ? "narrower" : "wider", caughtBy: "tsc" };
    record({ ...pair, path: [...pair.path, { key: added.name }] }, out, delta, {
      before: before.pointer,
      after: added.schema.pointer,
    });
  }
  compareExtraKeys(pair, out, typeClosed);
}

/**
 * A removed property of an object open to extra keys is accepted as an extra
 * key when it fits their type; everywhere else an old call that sets it fails.
 */
function recordRemoved(pair: SchemaPair<ObjectSchema>, out: FlowChange[], old: Property, typeClosed: boolean): void {
  const extra = pair.after.additionalProperties;
  const path = [...pair.path, { key: old.name }];
  let shift: Shift = "narrower";
  let caughtBy: CaughtBy = "tsc";
  if (!typeClosed && extra === true) shift = "same";
  if (!typeClosed && typeof extra === "object") {
    const asExtra: FlowChange[] = [];
    compareSchemas({ context: { ...pair.context, side: "request" }, path, before: old.schema, after: extra }, asExtra);
    const refused = asExtra.find((change) => change.severity === "breaking");
    shift = refused ? "narrower" : "same";
    caughtBy = refused?.caughtBy ?? "tsc";
  }
  const delta: Delta = { kind: presenceKind(pair, "Removed"), before: summary(old), shift, caughtBy };
  record({ ...pair, path }, out, delta, { before: old.schema.pointer, after: pair.after.pointer });
}

/** `additionalProperties`: none < typed < any; two typed ones are compared as schemas at `.*`. */
function compareExtraKeys(pair: SchemaPair<ObjectSchema>, out: FlowChange[], typeClosed: boolean): void {
  const { before, after } = pair;
  if (typeof before.additionalProperties === "object" && typeof after.additionalProperties === "object") {
    compareSchemas(
      {
        context: pair.context,
        path: [...pair.path, "*"],
        before: before.additionalProperties,
        after: after.additionalProperties,
      },
      out,
    );
    return;
  }
  const rank = { none: 0, typed: 1, any: 2 } as const;
  const from = extraKeys(before.additionalProperties);
  const to = extraKeys(after.additionalProperties);
  if (from === to) return;
  const shift: Shift = rank[to] < rank[from] ? "narrower" : "wider";
  // The index signature carries extra keys in the types, except on `input`, which has none.
  record(pair, out, {
    kind: "additionalProperties",
    before: from,
    after: to,
    shift,
    caughtBy: typeClosed ? "validator" : "tsc",
  });
}

function extraKeys(value: boolean | Schema): "none" | "typed" | "any" {
  return value === false ? "none" : value === true ? "any" : "typed";
}

function compareBound(
  pair: SchemaPair,
  out: FlowChange[],
  kind: ChangeKind,
  before: number | undefined,
  after: number | undefined,
  shiftOf: (before: number | undefined, after: number | undefined) => Shift,
): void {
  const shift = shiftOf(before, after);
  if (shift !== "same") record(pair, out, { kind, ...values(before, after), shift, caughtBy: "validator" });
}

function compareRestriction(
  pair: SchemaPair,
  out: FlowChange[],
  kind: ChangeKind,
  before: string | undefined,
  after: string | undefined,
): void {
  const shift = restrictionShift(before, after);
  if (shift !== "same") record(pair, out, { kind, ...values(before, after), shift, caughtBy: "validator" });
}

/** A data block is a property of the request's `input`; anything else is a field. */
function presenceKind(pair: SchemaPair, what: "Added" | "Removed"): ChangeKind {
  const block = pair.context.side === "request" && locationOf(pair.path) === "input";
  return `${block ? "block" : "field"}${what}`;
}

function summary(property: Property): JsonValue {
  return { required: property.required, type: typeLabel(property.schema) };
}

function values(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
): { before?: JsonValue; after?: JsonValue } {
  return { ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
}

function record(
  pair: SchemaPair,
  out: FlowChange[],
  delta: Delta,
  pointers: FlowChange["pointers"] = { before: pair.before.pointer, after: pair.after.pointer },
): void {
  const { severity, caughtBy } = judge(pair.context.side, delta);
  out.push({
    kind: delta.kind,
    severity,
    ...(caughtBy ? { caughtBy } : {}),
    location: locationOf(pair.path),
    ...values(delta.before, delta.after),
    pointers,
  });
}
