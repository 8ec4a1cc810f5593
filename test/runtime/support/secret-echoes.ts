/**
 * How a server may write back a piece of a secret, and how a test finds any
 * run of 8 of its characters in what the runtime shows. Written from the
 * encodings' own rules (Buffer, encodeURIComponent, the `entities` package),
 * not from the runtime's tables (runtime/secrets/forms.ts, views.ts,
 * html-entities.ts).
 */
import { inspect } from "node:util";
import { encodeHTML } from "entities";

/** Characters in a row of a secret that no output may hold, in any encoding. */
const RUN = 8;

/** An encoding a server applies to the text it echoes: the text as it writes it. */
type Encode = (text: string) => string;

const utf8 = (text: string) => [...Buffer.from(text, "utf8")];
const percentEvery = (text: string, lower: boolean) =>
  utf8(text)
    .map((byte) => `%${byte.toString(16).padStart(2, "0")}`)
    .map((escape) => (lower ? escape : escape.toUpperCase()))
    .join("");
const codePoints = (text: string) => Array.from(text, (character) => character.codePointAt(0) as number);

/** Encodings that write each character of the text on its own (a piece of the text is a piece of the result). */
const CHARACTER_ENCODINGS: readonly (readonly [string, Encode])[] = [
  ["raw", (text) => text],
  ["percent (encodeURIComponent)", encodeURIComponent],
  ["percent, every byte, lower-case hex", (text) => percentEvery(text, true)],
  ["form (URLSearchParams)", (text) => new URLSearchParams([["", text]]).toString().slice(1)],
  ["double percent", (text) => encodeURIComponent(encodeURIComponent(text))],
  [
    "double percent of the form encoding",
    (text) => encodeURIComponent(new URLSearchParams([["", text]]).toString().slice(1)),
  ],
  [
    "JSON \\u escapes",
    (text) => Array.from(text, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  ],
  ["JSON with \\/ (PHP)", (text) => JSON.stringify(text).slice(1, -1).replace(/\//g, "\\/")],
  ["HTML named references (entities' encodeHTML)", encodeHTML],
  [
    "HTML decimal references",
    (text) =>
      codePoints(text)
        .map((point) => `&#${point};`)
        .join(""),
  ],
  [
    "HTML hex references",
    (text) =>
      codePoints(text)
        .map((point) => `&#x${point.toString(16).toUpperCase()};`)
        .join(""),
  ],
  ["HTML inside JSON (Go's \\u0026)", (text) => encodeHTML(text).replace(/&/g, "\\u0026")],
  ["JSON inside HTML", (text) => encodeHTML(JSON.stringify(text).slice(1, -1).replace(/\//g, "\\/"))],
  [
    "percent-encoded JSON escapes",
    (text) =>
      encodeURIComponent(Array.from(text, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")),
  ],
  ["hex, lower case", (text) => Buffer.from(text, "utf8").toString("hex")],
  ["hex, upper case", (text) => Buffer.from(text, "utf8").toString("hex").toUpperCase()],
  [
    "hex of the form encoding",
    (text) => Buffer.from(new URLSearchParams([["", text]]).toString().slice(1), "utf8").toString("hex"),
  ],
];

/** Encodings of the text inside a longer message, base64 of the whole: the text at byte offset 0, 1 or 2 of a 3-byte group. */
const BASE64_ENCODINGS: readonly (readonly [string, Encode])[] = (["base64", "base64url"] as const).flatMap(
  (alphabet) =>
    [0, 1, 2].map((offset): readonly [string, Encode] => [
      `${alphabet}, at byte offset ${String(offset)}`,
      (text) =>
        Buffer.concat([Buffer.from("{}>".slice(0, offset)), Buffer.from(text, "utf8"), Buffer.from(" ok")]).toString(
          alphabet,
        ),
    ]),
);

export const ENCODINGS = [...CHARACTER_ENCODINGS, ...BASE64_ENCODINGS];

/** Every run of RUN characters of `secret`. */
function runsOf(secret: string): string[] {
  return Array.from({ length: Math.max(secret.length - RUN + 1, 0) }, (_, start) => secret.slice(start, start + RUN));
}

/**
 * Every way a run of RUN characters of `secret` can be written: by each
 * character encoding, and in base64 and base64url the characters that only
 * the run's bytes decide, at each byte offset.
 */
function writtenRuns(secret: string): string[] {
  const written = new Set<string>();
  for (const run of runsOf(secret)) {
    for (const [, encode] of CHARACTER_ENCODINGS) written.add(encode(run));
    const bytes = Buffer.from(run, "utf8");
    for (const offset of [0, 1, 2]) {
      const placed = Buffer.concat([Buffer.alloc(offset), bytes]);
      const own = [Math.ceil((offset * 8) / 6), Math.floor((placed.length * 8) / 6)] as const;
      written.add(placed.toString("base64").slice(...own));
      written.add(placed.toString("base64url").slice(...own));
    }
  }
  return [...written];
}

/** The runs of `secrets`, as written in any encoding, that any of `texts` holds. */
export function leaksIn(texts: readonly string[], ...secrets: string[]): string[] {
  const all = texts.join("\n");
  return secrets.flatMap(writtenRuns).filter((run) => all.includes(run));
}

/** message, stack, JSON.stringify and util.inspect of the error and of each error in its cause chain, and its own fields. */
export function everyWayShown(error: unknown): string[] {
  const shown = [inspect(error, { depth: 20 }), safeJson(error)];
  for (let current: unknown = error, depth = 0; current && depth < 10; current = (current as Error).cause, depth++) {
    if (typeof current !== "object") {
      shown.push(typeof current === "string" ? current : JSON.stringify(current));
      break;
    }
    const each = current as Error;
    shown.push(
      each.message,
      String(each.stack),
      String(each),
      safeJson(each),
      inspect(each, { depth: 20, showHidden: true }),
    );
    for (const value of Object.values(each)) shown.push(typeof value === "string" ? value : safeJson(value));
  }
  return shown;
}

function safeJson(value: unknown): string {
  try {
    return value === undefined ? "" : JSON.stringify(value);
  } catch {
    return inspect(value, { depth: 20 });
  }
}
