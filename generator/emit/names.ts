/**
 * Collision-free declaration names. Names are claimed in a fixed order (the
 * module's own names first, then the model in document order), so the same
 * model always gets the same names.
 */
export class NameAllocator {
  private readonly taken = new Set<string>();
  /** Per base, the suffix to try next: thousands of fields named alike cost no more than one each. */
  private readonly nextSuffix = new Map<string, number>();

  constructor(reserved: Iterable<string>) {
    for (const name of reserved) this.taken.add(name);
  }

  /** `base`, or the first free `base2`, `base3`, ... */
  claim(base: string): string {
    let name = base;
    let n = this.nextSuffix.get(base) ?? 2;
    if (this.taken.has(name)) {
      for (name = base + String(n); this.taken.has(name); name = base + String(n)) n += 1;
      n += 1;
    }
    this.nextSuffix.set(base, n);
    this.taken.add(name);
    return name;
  }
}

/**
 * Names a generated declaration must not take: the module's imports and own
 * bindings, and globals its code refers to (an interface named `Promise`
 * would shadow the global one in `createSession`'s return type).
 */
export const MODULE_BINDINGS: readonly string[] = [
  "createSessionFor",
  "createSessionWith",
  "Client",
  "FileInput",
  "FlowSpec",
  "RequestOptions",
  "RequestValidator",
  "validate",
  "validateResponse",
  "flow",
  "spec",
  "createSession",
  "Promise",
  "Array",
  "ReadonlyArray",
  "Object",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "BigInt",
  "Date",
  "Error",
  "Function",
  "Record",
  "Partial",
  "Required",
  "Readonly",
  "Pick",
  "Omit",
  "Exclude",
  "Extract",
  "NonNullable",
  "Blob",
  "File",
  "Uint8Array",
  "Buffer",
  "Map",
  "Set",
  "JSON",
  "Math",
];

/** English-ish singular of a PascalCase plural, or `<name>Item` when there is no obvious one. */
export function singularTypeName(plural: string): string {
  if (/[^aeiou]ies$/.test(plural)) return `${plural.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(plural)) return plural.slice(0, -2);
  if (/[^su]s$/.test(plural)) return plural.slice(0, -1);
  return `${plural}Item`;
}
