/**
 * The strings a secret is looked for as, in the views of a text
 * (text-views.ts): the secret itself, and its base64 and base64url
 * encodings. Escapes (JSON, percent, form) are undone by the views, so they
 * need no form here; base64 cannot be undone without decoding every piece of
 * a text at every offset, so its forms are computed once per secret instead.
 *
 * A secret inside a longer base64 string (a server encoding the whole request
 * it got, `base64("grant_type=…&client_secret=…")`) is encoded in one of three
 * ways by where it starts: at byte offset 0, 1 or 2 of a 3-byte group. For
 * each, the characters that depend on the secret's bytes alone are a form;
 * the one or two characters at each end that mix in the bytes around it
 * carry at most a few bits of it. And what gets base64-encoded is the secret
 * as it was written: raw, form-encoded as the token request sends it,
 * percent-encoded, JSON-escaped.
 */

/** The forms of `secret`, each once. */
export function searchedFormsOf(secret: string): string[] {
  const forms = new Set<string>([secret]);
  for (const written of writtenForms(secret)) {
    const bytes = Buffer.from(written, "utf8");
    forms.add(bytes.toString("base64"));
    forms.add(bytes.toString("base64url"));
    for (const form of alignedBase64(bytes)) forms.add(form);
  }
  return [...forms];
}

/** How the secret may have been written before a server base64-encoded it. */
function writtenForms(secret: string): Set<string> {
  const form = new URLSearchParams([["", secret]]).toString().slice(1);
  const percent = encodeURIComponent(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  return new Set([secret, form, percent, lowerHex(form), lowerHex(percent), json, json.replace(/\//g, "\\/")]);
}

/** The first character of the three encodings that depends on the secret alone, by its offset in a 3-byte group. */
const FIRST_OWN = [0, 2, 3] as const;

/** For each offset 0, 1, 2: the base64 and base64url characters that only the secret's bytes decide. */
function alignedBase64(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (const offset of [0, 1, 2] as const) {
    const placed = Buffer.concat([Buffer.alloc(offset), bytes]);
    // Characters past this one hold bits of the bytes after the secret.
    const decided = Math.floor((placed.length * 8) / 6);
    forms.push(placed.toString("base64").slice(FIRST_OWN[offset], decided), placed.toString("base64url").slice(FIRST_OWN[offset], decided));
  }
  return forms;
}

/** `%2B` as `%2b`: percent escapes are case-insensitive, and some servers write them in lower case. */
function lowerHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}
