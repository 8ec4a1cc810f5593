/**
 * The fast way to read a description (yaml-source.ts): js-yaml, which makes
 * plain values directly, faster than the yaml package, which builds a tree
 * of nodes with their positions first (what that saves: bench/analysis.md,
 * "One path per job"). Taken only where both read a document alike: js-yaml
 * with YAML 1.2's core schema as the yaml package resolves it (the regular
 * expressions below are that package's), and only for documents without
 * the constructs where the two differ or that need the yaml package's care
 * (anchors and aliases, tags, directives, tabs, explicit or collection keys,
 * null keys, `__proto__`). Anything else, and anything js-yaml refuses
 * (duplicate keys, syntax errors, depth), is undefined here: yaml-source.ts
 * reads it with the yaml package as before, so its messages and lines are
 * unchanged. test/generator/plain-yaml.test.ts compares the two on every
 * description in the repository.
 */
import { FAILSAFE_SCHEMA, load, Type } from "js-yaml";

/** The document's value, or undefined when the yaml package must read it. */
export function plainYamlOrUndefined(text: string): { readonly value: unknown } | undefined {
  if (JSON_START.test(text)) {
    const json = plainJsonOrUndefined(text);
    if (json) return json;
  }
  if (NOT_PLAIN.test(text)) return undefined;
  let value: unknown;
  try {
    value = load(text, { schema: CORE_SCHEMA });
  } catch {
    return undefined;
  }
  // An empty document is null to the yaml package, undefined to js-yaml; and keys it reads differently.
  if (value === undefined || hasNullishKey(value)) return undefined;
  return { value };
}

const JSON_START = /^[ \t\r\n]*[[{]/;

/**
 * A JSON document (as the service sends descriptions, and snapshots keep
 * them) by JSON.parse, which reads valid JSON to the values the yaml package
 * reads it to, text that js-yaml's path would decline included (a long line,
 * a `*` or `&` in a string). Except a duplicate key, which the yaml package
 * refuses and JSON.parse takes the last of: the keys written in the text
 * (each a string followed by a colon, which in valid JSON only a key is) must
 * all be in the value. A document nested deeper than MAX_DEPTH is left to the
 * yaml package too, as js-yaml leaves it.
 */
function plainJsonOrUndefined(text: string): { readonly value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const keys = keyCountOrUndefined(value, 0);
  return keys !== undefined && keys === keysWritten(text) ? { value } : undefined;
}

/**
 * The keys of a valid JSON text: its strings read whole, one after another
 * (a scan that could start inside a string would also take time quadratic in
 * the escaped quotes of a long one), each a key when a colon follows it.
 */
function keysWritten(text: string): number {
  let keys = 0;
  for (const token of text.matchAll(JSON_TOKEN)) if (token[1] !== undefined) keys += 1;
  return keys;
}

const JSON_TOKEN = /"(?:[^"\\]|\\.)*"([ \t\r\n]*:)?|[^"]+/g;
const MAX_DEPTH = 200;

function keyCountOrUndefined(value: unknown, depth: number): number | undefined {
  if (value === null || typeof value !== "object") return 0;
  if (depth > MAX_DEPTH) return undefined;
  const items: unknown[] = Array.isArray(value) ? value : Object.values(value);
  let count = Array.isArray(value) ? 0 : items.length;
  for (const item of items) {
    const inner = keyCountOrUndefined(item, depth + 1);
    if (inner === undefined) return undefined;
    count += inner;
  }
  return count;
}

/**
 * Where the two may differ: `&`, `*` or `!` starting a node (anchors,
 * aliases, tags), `?` keys, `%` directives, `<<`, tabs, `__proto__`, a flow
 * collection as a key (a line starting with one and a `]:` or `}:` on it, or
 * one inside a flow collection), a line over 1024 characters (the yaml
 * package refuses such keys). Text that matches without being one of these
 * (`*emphasis*` after a space) only sends its document the slow way.
 */
const NOT_PLAIN = /(?:^|[\s[{,])[&*!?]|^%|<<|\t|__proto__|^[ ]*(?:- +)*[[{].*[\]}][ ]*:(?:\s|$)|[[{,][ ]*[[{]|^.{1025}/m;

/** A key the yaml package reads as null (`~:`, `null:`, `: x`) is "" there and "null" in js-yaml; one quoted as "null" is "null" in both. */
function hasNullishKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasNullishKey);
  if (value === null || typeof value !== "object") return false;
  for (const [key, item] of Object.entries(value)) {
    if (NULL.test(key) || hasNullishKey(item)) return true;
  }
  return false;
}

const NULL = /^(?:~|[Nn]ull|NULL)?$/;

/** YAML 1.2's core schema with the yaml package's expressions and values (node_modules/yaml/dist/schema). */
const CORE_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [
    new Type("tag:yaml.org,2002:null", { kind: "scalar", resolve: (data: string) => NULL.test(data), construct: () => null }),
    new Type("tag:yaml.org,2002:bool", {
      kind: "scalar",
      resolve: (data: string) => /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(data),
      construct: (data: string) => data[0] === "t" || data[0] === "T",
    }),
    new Type("tag:yaml.org,2002:int", {
      kind: "scalar",
      resolve: (data: string) => /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/.test(data),
      construct: (data: string) =>
        data.startsWith("0o") ? parseInt(data.slice(2), 8) : data.startsWith("0x") ? parseInt(data.slice(2), 16) : parseInt(data, 10),
    }),
    new Type("tag:yaml.org,2002:float", {
      kind: "scalar",
      resolve: (data: string) =>
        /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/.test(data),
      construct: (data: string) =>
        data.slice(-3).toLowerCase() === "nan" ? NaN : /inf$/i.test(data) ? (data.startsWith("-") ? -Infinity : Infinity) : parseFloat(data),
    }),
  ],
});
