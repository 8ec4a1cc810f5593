/**
 * JSON pointers (RFC 6901) in the `#/a/b` form used in every error message.
 * Pointers we build are not percent-encoded, so a key like
 * `input[basicIdentity][givenName]` reads in a message exactly as in the file.
 */

export function appendPointer(pointer: string, ...keys: readonly (string | number)[]): string {
  return keys.reduce<string>((out, key) => `${out}/${escapeSegment(String(key))}`, pointer);
}

/** The keys of a `#/a/b` pointer, unescaped (no percent-decoding: see refs.ts for `$ref` values). */
export function pointerKeys(pointer: string): readonly string[] {
  const body = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (body === "") return [];
  return body.slice(1).split("/").map(unescapeSegment);
}

export function escapeSegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapeSegment(segment: string): string {
  // Order matters: "~01" is "~1" literally, not "/".
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
