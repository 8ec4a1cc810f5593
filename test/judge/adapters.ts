/**
 * Where our types and openapi-typescript's differ by design, each written
 * once, as a type, with the reason beside it. The judge compares
 * `Ours<...>` with `Theirs<...>` (and the request's frame through
 * OursInFrame and TheirsInFrame); whatever differs after these is a
 * disagreement. One more adapter acts on the document, not on types
 * (open-objects.ts: an object without `additionalProperties` is open); one
 * is an option of openapi-typescript's (their-types.ts: `defaultNonNullable`).
 *
 * This file is compiled with each judged description (the comparison
 * module judge.ts writes imports it), not run.
 */
import type { FileInput } from "../../runtime/index.js";

/** Our types, as the judge compares them. */
export type Ours<T> = Walk<T, "ours">;

/** openapi-typescript's types, as the judge compares them. */
export type Theirs<T> = Walk<T, "theirs">;

type Side = "ours" | "theirs";

/**
 * Lengths: arrays compare by their elements; a tuple is read as an array of
 * its elements. We spell minItems/maxItems as tuples (up to 8 elements), and
 * a required array has at least one element (the service reads "required"
 * as "at least one part"; docs/flow-descriptions.md, Files).
 * openapi-typescript reads minItems/maxItems only with its arrayLength
 * option, which stops at its own size estimate, and with both minItems > 0
 * and maxItems writes the lengths 0 to maxItems - minItems (7.13; minItems 2,
 * maxItems 6 gives `[] | [T] | ... | [T, T, T, T]`). The emit tests check our
 * tuples (test/generator/emit.test.ts, the golden files).
 *
 * Readonly: neither `readonly` on a property nor a readonly array is
 * compared. It says what the receiver may do with a value, not what the
 * document admits; openapi-typescript writes it for `readOnly` properties
 * (and everywhere with its `immutable` option), and we may for a response.
 */
type Walk<T, S extends Side> = Walk1<Exclude<T, readonly unknown[]>, S> | ArrayOf<Extract<T, readonly unknown[]>, S>;

/** Each array of a union apart (`A[] | B[]` stays two); the tuples of one array (`[] | [T] | [T, T]`) become one. */
type ArrayOf<A, S extends Side> = [A] extends [never]
  ? never
  : [A] extends [readonly []]
    ? never[]
    : ArrayMember<Exclude<A, readonly []>, S>;

type ArrayMember<A, S extends Side> = A extends readonly (infer E)[] ? Walk<E, S>[] : never;

type Walk1<T, S extends Side> = S extends "ours" ? (T extends FileInput ? string : ObjectOf<T, S>) : ObjectOf<T, S>;

type ObjectOf<T, S extends Side> = T extends object
  ? S extends "ours"
    ? { -readonly [K in keyof T]: Walk<WithoutInherited<K, T[K]>, S> }
    : PropertiesInIndex<{ -readonly [K in keyof T]: Walk<T[K], S> }>
  : T;

/*
 * Files (ours only, above: `T extends FileInput ? string`): a file is a
 * FileInput in our types (a Blob, bytes, or either with a name and a media
 * type), a string in openapi-typescript's (`format: binary` has no type of
 * its own there).
 */

/** The members of Object that TypeScript checks an absent property against (emit/schema-types.ts, OBJECT_MEMBERS). */
type ObjectMember =
  | "constructor"
  | "toString"
  | "toLocaleString"
  | "valueOf"
  | "hasOwnProperty"
  | "isPrototypeOf"
  | "propertyIsEnumerable";

/**
 * Optional fields named like Object's members (ours only): `toString?:
 * boolean | Object["toString"]`. TypeScript checks an object literal that
 * leaves such a field out against the inherited member, so without it in the
 * union no request could leave the field out; openapi-typescript has no such
 * widening, and its type cannot be used without the field. The runtime
 * reads own properties only. In an index signature (which holds the
 * properties' types) every such member goes.
 */
type WithoutInherited<K, V> = K extends ObjectMember
  ? Exclude<V, Inherited[K]>
  : string extends K
    ? Exclude<V, Inherited[ObjectMember]>
    : V;

/** TypeScript's `Object` interface (what the emitter writes as `Object["toString"]`). */
type Inherited = typeof Object.prototype;

/**
 * Typed additionalProperties (theirs only): an interface's index signature
 * must admit every property's type, so ours is `[key: string]: X | A | B`
 * for properties `a: A; b?: B` and extra keys of type X (with `undefined`
 * when a property is optional). openapi-typescript writes an intersection,
 * `{ a: A; b?: B } & { [key: string]: X }`, which TypeScript allows and which
 * admits the same objects.
 */
type PropertiesInIndex<M> = string extends keyof M
  ? unknown extends M[string]
    ? M
    : Known<M> & { [key: string]: M[string] | Known<M>[keyof Known<M>] }
  : M;

/** `M` without its index signatures. */
type Known<M> = { [K in keyof M as string extends K ? never : number extends K ? never : K]: M[K] };

/**
 * The request's frame, whatever the document says of it (docs/service.md
 * 2.1, 2.2, 2.4): the request holds only `input`, `metadata`, `redirectUrl`
 * and `state`; `metadata` only `subjectId` (required) and `locale`; `input`
 * only the flow's data blocks (extra keys are typed only when there are
 * none), and it is needed only when one of its blocks is (the service
 * defaults it to `{}`). Where a document leaves `metadata.locale`,
 * `redirectUrl`, `state` or `input` out, we add them (the service takes
 * them from every flow; generator/model/request.ts): those of ours are not
 * compared. A `locale` of type string is one of the service's six in ours.
 */
export type TheirsInFrame<T> = T extends object
  ? {
      [K in keyof Known<T> as K extends "input" ? never : K]: K extends "metadata"
        ? MetadataFrame<Known<T>[K]>
        : Known<T>[K];
    } & InputFrame<T>
  : T;

type InputFrame<T> = "input" extends keyof T ? InputNeeded<Exclude<T["input" & keyof T], undefined>> : unknown;

type InputNeeded<I> = [RequiredKeys<Known<NonNullable<I>>>] extends [never]
  ? { input?: DataBlocks<I> }
  : { input: DataBlocks<I> };

/**
 * The keys `T` requires. (Not "is `{}` assignable to it": `{}` has Object's
 * members, so an optional `toString` of another type would count as required.)
 */
type RequiredKeys<T> = { [K in keyof T]-?: T extends Record<K, T[K]> ? K : never }[keyof T];

type DataBlocks<I> = I extends object ? ([keyof Known<I>] extends [never] ? I : Known<I>) : I;

type MetadataFrame<M> = M extends object
  ? { [K in keyof Known<M> as K extends "subjectId" ? never : K]: Known<M>[K] } & ("subjectId" extends keyof M
      ? { subjectId: Exclude<M["subjectId" & keyof M], undefined> }
      : unknown)
  : M;

/** Ours, without what we add to the frame where `theirs` leaves it out (see TheirsInFrame). */
export type OursInFrame<O, T> = {
  [K in keyof O as K extends keyof T ? K : never]: K extends "metadata" ? OursMetadata<O[K], T[K & keyof T]> : O[K];
};

type OursMetadata<O, T> = {
  [K in keyof O as K extends keyof T ? K : never]: K extends "locale"
    ? string extends Exclude<T[K & keyof T], undefined>
      ? string
      : O[K]
    : O[K];
};

/**
 * The multipart form's frame as a request (for OursInFrame): which of
 * `input`, `metadata.locale`, `redirectUrl` and `state` it has parts for,
 * and `locale`'s type.
 */
export type FormFrame<F> = {
  metadata: { subjectId: unknown } & ("metadata[locale]" extends keyof F
    ? { locale?: F["metadata[locale]" & keyof F] }
    : unknown);
} & {
  [K in keyof F as K extends "redirectUrl" | "state" ? K : never]: F[K];
} & ([Extract<keyof F, `input[${string}`>] extends [never] ? unknown : { input: unknown });

/**
 * A JSON form beside a multipart form (both sides): our types come from the
 * multipart form then, since only it has the part names
 * (generator/model/request-body.ts), and the JSON form is held to the same
 * paths, required-ness and kinds (form-comparison.ts). What the multipart
 * form cannot say is not compared: that an object or an array is `null`
 * (there, an object or a `[]` group is only the parts under it). Its
 * openness neither: open-objects.ts leaves such a JSON form as written.
 */
export type BesideMultipart<T> = T extends readonly (infer E)[]
  ? BesideMultipart<Containers<E>>[]
  : T extends object
    ? { [K in keyof T]: BesideMultipart<Containers<T[K]>> }
    : T;

type Containers<V> = [Extract<V, object>] extends [never] ? V : Exclude<V, null>;

/**
 * The closed-object option (issue 24; theirs, applied when a flow is
 * generated with it): open JSON data blocks typed without index signatures,
 * at the user's choice. Their extra keys (`[key: string]: unknown`) are
 * then not compared where the object declares properties; typed extra keys,
 * and objects with no properties, still are.
 */
export type ClosedDataBlocks<T> = { [K in keyof T]: K extends "input" ? Blocks<T[K]> : T[K] };

type Blocks<I> = I extends object ? { [B in keyof I]: WithoutOpenIndex<I[B]> } : I;

type WithoutOpenIndex<T> = T extends readonly (infer E)[]
  ? WithoutOpenIndex<E>[]
  : T extends object
    ? { [K in keyof Unopened<T>]: WithoutOpenIndex<Unopened<T>[K]> }
    : T;

/** Only an object that declares properties is closed: one with none is free-form JSON and stays open, as the option leaves it. */
type Unopened<M> = string extends keyof M
  ? unknown extends M[string]
    ? [keyof Known<M>] extends [never]
      ? M
      : Known<M>
    : M
  : M;
