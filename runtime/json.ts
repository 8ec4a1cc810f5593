/**
 * Reading parsed JSON (or YAML): the object check, JSON Pointer (RFC 6901)
 * tokens, in which `~` and `/` in a key are written `~0` and `~1`, and the
 * value a pointer's tokens lead to. The one implementation for the runtime
 * (bodies, validation issues), the generator (the model, error pointers,
 * `$ref`s, config errors), the emulator and @flowsmith/redis, which import it
 * as `@flowsmith/runtime/internal/json`: this module alone, loading nothing else.
 */

/** A plain object (not null, not an array): JSON's object, a YAML mapping. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `a/b~c` → `a~1b~0c`. */
export function escapePointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The keys of a pointer (`/a~1b/0` → `["a/b", "0"]`; `""` → `[]`), unescaped. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  // Order matters: "~01" is "~1" literally, not "/".
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * The value the tokens lead to in parsed JSON (`pointerTokens`): an array
 * index is a canonical decimal, an object key an own property (never one of
 * Object's members: `constructor` in a pointer is a key of the document).
 * Undefined when there is none.
 */
export function valueAtTokens(document: unknown, tokens: readonly string[]): unknown {
  let node = document;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isRecord(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}
