/**
 * openapi-typescript's reading of a description: its Node API in this jest
 * worker (openapiTS, then astToString), on the document as parsed here, not
 * as the generator reads it.
 */

interface OpenapiTypescript {
  default(schema: unknown, options: Record<string, unknown>): Promise<unknown>;
  astToString(ast: unknown): string;
}

interface Worker {
  loadOpenapiTypescript(): Promise<OpenapiTypescript>;
}

/**
 * openapi-typescript's options where it has one for a reading we share.
 * defaultNonNullable: by default a property with a `default` is required
 * (outside request bodies, so in the response), as if the service always
 * filled it in; the service promises no such thing, and a `default` is a
 * value the receiver assumes when the field is absent.
 * The rest are its defaults, said here so the judge does not move when they
 * do: arrayLength off (see adapters.ts, Lengths), and no TypeScript enums,
 * readonly or index signatures of its own making.
 */
const THEIR_OPTIONS = {
  defaultNonNullable: false,
  arrayLength: false,
  additionalProperties: false,
  emptyObjectsUnknown: false,
  immutable: false,
  enum: false,
  silent: true,
} as const;

/** The module openapi-typescript writes for `document` (a parsed description; renamed in place, see below). */
export async function theirTypesOf(document: unknown): Promise<string> {
  const worker = (globalThis as { __flowsmithWorker?: () => Worker }).__flowsmithWorker;
  if (typeof worker !== "function") throw new Error("their-types.ts: run with test/support/jest-environment.js (jest.config.js testEnvironment)");
  const api = await worker().loadOpenapiTypescript();
  const renamed = renameUnreadable(document);
  let text = api.astToString(await api.default(document, THEIR_OPTIONS));
  for (const [stand, name] of renamed) text = text.replaceAll(stand, JSON.stringify(name));
  return text;
}

/**
 * Property names openapi-typescript 7.13 cannot read: its reader
 * (@redocly/openapi-core 1.34) looks each name up in a plain object, finds
 * Object.prototype's method of that name and calls it ("Cannot convert
 * undefined or null to object"). `constructor`, `toString` and `__proto__`
 * read fine. The judge hands these names over as stand-ins (identifiers no
 * document holds) and puts the names back into the module it gets.
 */
const UNREADABLE = new Set([
  "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
  "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "valueOf",
]);

/** Renames the unreadable keys of every `properties` object (and their `required` entries); stand-in → name. */
function renameUnreadable(document: unknown): Map<string, string> {
  const renamed = new Map<string, string>();
  const standIn = (name: string): string => `flowsmithJudgeStandIn${String([...UNREADABLE].indexOf(name))}`;
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    const record = node as Record<string, unknown>;
    const properties = record["properties"];
    if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
      const entries = Object.entries(properties).map(([name, schema]): [string, unknown] => {
        if (!UNREADABLE.has(name)) return [name, schema];
        renamed.set(standIn(name), name);
        return [standIn(name), schema];
      });
      record["properties"] = Object.fromEntries(entries);
      if (Array.isArray(record["required"])) record["required"] = record["required"].map((name: unknown) => (typeof name === "string" && UNREADABLE.has(name) ? standIn(name) : name));
    }
    Object.values(record).forEach(visit);
  };
  visit(document);
  return renamed;
}
