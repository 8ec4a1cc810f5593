/**
 * The fast way to read a description (yaml-source.ts): js-yaml, which makes
 * plain values directly, where the yaml package builds a tree of nodes with
 * their positions first. A second reader, kept because removing it costs
 * more than the house allows (bench/analysis.md, "Fast paths"). Taken only
 * where both read a document alike: js-yaml with YAML 1.2's core schema as
 * the yaml package resolves it (the regular expressions below are that
 * package's), and only for documents without the constructs where the two
 * differ or that need the yaml package's care (anchors and aliases, tags,
 * directives, tabs, explicit or collection keys, null keys, `__proto__`).
 * JSON (snapshots, descriptions.json) is YAML 1.2 and takes the same way.
 * Anything else, and anything js-yaml refuses (duplicate keys, syntax
 * errors, depth), is undefined here: yaml-source.ts reads it with the yaml
 * package as before, so its messages and lines are unchanged.
 * test/generator/plain-yaml.test.ts compares the two on every description
 * in the repository.
 */
import { FAILSAFE_SCHEMA, load, Type } from "js-yaml";

/** The document's value, or undefined when the yaml package must read it. */
export function plainYamlOrUndefined(text: string): { readonly value: unknown } | undefined {
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

/**
 * Where the two may differ: `&`, `*` or `!` starting a node (anchors,
 * aliases, tags), `?` keys, `%` directives, `<<`, tabs, `__proto__`, a flow
 * collection as a key (a line starting with one and a `]:` or `}:` on it, or
 * one inside a flow collection), a line over 1024 characters (the yaml
 * package refuses such keys). Text that matches without being one of these
 * (`*emphasis*` after a space) only sends its document the slow way.
 */
const NOT_PLAIN =
  /(?:^|[\s[{,])[&*!?]|^%|<<|\t|__proto__|^[ ]*(?:- +)*[[{].*[\]}][ ]*:(?:\s|$)|[[{,][ ]*[[{]|^.{1025}/m;

/** A key the yaml package reads as null (`~:`, `null:`, `: x`) is "" there and "null" in js-yaml; one quoted as "null" is "null" in both. */
function hasNullishKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasNullishKey);
  if (value === null || typeof value !== "object") return false;
  for (const key of Object.keys(value)) {
    // Every key is checked, and most are longer than any null: the length answers first.
    if ((key.length <= 4 && NULL.test(key)) || hasNullishKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

const NULL = /^(?:~|[Nn]ull|NULL)?$/;

/** YAML 1.2's core schema with the yaml package's expressions and values (node_modules/yaml/dist/schema). */
const CORE_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [
    new Type("tag:yaml.org,2002:null", {
      kind: "scalar",
      resolve: (data: string) => NULL.test(data),
      construct: () => null,
    }),
    new Type("tag:yaml.org,2002:bool", {
      kind: "scalar",
      resolve: (data: string) => /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(data),
      construct: (data: string) => data[0] === "t" || data[0] === "T",
    }),
    new Type("tag:yaml.org,2002:int", {
      kind: "scalar",
      resolve: (data: string) => /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/.test(data),
      construct: (data: string) =>
        data.startsWith("0o")
          ? parseInt(data.slice(2), 8)
          : data.startsWith("0x")
            ? parseInt(data.slice(2), 16)
            : parseInt(data, 10),
    }),
    new Type("tag:yaml.org,2002:float", {
      kind: "scalar",
      resolve: (data: string) =>
        /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/.test(
          data,
        ),
      construct: (data: string) =>
        data.slice(-3).toLowerCase() === "nan"
          ? NaN
          : /inf$/i.test(data)
            ? data.startsWith("-")
              ? -Infinity
              : Infinity
            : parseFloat(data),
    }),
  ],
});
