/**
 * The multipart form, part by part: the names our runtime sends for a
 * request with every field present (each array with one element) against
 * openapi-typescript's property keys, and each part's value type.
 *
 * A part is sent under the name the document declares, or, below a declared
 * `type: array` or `type: object` property, under a name derived from it
 * (`<declared>[0][field]`; docs/flow-descriptions.md): such a part counts
 * for the declared property, whose whole value type is compared.
 */
import ts from "typescript";
import { toFlowSpec } from "../../generator/emit/flow-spec.js";
import type { FlowModel } from "../../generator/model/types.js";
import { collectPartsOrThrow } from "../../runtime/multipart.js";
import type { FieldSpec } from "../../runtime/flow-spec.js";
import { compareTypes, propertyPath, type Disagreement } from "./compare-types.js";

type Step = { readonly property: string } | "element";

export interface SentPart {
  readonly name: string;
  /** Where its value sits in the request. */
  readonly path: readonly Step[];
}

/** Every part the runtime sends for a request with every field present, in order. */
export function sentParts(model: FlowModel): SentPart[] {
  // A flow with both forms and no file is sent as JSON; these are the parts it would have as multipart.
  const fields = toFlowSpec({ ...model, bodyForm: "multipart" }).fields;
  if (!fields) throw new Error(`${model.name}: a multipart flow's spec has fields`);
  const leaves: Step[][] = [];
  const request = fullValue(fields, [], leaves);
  const parts = collectPartsOrThrow(request, fields);
  if (parts.length !== leaves.length)
    throw new Error(`${model.name}: ${String(parts.length)} parts sent for ${String(leaves.length)} leaves`);
  return parts.map((part, index) => ({ name: part.name, path: leaves[index] ?? [] }));
}

/** A value for every field of `spec`, with the path of each leaf in walk order (the runtime's order). */
function fullValue(spec: FieldSpec, path: readonly Step[], leaves: Step[][]): unknown {
  switch (spec.kind) {
    case "object": {
      const out: Record<string, unknown> = {};
      // defineProperty: a field named `__proto__` is an own key like any other.
      for (const property of spec.properties) {
        Object.defineProperty(out, property.name, {
          value: fullValue(property.spec, [...path, { property: property.name }], leaves),
          enumerable: true,
        });
      }
      return out;
    }
    case "array":
      return [fullValue(spec.items, [...path, "element"], leaves)];
    case "value":
      leaves.push([...path]);
      return "v";
    case "file":
      leaves.push([...path]);
      return new Uint8Array([1]);
  }
}

export interface OurRequest {
  /** Ours in the frame of the form (adapters.ts OursInFrame): where to compare. */
  readonly framed: ts.Type;
  /** Ours whole: a part missing only from `framed` is one the frame leaves out. */
  readonly whole: ts.Type;
}

export function formDisagreements(
  checker: ts.TypeChecker,
  ours: OurRequest,
  theirs: ts.Type,
  parts: readonly SentPart[],
  enclosing?: ts.Node,
): Disagreement[] {
  const declared = new Map(checker.getPropertiesOfType(theirs).map((symbol) => [symbol.name, symbol]));
  const show = (type: ts.Type): string => checker.typeToString(type, enclosing, ts.TypeFormatFlags.NoTruncation);
  const found: Disagreement[] = [];
  const matched = new Map<string, { path: readonly Step[]; at: Resolved }>();
  for (const part of parts) {
    const at = resolve(checker, ours.framed, part.path);
    if (!at) {
      if (!resolve(checker, ours.whole, part.path))
        found.push({
          path: `part ${JSON.stringify(part.name)}`,
          what: "sent, but not in our request type",
          ours: readable(part.path),
          theirs: "(not compared)",
        });
      continue;
    }
    const key = declaredKey(part, declared);
    if (!key) {
      found.push({
        path: `part ${JSON.stringify(part.name)}`,
        what: "only ours sends this part",
        ours: show(at.type),
        theirs: "(no property)",
      });
      continue;
    }
    if (!matched.has(key.name)) {
      const path = part.path.slice(0, part.path.length - key.derivedSteps);
      const owner = resolve(checker, ours.framed, path);
      if (owner) matched.set(key.name, { path, at: owner });
    }
  }
  for (const [name, symbol] of declared) {
    const mine = matched.get(name);
    const where = `part ${JSON.stringify(name)}`;
    const type = checker.getTypeOfSymbol(symbol);
    if (!mine) {
      found.push({ path: where, what: "only theirs has this part", ours: "(not sent)", theirs: show(type) });
      continue;
    }
    const theirsOptional = (symbol.flags & ts.SymbolFlags.Optional) !== 0;
    if (mine.at.optional !== theirsOptional) {
      found.push({
        path: where,
        what: mine.at.optional ? "optional in ours, required in theirs" : "required in ours, optional in theirs",
        ours: `${readable(mine.path)}: ${show(mine.at.type)}`,
        theirs: show(type),
      });
    }
    found.push(...compareTypes(checker, mine.at.type, type, where, { defined: true, enclosing }));
  }
  return found;
}

interface Resolved {
  readonly type: ts.Type;
  /** Whether a property on the way is optional. */
  readonly optional: boolean;
}

function resolve(checker: ts.TypeChecker, root: ts.Type, path: readonly Step[]): Resolved | undefined {
  let type = root;
  let optional = false;
  for (const step of path) {
    const members = (type.isUnion() ? type.types : [type]).filter(
      (member) => !(member.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)),
    );
    let next: ts.Type | undefined;
    for (const member of members) {
      if (step === "element") {
        if (checker.isArrayType(member)) next = checker.getTypeArguments(member as ts.TypeReference)[0];
      } else {
        const property = checker.getPropertyOfType(member, step.property);
        if (property) {
          next = checker.getTypeOfSymbol(property);
          optional ||= (property.flags & ts.SymbolFlags.Optional) !== 0;
        }
      }
      if (next) break;
    }
    if (!next) return undefined;
    type = next;
  }
  return { type, optional };
}

/**
 * The declared property a sent part belongs to: its own name, or the
 * longest declared name it is derived from (`<declared>[0]`, `<declared>[field]`),
 * with the number of steps the derived suffix takes.
 */
function declaredKey(
  part: SentPart,
  declared: ReadonlyMap<string, ts.Symbol>,
): { name: string; derivedSteps: number } | undefined {
  if (declared.has(part.name)) return { name: part.name, derivedSteps: 0 };
  const candidates = [...declared.keys()]
    .filter((name) => part.name.startsWith(`${name}[`))
    .sort((a, b) => b.length - a.length);
  for (const name of candidates) {
    let suffix = part.name.slice(name.length);
    let steps = 0;
    for (const step of [...part.path].reverse()) {
      const segment =
        step === "element"
          ? /\[\d+\]$/.exec(suffix)?.[0]
          : suffix.endsWith(`[${step.property}]`)
            ? `[${step.property}]`
            : undefined;
      if (segment === undefined) break;
      suffix = suffix.slice(0, suffix.length - segment.length);
      steps += 1;
      if (suffix === "") return { name, derivedSteps: steps };
    }
  }
  return undefined;
}

function readable(path: readonly Step[]): string {
  return path.reduce((at, step) => (step === "element" ? `${at}[]` : propertyPath(at, step.property)), "request");
}
