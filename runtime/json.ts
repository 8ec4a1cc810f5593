/**
 * Reading parsed JSON (or YAML): the object check and JSON Pointer (RFC 6901)
 * tokens, in which `~` and `/` in a key are written `~0` and `~1`. The one
 * implementation for the runtime (bodies, validation issues), the generator
 * (the model, error pointers, `$ref`s, config errors) and the emulator; the
 * generator imports it as `@flowsmith/runtime/json`, which loads nothing else.
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
