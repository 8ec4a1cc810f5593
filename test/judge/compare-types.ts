/**
 * Two types compared as the judge needs it: not only "each is assignable to
 * the other" (which lets an optional property that one side lacks pass
 * unseen), but member by member and property by property, so that a
 * disagreement names the path where it is and both types there. Unions are
 * compared member by member (an object or array paired with the member of
 * the other side it agrees with), arrays by their lengths and elements,
 * objects by their keys, optionality and index signatures. `readonly` is
 * not compared (adapters.ts says why).
 */
import ts from "typescript";

export interface Disagreement {
  /** Where, from the compared root: `request.input.basicIdentity.givenName`, `documents[]`, `extra[key]`. */
  readonly path: string;
  readonly what: string;
  readonly ours: string;
  readonly theirs: string;
}

export interface CompareOptions {
  /** Leave `undefined` out on both sides: an optional property's type, its optionality compared apart. */
  readonly defined?: boolean;
  /** Where the types are printed from: aliases not visible there (the adapters' inner ones) are spelled out. */
  readonly enclosing?: ts.Node;
}

/** Every disagreement between `ours` and `theirs`; `root` starts every path. */
export function compareTypes(
  checker: ts.TypeChecker,
  ours: ts.Type,
  theirs: ts.Type,
  root: string,
  options: CompareOptions = {},
): Disagreement[] {
  const walk = new Walk(checker, options.enclosing);
  walk.compare(ours, theirs, root, options.defined ?? false);
  if (walk.found.length === 0 && options.defined !== true) {
    // The walk reads what it knows of types; assignability has the last word on the rest.
    const forth = checker.isTypeAssignableTo(ours, theirs);
    const back = checker.isTypeAssignableTo(theirs, ours);
    if (!forth || !back)
      walk.report(root, forth ? "theirs is not assignable to ours" : "ours is not assignable to theirs", ours, theirs);
  }
  return walk.found;
}

type Kind = "leaf" | "array" | "object";

/** Compares one member of each side, into `walk`. */
type Pair = (walk: Walk, a: ts.Type, b: ts.Type, at: string) => void;

const PAIRS: readonly (readonly [Kind, Pair])[] = [
  [
    "array",
    (walk, a, b, at) => {
      walk.compareArrays(a, b, at);
    },
  ],
  [
    "object",
    (walk, a, b, at) => {
      walk.compareObjects(a, b, at);
    },
  ],
];

class Walk {
  readonly found: Disagreement[] = [];
  /** Pairs compared already (or being compared), without and with `defined`. */
  private readonly seen = [new Map<ts.Type, Set<ts.Type>>(), new Map<ts.Type, Set<ts.Type>>()] as const;

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly enclosing: ts.Node | undefined,
  ) {}

  report(path: string, what: string, ours: ts.Type | string, theirs: ts.Type | string): void {
    this.found.push({ path, what, ours: this.show(ours), theirs: this.show(theirs) });
  }

  /** `defined`: leave `undefined` out on both sides. */
  compare(ours: ts.Type, theirs: ts.Type, path: string, defined: boolean): void {
    if (ours === theirs) return;
    const seen = this.seen[defined ? 1 : 0];
    const partners = seen.get(ours) ?? new Set<ts.Type>();
    if (partners.has(theirs)) return;
    seen.set(ours, partners.add(theirs));
    const mine = this.sorted(ours, defined);
    const yours = this.sorted(theirs, defined);
    const onlyOurs = this.unmatchedLeaves(mine.leaf, yours.leaf);
    const onlyTheirs = this.unmatchedLeaves(yours.leaf, mine.leaf);
    for (const [kind, pair] of PAIRS) {
      const left = this.pairUp(mine[kind], yours[kind], pair);
      const [a] = left.mine;
      const [b] = left.yours;
      // One left on each side: compared, for the precise path of what they disagree on.
      if (a && b && left.mine.length === 1 && left.yours.length === 1) pair(this, a, b, path);
      else {
        onlyOurs.push(...left.mine);
        onlyTheirs.push(...left.yours);
      }
    }
    if (onlyOurs.length === 0 && onlyTheirs.length === 0) return;
    const what = [
      onlyOurs.length > 0 ? `only ours admits ${onlyOurs.map((t) => this.show(t)).join(" | ")}` : "",
      onlyTheirs.length > 0 ? `only theirs admits ${onlyTheirs.map((t) => this.show(t)).join(" | ")}` : "",
    ];
    this.report(path, what.filter(Boolean).join("; "), ours, theirs);
  }

  compareArrays(a: ts.Type, b: ts.Type, path: string): void {
    const shapes = [this.shape(a), this.shape(b)];
    if (shapes[0] !== shapes[1]) {
      this.report(path, `array lengths differ: ours ${String(shapes[0])}, theirs ${String(shapes[1])}`, a, b);
      return;
    }
    const yours = this.checker.getTypeArguments(b as ts.TypeReference);
    this.checker.getTypeArguments(a as ts.TypeReference).forEach((element, index) => {
      const other = yours[index];
      if (other)
        this.compare(element, other, this.checker.isTupleType(a) ? `${path}[${String(index)}]` : `${path}[]`, false);
    });
  }

  compareObjects(a: ts.Type, b: ts.Type, path: string): void {
    const mine = new Map(this.checker.getPropertiesOfType(a).map((p) => [p.name, p]));
    const yours = new Map(this.checker.getPropertiesOfType(b).map((p) => [p.name, p]));
    for (const [name, property] of mine) {
      const other = yours.get(name);
      const at = propertyPath(path, name);
      const type = this.checker.getTypeOfSymbol(property);
      if (!other) {
        this.report(at, "only ours has this property", type, "(absent)");
        continue;
      }
      const otherType = this.checker.getTypeOfSymbol(other);
      const optional = isOptional(property);
      if (optional !== isOptional(other)) {
        this.report(
          at,
          optional ? "optional in ours, required in theirs" : "required in ours, optional in theirs",
          type,
          otherType,
        );
      }
      this.compare(type, otherType, at, optional || isOptional(other));
    }
    for (const [name, property] of yours) {
      if (!mine.has(name))
        this.report(
          propertyPath(path, name),
          "only theirs has this property",
          "(absent)",
          this.checker.getTypeOfSymbol(property),
        );
    }
    const myIndex = this.stringIndex(a);
    const yourIndex = this.stringIndex(b);
    if (myIndex && yourIndex) this.compare(myIndex, yourIndex, `${path}[key]`, false);
    else if (myIndex || yourIndex)
      this.report(
        `${path}[key]`,
        `only ${myIndex ? "ours" : "theirs"} has an index signature`,
        myIndex ?? "(none)",
        yourIndex ?? "(none)",
      );
  }

  /**
   * null, undefined, primitives, literals, functions, unknown of `a` with no
   * equal in `b`. `any` (a type that did not compile, too) equals only `any`:
   * assignable both ways to everything, it would agree with anything.
   */
  private unmatchedLeaves(a: readonly ts.Type[], b: readonly ts.Type[]): ts.Type[] {
    const any = (x: ts.Type): boolean => (x.flags & ts.TypeFlags.Any) !== 0;
    const same = (x: ts.Type, y: ts.Type): boolean =>
      x === y || (any(x) === any(y) && this.checker.isTypeAssignableTo(x, y) && this.checker.isTypeAssignableTo(y, x));
    return a.filter((member) => !b.some((other) => same(member, other)));
  }

  /**
   * The objects (or arrays) of two unions, each with a member of the other
   * side it agrees with (a union may hold two alike, the other side one):
   * those that have none.
   */
  private pairUp(
    mine: readonly ts.Type[],
    yours: readonly ts.Type[],
    pair: Pair,
  ): { mine: ts.Type[]; yours: ts.Type[] } {
    if (mine.length <= 1 && yours.length <= 1) return { mine: [...mine], yours: [...yours] };
    const agree = (a: ts.Type, b: ts.Type): boolean => {
      const trial = new Walk(this.checker, this.enclosing);
      pair(trial, a, b, "");
      return trial.found.length === 0;
    };
    return {
      mine: mine.filter((member) => !yours.some((other) => agree(member, other))),
      yours: yours.filter((member) => !mine.some((other) => agree(other, member))),
    };
  }

  private stringIndex(type: ts.Type): ts.Type | undefined {
    return this.checker.getIndexInfosOfType(type).find((info) => info.keyType.flags & ts.TypeFlags.String)?.type;
  }

  private sorted(type: ts.Type, defined: boolean): Record<Kind, ts.Type[]> {
    const out: Record<Kind, ts.Type[]> = { leaf: [], array: [], object: [] };
    for (const member of type.isUnion() ? type.types : [type]) {
      if (!(defined && member.flags & ts.TypeFlags.Undefined)) out[this.kindOf(member)].push(member);
    }
    return out;
  }

  private kindOf(type: ts.Type): Kind {
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) return "array";
    const structured = (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0;
    // A function (an inherited member of Object, adapters.ts) compares as a whole, as a primitive does.
    return structured && this.checker.getSignaturesOfType(type, ts.SignatureKind.Call).length === 0 ? "object" : "leaf";
  }

  /** `T[]`, or a tuple's required, optional and rest elements: `[2]`, `[0-2]`, `[1, ...]`. */
  private shape(type: ts.Type): string {
    if (!this.checker.isTupleType(type)) return "T[]";
    const tuple = (type as ts.TypeReference).target as ts.TupleType;
    const rest = tuple.combinedFlags & ts.ElementFlags.Variable ? ", ..." : "";
    return `[${String(tuple.minLength)}${tuple.fixedLength !== tuple.minLength ? `-${String(tuple.fixedLength)}` : ""}${rest}]`;
  }

  private show(type: ts.Type | string): string {
    return typeof type === "string"
      ? type
      : this.checker.typeToString(type, this.enclosing, ts.TypeFormatFlags.NoTruncation);
  }
}

function isOptional(symbol: ts.Symbol): boolean {
  return (symbol.flags & ts.SymbolFlags.Optional) !== 0;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `at.name`, or `at["odd name"]`. */
export function propertyPath(at: string, name: string): string {
  return IDENTIFIER.test(name) ? `${at}.${name}` : `${at}[${JSON.stringify(name)}]`;
}
