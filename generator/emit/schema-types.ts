/**
 * Model schemas as TypeScript types. Every object schema becomes a named
 * interface (so users can name each part of a request), declared in
 * pre-order: a parent interface comes before the interfaces of its fields.
 */
import type {
  IndexSignatureDeclarationStructure,
  InterfaceDeclarationStructure,
  OptionalKind,
  PropertySignatureStructure,
  TypeAliasDeclarationStructure,
} from "ts-morph";
import { StructureKind } from "ts-morph";
import type { ObjectSchema, Property, Schema } from "../model/types.js";
import { schemaDocs, type Docs } from "./docs.js";
import { codeStringLiteral, joinedTypeName, numberLiteral, propertyKey, typeName } from "./escape.js";
import { NameAllocator, singularTypeName } from "./names.js";

export type Declaration = InterfaceDeclarationStructure | TypeAliasDeclarationStructure;

/** Collects the declarations of one module; names are claimed in call order. */
export class TypeEmitter {
  /** Where declarations go: the module's list, or while an interface's members are made, that interface's own. */
  private collected: Declaration[] = [];
  /** Whether any type refers to the runtime's FileInput (so the import can be dropped otherwise). */
  usesFileInput = false;

  constructor(readonly names: NameAllocator) {}

  /** In order: each interface before the declarations its members added. */
  get declarations(): readonly Declaration[] {
    return this.collected;
  }

  /**
   * Declares `schema` (an object) as interface `name`. Object fields get
   * interfaces named `<childPrefix><Field>`; `docs` replaces the schema's own.
   */
  declareInterface(name: string, schema: ObjectSchema, childPrefix: string, docs?: Docs): void {
    this.declareWith(name, docs ?? schemaDocs(schema), () => {
      const properties = schema.properties.map((p) => this.property(p, childPrefix));
      return { properties, indexSignatures: this.indexSignatures(name, schema, properties) };
    });
  }

  /** Declares interface `name` before any declaration its members add. */
  declareWith(
    name: string,
    docs: Docs,
    members: () => Pick<InterfaceDeclarationStructure, "properties" | "indexSignatures">,
  ): void {
    const outer = this.collected;
    this.collected = [];
    try {
      const made = members();
      // Made after its members, listed before the declarations they added.
      outer.push({ kind: StructureKind.Interface, name, isExported: true, docs, ...made }, ...this.collected);
    } finally {
      this.collected = outer;
    }
  }

  declareAlias(name: string, type: string, docs: Docs): void {
    this.collected.push({ kind: StructureKind.TypeAlias, name, isExported: true, type, docs });
  }

  /**
   * The type of `schema`; an object gets an interface named after `baseName`
   * (made unique), documented as "the type of `about`" when the schema has no description.
   */
  typeOf(schema: Schema, baseName: string, about: string): string {
    return withNull(this.nonNullType(schema, baseName, about), schema.nullable);
  }

  property(property: Property, childPrefix: string): OptionalKind<PropertySignatureStructure> {
    const base = joinedTypeName(childPrefix, typeName(property.name, "Field"));
    return {
      name: propertyKey(property.name),
      hasQuestionToken: !property.required,
      type: toleratingInherited(
        property.name,
        property.required,
        this.typeOf(property.schema, base, `\`${property.name}\``),
      ),
      docs: schemaDocs(property.schema),
    };
  }

  private nonNullType(schema: Schema, baseName: string, about: string): string {
    switch (schema.kind) {
      case "string":
        return schema.enum ? union(schema.enum.map(codeStringLiteral)) : "string";
      case "number":
        return schema.enum ? union(schema.enum.map(numberLiteral)) : "number";
      case "boolean":
        return schema.enum ? union(schema.enum.map(String)) : "boolean";
      case "file":
        this.usesFileInput = true;
        return "FileInput";
      case "array":
        return arrayType(
          this.typeOf(schema.items, singularTypeName(baseName), `an element of ${about}`),
          needsParentheses(schema.items),
          schema.minItems ?? 0,
          schema.maxItems,
        );
      case "object": {
        const name = this.names.claim(baseName);
        this.declareInterface(name, schema, name, schemaDocsOr(schema, `The type of ${about}.`));
        return name;
      }
    }
  }

  /**
   * `additionalProperties: true` or a schema: an index signature. Declared
   * properties must fit the index type, so their types join the union.
   * A closed object without properties gets `never` values: an empty
   * interface would accept any value but null and undefined (`input: 5`).
   */
  indexSignatures(
    name: string,
    schema: ObjectSchema,
    properties: readonly OptionalKind<PropertySignatureStructure>[],
  ): OptionalKind<IndexSignatureDeclarationStructure>[] {
    const extra = schema.additionalProperties;
    if (extra === false)
      return properties.length === 0 ? [{ keyName: "key", keyType: "string", returnType: "never" }] : [];
    if (extra === true) return [{ keyName: "key", keyType: "string", returnType: "unknown" }];
    const types = [this.typeOf(extra, `${name}Value`, `an extra key of ${name}`)];
    for (const p of properties) types.push(String(p.type));
    if (properties.some((p) => p.hasQuestionToken)) types.push("undefined");
    return [{ keyName: "key", keyType: "string", returnType: union([...new Set(types)]) }];
  }
}

/** The members TypeScript's `Object` interface declares: every object literal has them, inherited. */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set([
  "constructor",
  "toString",
  "toLocaleString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
]);

/**
 * An optional property named like a member of `Object` (`constructor`,
 * `toString`, ...): TypeScript checks a literal that leaves it out against
 * the inherited member (`Function`, `() => string`), so without the
 * inherited type in the union no call could leave it out. The runtime reads
 * own properties only, so the inherited member is never sent.
 */
export function toleratingInherited(name: string, required: boolean, type: string): string {
  return required || !OBJECT_MEMBERS.has(name) ? type : `${type} | Object[${codeStringLiteral(name)}]`;
}

function schemaDocsOr(schema: Schema, fallback: string): Docs {
  const own = schemaDocs(schema);
  return schema.description ? own : schemaDocs(schema, fallback);
}

function union(members: readonly string[]): string {
  return members.length === 0 ? "never" : members.join(" | ");
}

function withNull(type: string, nullable: boolean): string {
  return nullable ? `${type} | null` : type;
}

/** Bounds up to this many elements are spelled out as tuples; beyond, the validator and the docs carry them. */
const MAX_TUPLE_LENGTH = 8;
/**
 * An element type longer than this (a long enum union) is written once more
 * at most: spelling it out per tuple position would repeat it dozens of times.
 */
const MAX_REPEATED_TYPE_LENGTH = 80;

/**
 * An array type honouring minItems and maxItems: a union of tuples when
 * maxItems is small (`[] | [T] | [T, T]`), else a tuple with minItems leading
 * elements and a rest (`[T, ...T[]]`: required arrays have at least one).
 */
function arrayType(item: string, parenthesized: boolean, minItems: number, maxItems: number | undefined): string {
  const short = item.length <= MAX_REPEATED_TYPE_LENGTH;
  if (short && maxItems !== undefined && maxItems <= MAX_TUPLE_LENGTH) {
    const lengths = Array.from({ length: maxItems - minItems + 1 }, (_, index) => minItems + index);
    return union(lengths.map((length) => `[${Array.from({ length }, () => item).join(", ")}]`));
  }
  const lead = Math.min(minItems, short ? MAX_TUPLE_LENGTH : 1);
  if (lead === 0) return arrayOf(item, parenthesized);
  return `[${[...Array.from({ length: lead }, () => item), `...${arrayOf(item, parenthesized)}`].join(", ")}]`;
}

/** Parentheses only where an element type needs them, as prettier writes it (`"a"[]`, `(A | B)[]`). */
function arrayOf(item: string, parenthesized: boolean): string {
  return parenthesized ? `(${item})[]` : `${item}[]`;
}

/**
 * A union, or a lone negative number: `-1[]` is valid TypeScript, but
 * prettier's parser (babel-ts) refuses it, so it stays `(-1)[]`.
 */
function needsParentheses(schema: Schema): boolean {
  if (schema.nullable) return true;
  if (schema.kind === "number" && schema.enum?.length === 1) return (schema.enum[0] ?? 0) < 0;
  return (
    (schema.kind === "string" || schema.kind === "number" || schema.kind === "boolean") &&
    (schema.enum?.length ?? 0) > 1
  );
}
