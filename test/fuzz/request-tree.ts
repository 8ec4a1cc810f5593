/**
 * The fuzz suite's own picture of a request: data blocks of fields, each a
 * leaf, an object or an array, with hostile text wherever a description
 * allows text. descriptions.ts writes one tree as the JSON form, the
 * multipart form or both, so both forms always describe the same request.
 */
import fc from "fast-check";
import { catastrophicPattern } from "./catastrophic-patterns.js";
import { hostileName, hostileText, literalPattern } from "./hostile-text.js";

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

export type Leaf =
  | {
      readonly kind: "string";
      readonly enum?: readonly string[];
      readonly pattern?: string;
      readonly format?: string;
      readonly minLength?: number;
      readonly maxLength?: number;
    }
  | {
      readonly kind: "number";
      readonly integer: boolean;
      readonly enum?: readonly number[];
      readonly minimum?: number;
      readonly maximum?: number;
      readonly exclusive?: boolean;
      readonly multipleOf?: number;
    }
  | { readonly kind: "boolean"; readonly enum?: readonly boolean[] }
  | { readonly kind: "file"; readonly maxLength?: number; readonly contentType?: string };

export interface ObjectNode {
  readonly kind: "object";
  readonly fields: readonly Field[];
  /** JSON form only (a multipart object is closed): `additionalProperties`. */
  readonly additional?: boolean | "typed";
}

export interface ArrayNode {
  readonly kind: "array";
  readonly items: Node;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** Multipart: an array of objects as `name[][field]` parts (a `[]` group) rather than one `type: array` property. */
  readonly group: boolean;
}

export type Node = Leaf | ObjectNode | ArrayNode;

export interface Field {
  readonly name: string;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly description?: string;
  readonly default?: Json;
  /** JSON form: written as `allOf: [{ $ref }]` to a component schema, with the description beside it. */
  readonly viaRef: boolean;
  readonly node: Node;
}

export interface TreeOptions {
  /** The tree will be written as a multipart form: no brackets in names, no empty objects, files allowed. */
  readonly multipart: boolean;
  /** Files may appear (the description has a multipart form). */
  readonly files: boolean;
}

/** Arbitraries are costly to build and cheap to draw from: each shape is built once. */
const built = new Map<string, fc.Arbitrary<unknown>>();
function once<T>(key: string, make: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  let arbitrary = built.get(key) as fc.Arbitrary<T> | undefined;
  if (!arbitrary) {
    arbitrary = make();
    built.set(key, arbitrary);
  }
  return arbitrary;
}

function keyOf(options: TreeOptions, ...rest: readonly (string | number)[]): string {
  return [options.multipart, options.files, ...rest].join("/");
}

const optional = <T>(arbitrary: fc.Arbitrary<T>, freq = 3): fc.Arbitrary<T | undefined> =>
  fc.option(arbitrary, { nil: undefined, freq });

function stringLeaf(): fc.Arbitrary<Leaf> {
  return fc
    .record({
      enum: optional(fc.array(hostileName(), { minLength: 1, maxLength: 5 })),
      // Hostile text as a literal pattern, or a pattern that backtracks catastrophically on a native RegExp.
      pattern: optional(
        fc.oneof(
          { weight: 3, arbitrary: literalPattern() },
          { weight: 1, arbitrary: catastrophicPattern().map((each) => each.pattern) },
        ),
        4,
      ),
      format: optional(fc.oneof(fc.constantFrom("date", "date-time", "uri", "email", "uuid"), hostileText(2)), 4),
      lengths: optional(fc.tuple(fc.nat({ max: 20 }), fc.nat({ max: 200 }))),
    })
    .map(({ enum: values, pattern, format, lengths }) => ({
      kind: "string" as const,
      ...(values ? { enum: values } : {}),
      // A pattern or format beside an enum would only make the enum unsatisfiable.
      ...(!values && pattern !== undefined ? { pattern } : {}),
      ...(!values && format !== undefined ? { format } : {}),
      ...(lengths ? { minLength: Math.min(...lengths), maxLength: Math.max(...lengths) } : {}),
    }));
}

function numberLeaf(): fc.Arbitrary<Leaf> {
  const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 });
  return fc
    .record({
      integer: fc.boolean(),
      enum: optional(fc.array(fc.oneof(fc.integer({ min: -1000, max: 1000 }), finite), { minLength: 1, maxLength: 5 })),
      bounds: optional(fc.tuple(finite, finite)),
      exclusive: fc.boolean(),
      multipleOf: optional(fc.constantFrom(1, 2, 0.5, 10)),
    })
    .map(({ integer, enum: values, bounds, exclusive, multipleOf }) => ({
      kind: "number" as const,
      integer,
      ...(values ? { enum: values } : {}),
      ...(!values && bounds ? { minimum: Math.min(...bounds), maximum: Math.max(...bounds), exclusive } : {}),
      ...(!values && multipleOf !== undefined ? { multipleOf } : {}),
    }));
}

function leaf(options: TreeOptions): fc.Arbitrary<Leaf> {
  return once(keyOf(options, "leaf"), () => makeLeaf(options));
}

function makeLeaf(options: TreeOptions): fc.Arbitrary<Leaf> {
  return fc.oneof(
    { weight: 5, arbitrary: stringLeaf() },
    { weight: 2, arbitrary: numberLeaf() },
    {
      weight: 1,
      arbitrary: optional(fc.array(fc.boolean(), { minLength: 1, maxLength: 2 })).map((values) => ({
        kind: "boolean" as const,
        ...(values ? { enum: values } : {}),
      })),
    },
    {
      weight: options.files ? 2 : 0,
      arbitrary: fc
        .record({
          maxLength: optional(fc.integer({ min: 1, max: 26_214_400 })),
          contentType: optional(
            fc.oneof(fc.constantFrom("image/jpeg, image/png", "image/*", "*/*", "application/pdf"), hostileText(3)),
          ),
        })
        .map((file) => ({ kind: "file" as const, ...strip(file) })),
    },
  );
}

/** Names for one object's fields: distinct, and bracket-free when they become multipart segments. */
function fieldNames(options: TreeOptions, count: number): fc.Arbitrary<string[]> {
  return once(keyOf(options, "names", count), () => {
    const name = options.multipart ? hostileName().map((n) => n.replace(/[[\]]/g, "_")) : hostileName();
    return fc.uniqueArray(name, { minLength: count, maxLength: count });
  });
}

function defaultFor(node: Node): fc.Arbitrary<Json | undefined> {
  if (node.kind === "string") return optional(node.enum ? fc.constantFrom(...node.enum) : hostileText(3), 5);
  if (node.kind === "number" || node.kind === "boolean")
    return optional(fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>, 8);
  return fc.constant(undefined);
}

function field(options: TreeOptions, name: string, node: fc.Arbitrary<Node>): fc.Arbitrary<Field> {
  return node
    .chain((built) =>
      fc.record({
        name: fc.constant(name),
        required: fc.boolean(),
        nullable: fc.boolean().map((nullable) => nullable && built.kind !== "file"),
        description: optional(hostileText()),
        default: defaultFor(built),
        viaRef: fc.boolean().map((viaRef) => viaRef && !options.multipart),
        node: fc.constant(built),
      }),
    )
    .map(strip);
}

/** An object of up to `width` fields, nested up to `depth` more levels. */
export function objectNode(options: TreeOptions, depth: number, width = 4): fc.Arbitrary<ObjectNode> {
  return once(keyOf(options, "object", depth, width), () => makeObjectNode(options, depth, width));
}

function makeObjectNode(options: TreeOptions, depth: number, width: number): fc.Arbitrary<ObjectNode> {
  const min = options.multipart ? 1 : 0;
  return fc.integer({ min, max: width }).chain((count) =>
    fieldNames(options, count).chain((names) =>
      fc
        .record({
          fields: fc.tuple(...names.map((name) => field(options, name, node(options, depth - 1)))),
          additional: options.multipart
            ? fc.constant(undefined)
            : optional(fc.oneof(fc.boolean(), fc.constant("typed" as const))),
        })
        .map(({ fields, additional }) => ({
          kind: "object" as const,
          fields,
          ...(additional === undefined ? {} : { additional }),
        })),
    ),
  );
}

function arrayNode(options: TreeOptions, depth: number): fc.Arbitrary<ArrayNode> {
  return once(keyOf(options, "array", depth), () => makeArrayNode(options, depth));
}

function makeArrayNode(options: TreeOptions, depth: number): fc.Arbitrary<ArrayNode> {
  return fc
    .record({
      items: fc.oneof(
        { weight: 2, arbitrary: leaf(options) },
        { weight: depth > 0 ? 2 : 0, arbitrary: objectNode(options, depth - 1, 3) },
      ),
      // maxItems of at least 1: a required array needs an element, and no description asks for none.
      counts: optional(fc.tuple(fc.nat({ max: 3 }), fc.integer({ min: 1, max: 12 }))),
      group: fc.boolean(),
    })
    .map(({ items, counts, group }) => ({
      kind: "array" as const,
      items,
      ...(counts ? { minItems: Math.min(...counts), maxItems: Math.max(...counts) } : {}),
      // Only an array of objects has fields to name with `[]`.
      group: group && items.kind === "object",
    }));
}

function node(options: TreeOptions, depth: number): fc.Arbitrary<Node> {
  return once(keyOf(options, "node", depth), () => makeNode(options, depth));
}

function makeNode(options: TreeOptions, depth: number): fc.Arbitrary<Node> {
  return fc.oneof(
    { weight: 6, arbitrary: leaf(options) },
    { weight: depth > 0 ? 2 : 0, arbitrary: objectNode(options, depth, 3) },
    { weight: depth > 0 ? 1 : 0, arbitrary: arrayNode(options, depth) },
  );
}

/** An object nested `levels` deep, one field a level, for the depth limit. */
export function chain(levels: number, name: string): ObjectNode {
  let inner: Node = { kind: "string" };
  for (let level = 0; level < levels; level += 1) {
    inner = {
      kind: "object",
      fields: [{ name: name + String(level), required: true, nullable: false, viaRef: false, node: inner }],
    };
  }
  return inner as ObjectNode;
}

function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
