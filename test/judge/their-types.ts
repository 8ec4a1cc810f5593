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
  if (typeof worker !== "function")
    throw new Error("their-types.ts: run with test/support/jest-environment.js (jest.config.js testEnvironment)");
  const api = await worker().loadOpenapiTypescript();
  const standIns = renameUnreadable(document);
  let text = api.astToString(await api.default(document, THEIR_OPTIONS));
  for (const [standIn, name] of standIns) text = text.replaceAll(standIn, stringLiteral(name));
  return text;
}

/**
 * Property names openapi-typescript 7.13 cannot read:
 * - those of Object.prototype's methods that its reader (@redocly/openapi-core
 *   1.34) finds when it looks a name up in a plain object, and calls
 *   ("Cannot convert undefined or null to object"); `constructor`,
 *   `toString` and `__proto__` read fine;
 * - a name with a `%` that is not an escape (`50%`, `%zz`): it makes a JSON
 *   pointer of each name and decodes it (decodeURIComponent, "URI malformed").
 * The judge hands such names over as stand-ins (identifiers no document
 * holds) and puts the names back into the module it gets.
 */
const METHODS = new Set([
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "valueOf",
]);

function isUnreadable(name: string): boolean {
  if (METHODS.has(name)) return true;
  try {
    decodeURIComponent(name);
    return false;
  } catch {
    return true;
  }
}

/** Renames the unreadable keys of every `properties` object (and their `required` entries); stand-in → name. */
function renameUnreadable(document: unknown): Map<string, string> {
  const standIns = new Map<string, string>();
  const byName = new Map<string, string>();
  const standIn = (name: string): string => {
    let found = byName.get(name);
    if (found === undefined) {
      // Ends in `_`: no stand-in is the start of another.
      found = `flowsmithJudgeStandIn_${String(byName.size)}_`;
      byName.set(name, found);
      standIns.set(found, name);
    }
    return found;
  };
  const rename = (name: string): string => (isUnreadable(name) ? standIn(name) : name);
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    const record = node as Record<string, unknown>;
    const properties = record["properties"];
    if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
      record["properties"] = Object.fromEntries(
        Object.entries(properties).map(([name, schema]) => [rename(name), schema]),
      );
      if (Array.isArray(record["required"]))
        record["required"] = record["required"].map((name: unknown) =>
          typeof name === "string" ? rename(name) : name,
        );
    }
    Object.values(record).forEach(visit);
  };
  visit(document);
  return standIns;
}

/** `text` as a TypeScript string literal, ASCII only. */
function stringLiteral(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
