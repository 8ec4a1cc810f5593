/**
 * JSON pointers (RFC 6901) in the `#/a/b` form used in every error message.
 * Pointers we build are not percent-encoded, so a key like
 * `input[basicIdentity][givenName]` reads in a message exactly as in the file.
 * Tokens are escaped by the runtime's json.ts, the one implementation.
 */
import { escapePointerToken, pointerTokens } from "@flowsmith/runtime/internal/json";

export function appendPointer(pointer: string, ...keys: readonly (string | number)[]): string {
  return keys.reduce<string>((out, key) => `${out}/${escapePointerToken(String(key))}`, pointer);
}

/** The keys of a `#/a/b` pointer, unescaped (no percent-decoding: see refs.ts for `$ref` values). */
export function pointerKeys(pointer: string): readonly string[] {
  return pointerTokens(pointer.startsWith("#") ? pointer.slice(1) : pointer);
}
