/**
 * Arbitraries for the redaction fuzz suite: a secret, and a text in which a
 * server echoes it among other words, written the way a server may write
 * what it echoes. Written independently of the runtime's own tables
 * (runtime/secret-forms.ts, runtime/text-views.ts), from the encodings' rules:
 *
 * - escaped character by character, each character its own way: as it is,
 *   percent-escaped (either case of hex digit), a JSON escape (`\/`, `\"`,
 *   `\uXXXX` in either case), a space as `+` in a form body; or
 * - base64 or base64url of the whole message, the secret at any byte offset,
 *   written raw, form-encoded, percent-encoded or JSON-escaped before it was
 *   encoded; then the base64 text itself percent- or JSON-escaped now and then.
 *
 * Each echo knows which of its characters only the secret decides (`own`):
 * no 8 of them in a row may survive redaction.
 */
import fc from "fast-check";

/** Characters every encoding treats differently, and a few of each kind of letter. */
const SECRET_CHARACTERS = [
  ...Array.from("abcXYZ0189"),
  ...Array.from("+/=&%?#~._-* "),
  '"',
  "\\",
  ...Array.from("üé€"),
  "😀",
];

/** Mostly client-secret sized; now and then token sized, longer than the part of a form the search indexes (runtime/known-secrets.ts). */
const secretText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...SECRET_CHARACTERS), minLength: 8, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...SECRET_CHARACTERS), minLength: 41, maxLength: 160 }) },
);

/** The server's own words around the echo: any of the secret's characters, and others. */
const words = fc.string({ unit: fc.constantFrom(...SECRET_CHARACTERS, ...Array.from("klmnopq:,;()[]{}!")), maxLength: 30 });

/** Text around an escaped echo, which no escape can swallow: no `\` or `%` at its end. */
const plainWords = fc.string({ unit: fc.constantFrom(...Array.from("klmnopq rstuv:,;()!")), maxLength: 30 });

interface Echo {
  /** The secret echoed. */
  readonly secret: string;
  readonly text: string;
  /** Where the characters that only the secret decides are in `text`. */
  readonly own: readonly [number, number];
  /** How it was written, for a failure's message. */
  readonly how: string;
}

type CharacterWay = "as-is" | "percent" | "percent-lower" | "json-u" | "json-U" | "json-short" | "form-space";

/** A character written one way: what a server writes for it, or undefined where that way would change what it decodes to. */
function written(character: string, way: CharacterWay, form: boolean): string | undefined {
  const percent = (lower: boolean) =>
    [...Buffer.from(character, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).map((escape) => (lower ? escape : escape.toUpperCase())).join("");
  switch (way) {
    case "as-is":
      // A bare % or \ starts an escape; a bare + is a space in a form body.
      return character === "%" || character === "\\" || (form && character === "+") ? undefined : character;
    case "percent":
      return percent(false);
    case "percent-lower":
      return percent(true);
    case "json-u":
    case "json-U":
      // A server percent-encodes first, then JSON-escapes: a % or a form's + reaches JSON already percent-escaped.
      if (character === "%" || (form && character === "+")) return undefined;
      return Array.from(character)
        .flatMap((point) => (point.length === 2 ? [point.charCodeAt(0), point.charCodeAt(1)] : [point.charCodeAt(0)]))
        .map((unit) => `\\u${unit.toString(16).padStart(4, "0")}`)
        .map((escape) => (way === "json-U" ? escape.toUpperCase().replace("\\U", "\\u") : escape))
        .join("");
    case "json-short":
      return ({ "/": "\\/", '"': '\\"', "\\": "\\\\" } as Record<string, string>)[character];
    case "form-space":
      return form && character === " " ? "+" : undefined;
  }
}

const WAYS: readonly CharacterWay[] = ["as-is", "percent", "percent-lower", "json-u", "json-U", "json-short", "form-space"];

/** Secret and words escaped character by character; each character the first of its drawn ways that fits it. */
const escapedEcho = fc
  .record({
    secret: secretText,
    before: words,
    after: words,
    outside: fc.tuple(plainWords, plainWords),
    form: fc.boolean(),
    ways: fc.array(fc.constantFrom(...WAYS), { minLength: 1, maxLength: 100 }),
  })
  .map(({ secret, before, after, outside, form, ways }): Echo => {
    let next = 0;
    const escape = (text: string) =>
      Array.from(text)
        .map((character) => {
          for (let tries = 0; tries < WAYS.length; tries++) {
            const way = ways[next++ % ways.length] as CharacterWay;
            const out = written(character, way, form);
            if (out !== undefined) return out;
          }
          return written(character, "percent", form) as string;
        })
        .join("");
    const head = `${outside[0]}${escape(before)}`;
    const middle = escape(secret);
    return {
      secret,
      text: `${head}${middle}${escape(after)}${outside[1]}`,
      own: [head.length, head.length + middle.length],
      how: `escaped (${form ? "form" : "percent"}) ${ways.slice(0, 12).join(",")}`,
    };
  });

type Before64 = "raw" | "form" | "percent" | "json";
const BEFORE_64: readonly Before64[] = ["raw", "form", "percent", "json"];

function writtenBefore64(text: string, how: Before64): string {
  switch (how) {
    case "raw":
      return text;
    case "form":
      return new URLSearchParams([["", text]]).toString().slice(1);
    case "percent":
      return encodeURIComponent(text);
    case "json":
      return JSON.stringify(text).slice(1, -1);
  }
}

/** The whole message base64-encoded; the base64 text then perhaps escaped as a whole. */
const base64Echo = fc
  .record({
    secret: secretText,
    before: words,
    after: words,
    outside: fc.tuple(plainWords, plainWords),
    writtenAs: fc.constantFrom(...BEFORE_64),
    alphabet: fc.constantFrom("base64" as const, "base64url" as const),
    outer: fc.constantFrom("none", "percent", "percent-lower", "json-slash", "json-u"),
  })
  .map(({ secret, before, after, outside, writtenAs, alphabet, outer }): Echo => {
    // Written char by char (the forms above are), so the secret's bytes sit where the words before it end.
    const head = Buffer.from(writtenBefore64(before, writtenAs), "utf8");
    const body = Buffer.from(writtenBefore64(secret, writtenAs), "utf8");
    const encoded = Buffer.concat([head, body, Buffer.from(writtenBefore64(after, writtenAs), "utf8")]).toString(alphabet);
    // Base64 characters that hold only bits of the secret's bytes: from the first whole 6 bits after its start to the last.
    const firstOwn = Math.ceil((head.length * 8) / 6);
    const lastOwn = Math.floor(((head.length + body.length) * 8) / 6);
    const escapeOuter = (text: string) =>
      outer === "none"
        ? text
        : outer === "json-slash"
          ? text.replace(/\//g, "\\/")
          : outer === "json-u"
            ? text.replace(/[+/_-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
            : text.replace(/[+/=]/g, (c) => (outer === "percent" ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : `%${c.charCodeAt(0).toString(16)}`));
    const start = outside[0].length + escapeOuter(encoded.slice(0, firstOwn)).length;
    const own = escapeOuter(encoded.slice(firstOwn, lastOwn));
    return {
      secret,
      text: `${outside[0]}${escapeOuter(encoded)}${outside[1]}`,
      own: [start, start + own.length],
      how: `${alphabet} of ${writtenAs}, then ${outer}`,
    };
  });

export interface EchoCase {
  readonly echo: Echo;
  /** Whether the secret is the client secret (else an access token the client was given). */
  readonly isClientSecret: boolean;
}

export const echoCases: fc.Arbitrary<EchoCase> = fc.record({ echo: fc.oneof(escapedEcho, base64Echo), isClientSecret: fc.boolean() });
