/**
 * The strings a secret is looked for as, in the views of a text
 * (views.ts): the secret itself, and the encodings that cannot be undone
 * by reading the text once, which are computed once per secret instead:
 * base64 (the search reads base64url's `-` and `_` as `+` and `/`) and hex
 * (either case: pieces.ts).
 * Escapes (JSON, HTML, percent, form) are undone by the views, so they need
 * no form here.
 *
 * A secret inside a longer base64 string (a server encoding the whole request
 * it got, `base64("grant_type=…&client_secret=…")`) is encoded in one of three
 * ways by where it starts: at byte offset 0, 1 or 2 of a 3-byte group. For
 * each, the characters that depend on the secret's bytes alone are a form;
 * the one or two characters at each end that mix in the bytes around it
 * carry at most a few bits of it. A piece of the secret echoed in base64 is
 * a run of one of these three forms, whatever its own offset. Hex writes
 * each byte as two characters, so any piece of the secret in hex is a run of
 * the secret's hex. And what gets encoded is the secret as it was written:
 * raw, form-encoded as the token request sends it, percent-encoded,
 * JSON-escaped.
 *
 * Plain code, TextEncoder and btoa only: the runtime runs where there is no
 * Buffer (Cloudflare Workers, Vercel Edge).
 */
import type { SearchedForm } from "./pieces.js";

/** The forms of `secret`, each once. */
export function searchedFormsOf(secret: string): SearchedForm[] {
  const forms = new Map<string, SearchedForm>();
  const add = (form: SearchedForm) => forms.set(`${form.kind}:${form.text}`, form);
  add({ text: secret, kind: "text" });
  for (const written of writtenForms(secret)) {
    const bytes = new TextEncoder().encode(written);
    for (const text of alignedBase64(bytes)) add({ text, kind: "base64" });
    add({ text: hexOf(bytes), kind: "hex" });
  }
  return [...forms.values()];
}

/** base64 of text's UTF-8 bytes, as `Authorization: Basic` carries `id:secret`. */
export function base64OfText(text: string): string {
  return base64Of(new TextEncoder().encode(text));
}

/** How the secret may have been written before a server encoded it. */
function writtenForms(secret: string): Set<string> {
  const form = new URLSearchParams([["", secret]]).toString().slice(1);
  const percent = encodeURIComponent(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  return new Set([secret, form, percent, lowerHex(form), lowerHex(percent), json, json.replace(/\//g, "\\/")]);
}

/** `%2B` as `%2b`: percent escapes are case-insensitive, and some servers write them in lower case. */
function lowerHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/** The first character of the three encodings that depends on the secret alone, by its offset in a 3-byte group. */
const FIRST_OWN = [0, 2, 3] as const;

/** For each offset 0, 1, 2: the base64 characters that only the secret's bytes decide. */
function alignedBase64(bytes: Uint8Array): string[] {
  const forms: string[] = [];
  for (const offset of [0, 1, 2] as const) {
    const placed = new Uint8Array(offset + bytes.length);
    placed.set(bytes, offset);
    // Characters past this one hold bits of the bytes after the secret.
    const decided = Math.floor((placed.length * 8) / 6);
    forms.push(base64Of(placed).slice(FIRST_OWN[offset], decided));
  }
  return forms;
}

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function hexOf(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
