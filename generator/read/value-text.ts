/**
 * A value from a description as an error message shows it: the way YAML or
 * JSON writes it (`.inf`, not `null`; `"a\u001b"`, never a raw control
 * character that a terminal would act on), cut short when long.
 */

/** Longer renderings are cut to this many characters, with `…` at the end. */
const MAX_LENGTH = 80;
/** Nested values are shown down to this depth, then as `[…]` / `{…}`; this many members each. */
const MAX_DEPTH = 3;
const MAX_MEMBERS = 8;

export function valueText(value: unknown): string {
  const text = render(value, 0);
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}

function render(value: unknown, depth: number): string {
  if (value === undefined) return "nothing";
  if (typeof value === "number") return numberText(value);
  if (typeof value === "string") return quoted(value);
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return "[…]";
    const items = value.slice(0, MAX_MEMBERS).map((item: unknown) => render(item, depth + 1));
    return `[${[...items, ...(value.length > MAX_MEMBERS ? ["…"] : [])].join(", ")}]`;
  }
  if (depth >= MAX_DEPTH) return "{…}";
  const keys = Object.keys(value);
  const members = keys
    .slice(0, MAX_MEMBERS)
    .map((key) => `${quoted(key)}: ${render((value as Record<string, unknown>)[key], depth + 1)}`);
  return `{${[...members, ...(keys.length > MAX_MEMBERS ? ["…"] : [])].join(", ")}}`;
}

/** JSON's quoting, plus the invisible characters that reorder or break a terminal line. */
function quoted(text: string): string {
  return JSON.stringify(text).replace(
    /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** YAML's spelling for the numbers JSON cannot write. */
function numberText(value: number): string {
  if (Number.isNaN(value)) return ".nan";
  if (value === Infinity) return ".inf";
  if (value === -Infinity) return "-.inf";
  return String(value);
}
