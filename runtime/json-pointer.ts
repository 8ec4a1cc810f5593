/**
 * JSON Pointer (RFC 6901) tokens: `~` and `/` in a key are written `~0` and
 * `~1`. The one implementation for the runtime (validation issues), the
 * generator (error pointers, `$ref`s, config errors) and the emulator.
 */

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
