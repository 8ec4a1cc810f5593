/**
 * Arbitraries for the redaction fuzz suite: a secret, and a text in which a
 * server echoes the whole of it or a piece (from its start, its middle or its
 * end, at least 8 characters) among other words, written the way a server may
 * write what it echoes. Written independently of the runtime's own tables
 * (runtime/secrets/forms.ts, views.ts, html-entities.ts), from the
 * encodings' rules and the `entities` package:
 *
 * - escaped character by character, each character its own way: as it is,
 *   percent-escaped (either case of hex digit), a JSON escape (`\/`, `\"`,
 *   `\uXXXX` in either case), an HTML reference (named, decimal, hex), a space
 *   as `+` in a form body;
 * - the whole text encoded in layers, one to three of: percent, form, JSON
 *   string, HTML (named or numeric references), each over the one before;
 * - base64 or base64url of the whole message, the piece at any byte offset,
 *   written raw, form-encoded, percent-encoded or JSON-escaped before it was
 *   encoded; then the base64 text itself percent- or JSON-escaped now and then;
 * - hex of the whole message (either case), the piece written as above.
 *
 * Each echo knows which of its characters only the secret decides (`own`):
 * no 8 of them in a row may survive redaction.
 */
import fc from "fast-check";
import { encodeHTML } from "entities";

/** Characters every encoding treats differently, and a few of each kind of letter. */
const SECRET_CHARACTERS = [
  ...Array.from("abcXYZ0189"),
  ...Array.from("+/=&%?#~._-* "),
  '"',
  "\\",
  ...Array.from("üé€"),
  "😀",
];

/** Mostly client-secret sized; now and then token sized, longer than a piece many times over. */
const secretText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...SECRET_CHARACTERS), minLength: 8, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...SECRET_CHARACTERS), minLength: 41, maxLength: 160 }) },
);

/** The least a piece holds: no run this long of a secret may be shown. */
const PIECE = 8;

/** A secret, and what of it is echoed: the whole, or a piece of PIECE characters or more from anywhere in it. */
const secretAndEcho = secretText.chain((secret) => {
  const characters = Array.from(secret);
  return fc
    .oneof(
      fc.constant([0, characters.length] as const),
      fc
        .integer({ min: PIECE, max: characters.length })
        .chain((length) =>
          fc.integer({ min: 0, max: characters.length - length }).map((start) => [start, start + length] as const),
        ),
    )
    .map(([start, end]) => ({ secret, echoed: characters.slice(start, end).join("") }));
});

/** The server's own words around the echo: any of the secret's characters, and others. */
const words = fc.string({
  unit: fc.constantFrom(...SECRET_CHARACTERS, ...Array.from("klmnopq:,;()[]{}!")),
  maxLength: 30,
});

/** Text around an escaped echo, which no escape can swallow: no `\`, `%` or `&` at its end. */
const plainWords = fc.string({ unit: fc.constantFrom(...Array.from("klmnopq rstuv:,;()!")), maxLength: 30 });

interface Echo {
  /** The secret known to the client. */
  readonly secret: string;
  readonly text: string;
  /** Where the characters that only the echoed part of the secret decides are in `text`. */
  readonly own: readonly [number, number];
  /**
   * Where each unit of the echoed secret is written in `text`: a character
   * of it, where each is written on its own (escaped, layered); a base64 or
   * hex character that only its bytes decide, where characters are mixed. A
   * run of 8 of them is what may not survive.
   */
  readonly units: readonly (readonly [number, number])[];
  /** How it was written, for a failure's message. */
  readonly how: string;
}

const percentOf = (character: string, lower: boolean) =>
  [...Buffer.from(character, "utf8")]
    .map((byte) => `%${byte.toString(16).padStart(2, "0")}`)
    .map((escape) => (lower ? escape : escape.toUpperCase()))
    .join("");

type CharacterWay =
  | "as-is"
  | "percent"
  | "percent-lower"
  | "json-u"
  | "json-U"
  | "json-short"
  | "form-space"
  | "html-named"
  | "html-decimal"
  | "html-hex";

/**
 * A character written one way: what a server writes for it, or undefined
 * where that way would change what it decodes to. A server percent-encodes
 * first, then escapes for JSON or HTML: a `%` (or a form's `+`) reaches JSON
 * and HTML already percent-escaped, and neither writes the other's escape
 * character (`\` for HTML, `&` for JSON).
 */
function written(character: string, way: CharacterWay, form: boolean): string | undefined {
  const outer = character === "%" || (form && character === "+");
  switch (way) {
    case "as-is":
      // A bare % or \ starts an escape, as a bare & may; a bare + is a space in a form body.
      return character === "%" || character === "\\" || character === "&" || (form && character === "+")
        ? undefined
        : character;
    case "percent":
    case "percent-lower":
      return percentOf(character, way === "percent-lower");
    case "json-u":
    case "json-U":
      if (outer || character === "&") return undefined;
      return Array.from(character)
        .flatMap((point) => (point.length === 2 ? [point.charCodeAt(0), point.charCodeAt(1)] : [point.charCodeAt(0)]))
        .map((unit) => `\\u${unit.toString(16).padStart(4, "0")}`)
        .map((escape) => (way === "json-U" ? escape.toUpperCase().replace("\\U", "\\u") : escape))
        .join("");
    case "json-short":
      return ({ "/": "\\/", '"': '\\"', "\\": "\\\\" } as Record<string, string>)[character];
    case "form-space":
      return form && character === " " ? "+" : undefined;
    case "html-named":
      return outer || character === "\\" || encodeHTML(character) === character ? undefined : encodeHTML(character);
    case "html-decimal":
    case "html-hex":
      if (outer || character === "\\") return undefined;
      return `&#${way === "html-hex" ? `x${(character.codePointAt(0) as number).toString(16)}` : String(character.codePointAt(0))};`;
  }
}

const WAYS: readonly CharacterWay[] = [
  "as-is",
  "percent",
  "percent-lower",
  "json-u",
  "json-U",
  "json-short",
  "form-space",
  "html-named",
  "html-decimal",
  "html-hex",
];

/** Secret and words escaped character by character; each character the first of its drawn ways that fits it. */
const escapedEcho = fc
  .record({
    secret: secretAndEcho,
    before: words,
    after: words,
    outside: fc.tuple(plainWords, plainWords),
    form: fc.boolean(),
    ways: fc.array(fc.constantFrom(...WAYS), { minLength: 1, maxLength: 100 }),
  })
  .map(({ secret: { secret, echoed }, before, after, outside, form, ways }): Echo => {
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
    const { text: middle, units } = eachWritten(head.length, Array.from(echoed), escape);
    return {
      secret,
      text: `${head}${middle}${escape(after)}${outside[1]}`,
      own: [head.length, head.length + middle.length],
      units,
      how: `escaped (${form ? "form" : "percent"}) ${ways.slice(0, 12).join(",")}`,
    };
  });

/** `units` written one by one from `at`, and where each went. */
function eachWritten(
  at: number,
  units: readonly string[],
  write: (text: string) => string,
): { text: string; units: [number, number][] } {
  const spans: [number, number][] = [];
  let text = "";
  for (const unit of units) {
    const start = at + text.length;
    text += write(unit);
    spans.push([start, at + text.length]);
  }
  return { text, units: spans };
}

/** Encodings of a whole text that write each character on its own, so each part can be encoded apart and joined. */
const LAYERS = {
  percent: encodeURIComponent,
  "percent-every-byte": (text: string) => Array.from(text, (character) => percentOf(character, true)).join(""),
  form: (text: string) => new URLSearchParams([["", text]]).toString().slice(1),
  json: (text: string) => JSON.stringify(text).slice(1, -1),
  "html-named": encodeHTML,
  "html-numeric": (text: string) => Array.from(text, (character) => `&#${String(character.codePointAt(0))};`).join(""),
} as const;
type Layer = keyof typeof LAYERS;

/** The piece among words, the whole encoded in one to three layers, each over the one before. */
const layeredEcho = fc
  .record({
    secret: secretAndEcho,
    before: words,
    after: words,
    outside: fc.tuple(plainWords, plainWords),
    layers: fc.array(fc.constantFrom(...(Object.keys(LAYERS) as Layer[])), { minLength: 1, maxLength: 3 }),
  })
  .map(({ secret: { secret, echoed }, before, after, outside, layers }): Echo => {
    const encode = (text: string) => layers.reduce((written, layer) => LAYERS[layer](written), text);
    const head = `${outside[0]}${encode(before)}`;
    const { text: middle, units } = eachWritten(head.length, Array.from(echoed), encode);
    return {
      secret,
      text: `${head}${middle}${encode(after)}${outside[1]}`,
      own: [head.length, head.length + middle.length],
      units,
      how: `layers ${layers.join(" then ")}`,
    };
  });

type Before = "raw" | "form" | "percent" | "json";
const BEFORE: readonly Before[] = ["raw", "form", "percent", "json"];

function writtenBefore(text: string, how: Before): string {
  return how === "raw" ? text : LAYERS[how](text);
}

/** The whole message base64-encoded; the base64 text then perhaps escaped as a whole. */
const base64Echo = fc
  .record({
    secret: secretAndEcho,
    before: words,
    after: words,
    outside: fc.tuple(plainWords, plainWords),
    writtenAs: fc.constantFrom(...BEFORE),
    alphabet: fc.constantFrom("base64" as const, "base64url" as const),
    outer: fc.constantFrom("none", "percent", "percent-lower", "json-slash", "json-u"),
  })
  .map(({ secret: { secret, echoed }, before, after, outside, writtenAs, alphabet, outer }): Echo => {
    // Written char by char (the forms above are), so the piece's bytes sit where the words before it end.
    const head = Buffer.from(writtenBefore(before, writtenAs), "utf8");
    const body = Buffer.from(writtenBefore(echoed, writtenAs), "utf8");
    const encoded = Buffer.concat([head, body, Buffer.from(writtenBefore(after, writtenAs), "utf8")]).toString(
      alphabet,
    );
    // Base64 characters that hold only bits of the piece's bytes: from the first whole 6 bits after its start to the last.
    const firstOwn = Math.ceil((head.length * 8) / 6);
    const lastOwn = Math.floor(((head.length + body.length) * 8) / 6);
    const escapeOuter = (text: string) =>
      outer === "none"
        ? text
        : outer === "json-slash"
          ? text.replace(/\//g, "\\/")
          : outer === "json-u"
            ? text.replace(/[+/_-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
            : text.replace(/[+/=]/g, (c) =>
                outer === "percent"
                  ? `%${c.charCodeAt(0).toString(16).toUpperCase()}`
                  : `%${c.charCodeAt(0).toString(16)}`,
              );
    const start = outside[0].length + escapeOuter(encoded.slice(0, firstOwn)).length;
    const { text: own, units } = eachWritten(start, Array.from(encoded.slice(firstOwn, lastOwn)), escapeOuter);
    return {
      secret,
      text: `${outside[0]}${escapeOuter(encoded)}${outside[1]}`,
      own: [start, start + own.length],
      units,
      how: `${alphabet} of ${writtenAs}, then ${outer}`,
    };
  });

/** The whole message in hex, either case; each byte two characters, so the piece's are its own. */
const hexEcho = fc
  .record({
    secret: secretAndEcho,
    before: words,
    after: words,
    outside: fc.tuple(plainWords, plainWords),
    writtenAs: fc.constantFrom(...BEFORE),
    upper: fc.boolean(),
  })
  .map(({ secret: { secret, echoed }, before, after, outside, writtenAs, upper }): Echo => {
    const hex = (text: string) => {
      const out = Buffer.from(writtenBefore(text, writtenAs), "utf8").toString("hex");
      return upper ? out.toUpperCase() : out;
    };
    const head = `${outside[0]}${hex(before)}`;
    const middle = hex(echoed);
    const units = Array.from(middle, (_, k): [number, number] => [head.length + k, head.length + k + 1]);
    return {
      secret,
      text: `${head}${middle}${hex(after)}${outside[1]}`,
      own: [head.length, head.length + middle.length],
      units,
      how: `hex (${upper ? "upper" : "lower"}) of ${writtenAs}`,
    };
  });

export interface EchoCase {
  readonly echo: Echo;
  /** Whether the secret is the client secret (else an access token the client was given). */
  readonly isClientSecret: boolean;
}

export const echoCases: fc.Arbitrary<EchoCase> = fc.record({
  echo: fc.oneof(escapedEcho, layeredEcho, base64Echo, hexEcho),
  isClientSecret: fc.boolean(),
});
