/**
 * Multipart part names, read back into the request's nested (JSON) shape.
 *
 * The flow model gives each leaf its exact part name (docs/flow-descriptions.md):
 * a declared `[]` segment groups parts into array elements by order (a new
 * element starts when a field of the current element repeats), and an index
 * segment carries the element index on the wire (`...[documents][0][source]`).
 * Leaves without a declared name (JSON-only flows) answer to the bracket name
 * of their path, in both array styles.
 */
import type { ObjectSchema, PartName, Schema } from "../generator/index.js";
import { badRequest } from "./errors.js";

export type LeafSchema = Exclude<Schema, { kind: "object" } | { kind: "array" }>;

type Step = { readonly kind: "key"; readonly name: string } | { readonly kind: "array"; readonly ordinal: number };

interface LeafRoute {
  readonly schema: LeafSchema;
  readonly steps: readonly Step[];
  /** Per array on the path (outermost first): the capture group holding its index, or undefined for `[]`. */
  readonly indexGroups: readonly (number | undefined)[];
}

export interface ResolvedPart {
  readonly name: string;
  readonly route: LeafRoute;
  /** Per array on the path: the index written in the name, or undefined for `[]`. */
  readonly indices: readonly (number | undefined)[];
}

/** Indices above this are refused before anything is allocated for them. */
const INDEX_PATTERN = "(0|[1-9][0-9]{0,5})";

export class PartTable {
  private readonly exact = new Map<string, LeafRoute>();
  private readonly patterns: { readonly regex: RegExp; readonly route: LeafRoute }[] = [];

  constructor(request: ObjectSchema) {
    this.walk(request, []);
  }

  resolve(name: string): ResolvedPart | undefined {
    const exact = this.exact.get(name);
    if (exact) return { name, route: exact, indices: exact.indexGroups.map(() => undefined) };
    for (const { regex, route } of this.patterns) {
      const match = regex.exec(name);
      if (match)
        return {
          name,
          route,
          indices: route.indexGroups.map((group) => (group === undefined ? undefined : Number(match[group]))),
        };
    }
    return undefined;
  }

  private walk(schema: Schema, steps: Step[]): void {
    switch (schema.kind) {
      case "object":
        for (const property of schema.properties)
          this.walk(property.schema, [...steps, { kind: "key", name: property.name }]);
        return;
      case "array":
        this.walk(schema.items, [
          ...steps,
          { kind: "array", ordinal: steps.filter((step) => step.kind === "array").length },
        ]);
        return;
      default: {
        const names = schema.part ? [schema.part] : derivedNames(steps);
        for (const name of names) this.add(name, schema, steps);
      }
    }
  }

  private add(name: PartName, schema: LeafSchema, steps: readonly Step[]): void {
    const arrayCount = steps.filter((step) => step.kind === "array").length;
    const indexGroups: (number | undefined)[] = new Array<number | undefined>(arrayCount).fill(undefined);
    let source = "";
    let literal = "";
    let group = 0;
    for (const segment of name) {
      if (typeof segment === "string") {
        source += escapeRegExp(segment);
        literal += segment;
      } else {
        source += INDEX_PATTERN;
        indexGroups[segment.index] = ++group;
      }
    }
    const route: LeafRoute = { schema, steps, indexGroups };
    if (group === 0) this.exact.set(literal, route);
    else this.patterns.push({ regex: new RegExp(`^${source}$`), route });
  }
}

/** The request being rebuilt from parts, in arrival order. */
export class RequestAssembler {
  readonly body: Record<string, unknown> = {};
  private readonly groups = new Map<string, { index: number; seen: Set<string> }>();

  placeOrThrow(part: ResolvedPart, value: unknown): void {
    const { steps } = part.route;
    let container: Record<string, unknown> | unknown[] = this.body;
    let at = "";
    steps.forEach((step, position) => {
      const last = position === steps.length - 1;
      const key =
        step.kind === "key" ? step.name : this.indexOrThrow(part, step.ordinal, at, position, container as unknown[]);
      at += `/${String(key)}`;
      const existing = ownValue(container, key);
      if (last) {
        if (existing !== undefined)
          throw badRequest("DUPLICATE_PART", `part "${part.name}" is sent more than once for ${at}`);
        setOwn(container, key, value);
        return;
      }
      if (existing !== undefined) {
        container = existing as Record<string, unknown> | unknown[];
        return;
      }
      const child: Record<string, unknown> | unknown[] = steps[position + 1]?.kind === "array" ? [] : {};
      setOwn(container, key, child);
      container = child;
    });
  }

  private indexOrThrow(part: ResolvedPart, ordinal: number, at: string, position: number, array: unknown[]): number {
    const written = part.indices[ordinal];
    if (written !== undefined) {
      if (written > array.length) {
        throw badRequest(
          "MALFORMED_BODY",
          `part "${part.name}": index ${written} skips elements (${at} has ${array.length} so far); send elements in order from 0`,
        );
      }
      return written;
    }
    return this.groupedIndex(part, at, position);
  }

  /** `[]`: the element continues until one of its fields repeats. */
  private groupedIndex(part: ResolvedPart, at: string, position: number): number {
    const rest = part.route.steps.slice(position + 1);
    const field = rest.map((step) => (step.kind === "key" ? step.name : "[]")).join("/");
    // A nested `[]` repeats its fields on purpose, so it never starts an outer element.
    const nested = rest.some((step) => step.kind === "array" && part.indices[step.ordinal] === undefined);
    const group = this.groups.get(at) ?? { index: -1, seen: new Set<string>() };
    if (group.index === -1 || (!nested && group.seen.has(field))) {
      group.index += 1;
      group.seen = new Set();
    }
    group.seen.add(field);
    this.groups.set(at, group);
    return group.index;
  }
}

/** Bracket names of a path (first key bare, the rest in brackets), with `[]` and with indices. */
function derivedNames(steps: readonly Step[]): PartName[] {
  const grouped: string[] = [];
  const indexed: (string | { index: number })[] = [];
  steps.forEach((step, position) => {
    const text = step.kind === "key" ? (position === 0 ? step.name : `[${step.name}]`) : "[]";
    grouped.push(text);
    if (step.kind === "key") indexed.push(text);
    else indexed.push("[", { index: step.ordinal }, "]");
  });
  const names: PartName[] = [[grouped.join("")]];
  if (steps.some((step) => step.kind === "array")) names.push(indexed);
  return names;
}

function ownValue(container: Record<string, unknown> | unknown[], key: string | number): unknown {
  return Object.prototype.hasOwnProperty.call(container, key) ? (container as Record<string, unknown>)[key] : undefined;
}

function setOwn(container: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  // defineProperty: a property named "__proto__" must stay a plain key.
  Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
