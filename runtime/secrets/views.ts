/**
 * A text as each escaping a server may have applied to it reads once undone:
 * JSON string escapes (`\/`, `\u002B`, `\"`...), HTML character references
 * (`&#47;`, `&#x2F;`, `&sol;`: html-entities.ts) and percent escapes (in
 * either case of hex digit, UTF-8 decoded; a form body's `+` needs no view of
 * its own, pieces.ts reads it as the space it stands for), and these in
 * turn (JSON in HTML, a percent-encoded value percent-encoded again...). Each
 * view keeps, for every character, where it came from in the text, so a
 * secret found in a view is replaced in the text. A search in the views finds
 * a secret however its characters were escaped, each in its own way or not at
 * all, where listing the escaped forms of a secret would never end
 * (redaction.ts).
 *
 * Each view is one pass over the view it decodes, no view is longer than the
 * text, and there are at most a fixed number of them (visitViews).
 */
import { referenceAt } from "./html-entities.js";

export interface TextView {
  readonly text: string;
  /**
   * For each character of `text`, where it starts in the source; one more at
   * the end: where the last decoded character ends in the source (before an
   * escape the text was cut through, which is not decoded).
   */
  readonly from: Int32Array;
  /**
   * Where the characters that the view's last decoding wrote are, in order
   * (a character in two UTF-16 units, once); undefined for the text as it
   * is. Every other run of characters is one of the view it decodes: a
   * search need only look at the runs that hold one of these.
   */
  readonly decodedAt?: Int32Array;
}

const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** How a view came about: the escapings undone, outermost first. */
type Decoding = "json" | "html" | "percent";

/**
 * Escapings a text is read through, three at most in one view, in any order
 * and any of them again (a JSON text written into a JSON string, as a log
 * entry holds a body; `&amp;amp;`; a percent-encoded value percent-encoded
 * again, as a URL put into a query is; JSON inside HTML, HTML inside JSON,
 * either inside a percent-encoded URL and the reverse).
 */
const MAX_DEPTH = 3;

/** The order in which decodings are tried; one that comes earlier is tried again after a later one only where that one made its sign. */
const ORDER: readonly Decoding[] = ["json", "html", "percent"];

/** What in a text shows that a decoding could change it. */
const SIGN_OF: Readonly<Record<Decoding, string>> = { json: "\\", html: "&", percent: "%" };

const SIGN_CODES = Object.values(SIGN_OF).map((sign) => sign.charCodeAt(0));

/** A view and what the decoding that made it wrote that is the sign of another (`&` decoded from `\u0026`...). */
interface DecodedView extends TextView {
  readonly madeSigns: string;
}

/**
 * Calls `visit` with each view of `source` searched for secrets, until it
 * returns true (then this returns true): the text as it is, then each
 * escaping undone in turn where the text shows it (MAX_DEPTH). A view is made
 * only from a view that holds the sign of its escaping and kept only when
 * undoing it changed something, so an ordinary text costs one view; a view
 * is dropped once its descendants are visited. `cut`: the text is the start
 * of a longer one, so an escape or a UTF-8 sequence broken at its end is
 * left out of every view (its first character is where the view ends).
 */
export function visitViews(source: string, cut: boolean, visit: (view: TextView) => boolean): boolean {
  return visitFrom({ ...identity(source, cut), madeSigns: "" }, [], cut, visit);
}

/**
 * Decodings that do not make each other's signs give the same view in either
 * order, so each such set is decoded once, in ORDER; a decoding that does
 * not come after the last one in ORDER (itself again included) is tried only
 * where the last one made its sign (`%5C` decoded to `\`: JSON inside a
 * percent-encoded text; `%25` decoded to `%`: percent-encoded twice).
 */
function visitFrom(
  view: DecodedView,
  done: readonly Decoding[],
  cut: boolean,
  visit: (view: TextView) => boolean,
): boolean {
  if (visit(view)) return true;
  if (done.length === MAX_DEPTH) return false;
  const last = done.at(-1);
  for (const decoding of ORDER) {
    if (!view.text.includes(SIGN_OF[decoding])) continue;
    const inOrder = last === undefined || ORDER.indexOf(decoding) > ORDER.indexOf(last);
    if (!inOrder && !view.madeSigns.includes(SIGN_OF[decoding])) continue;
    const next = DECODERS[decoding](view, cut);
    if (next !== undefined && visitFrom(next, [...done, decoding], cut, visit)) return true;
  }
  return false;
}

/** The text as it is; cut, without the U+FFFD that a character cut through at a byte limit decodes to. */
function identity(source: string, cut: boolean): TextView {
  let end = source.length;
  if (cut) while (end > 0 && source.charCodeAt(end - 1) === 0xfffd) end--;
  const from = new Int32Array(end + 1);
  for (let i = 0; i <= end; i++) from[i] = i;
  return { text: end === source.length ? source : source.slice(0, end), from };
}

function jsonUnescaped(view: TextView, cut: boolean): DecodedView | undefined {
  const out = new Builder(view);
  const text = view.text;
  let i = 0;
  while (i < text.length) {
    const slash = text.indexOf("\\", i);
    if (slash === -1) {
      out.copy(i, text.length);
      break;
    }
    out.copy(i, slash);
    const kind = text[slash + 1];
    const simple = kind === undefined ? undefined : JSON_ESCAPES[kind];
    if (simple !== undefined) {
      out.put(simple, slash);
      i = slash + 2;
    } else if (kind === "u" && unitAt(text, slash + 2) >= 0) {
      out.put(String.fromCharCode(unitAt(text, slash + 2)), slash);
      i = slash + 6;
    } else if (cut && (kind === undefined || (kind === "u" && isHexEnd(text, slash + 2, 3)))) {
      // An escape cut through: not part of the view.
      return out.done(slash);
    } else {
      out.copy(slash, slash + 1);
      i = slash + 1;
    }
  }
  return out.done(text.length);
}

function htmlDecoded(view: TextView, cut: boolean): DecodedView | undefined {
  const out = new Builder(view);
  const text = view.text;
  let i = 0;
  while (i < text.length) {
    const amp = text.indexOf("&", i);
    if (amp === -1) {
      out.copy(i, text.length);
      break;
    }
    out.copy(i, amp);
    const reference = referenceAt(text, amp);
    if (reference === "cut" && cut) return out.done(amp);
    if (reference === undefined || reference === "cut") {
      out.copy(amp, amp + 1);
      i = amp + 1;
    } else {
      out.put(reference.character, amp);
      i = reference.end;
    }
  }
  return out.done(text.length);
}

/** `%XX` escapes undone (either case of hex digit, UTF-8 decoded); a `+` stays, which the search reads as a space anyway. */
function percentDecoded(view: TextView, cut: boolean): DecodedView | undefined {
  const out = new Builder(view);
  const text = view.text;
  let i = 0;
  while (i < text.length) {
    const percent = text.indexOf("%", i);
    if (percent === -1) {
      out.copy(i, text.length);
      break;
    }
    out.copy(i, percent);
    i = percent;
    const bytes = byteAt(text, i);
    if (bytes === undefined) {
      if (cut && isHexEnd(text, i + 1, 1)) return out.done(i);
      out.copy(i, i + 1);
      i++;
      continue;
    }
    const decoded = utf8At(text, i, bytes);
    if (decoded === "cut" && cut) return out.done(i);
    if (decoded === undefined || decoded === "cut") {
      out.copy(i, i + 3);
      i += 3;
    } else {
      out.put(decoded.character, i);
      i = decoded.end;
    }
  }
  return out.done(text.length);
}

const DECODERS: Readonly<Record<Decoding, (view: TextView, cut: boolean) => DecodedView | undefined>> = {
  json: jsonUnescaped,
  html: htmlDecoded,
  percent: percentDecoded,
};

/** The UTF-16 unit written as 4 hex digits at `at`, -1 when they are not. */
function unitAt(text: string, at: number): number {
  let unit = 0;
  for (let k = 0; k < 4; k++) {
    const digit = hexDigit(text.charCodeAt(at + k));
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

/** Whether the text ends within `most` characters from `from`, with hex digits only: an escape cut through. */
function isHexEnd(text: string, from: number, most: number): boolean {
  return text.length - from <= most && /^[0-9a-fA-F]*$/.test(text.slice(from));
}

/** The byte of the escape `%XX` at `at`, or undefined when there is none. */
function byteAt(text: string, at: number): number | undefined {
  if (text.charCodeAt(at) !== 0x25) return undefined;
  const high = hexDigit(text.charCodeAt(at + 1));
  const low = hexDigit(text.charCodeAt(at + 2));
  return high < 0 || low < 0 ? undefined : high * 16 + low;
}

/** The value of a hex digit's code, -1 for any other (NaN past the text's end included). */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

/**
 * The character whose UTF-8 bytes are written as escapes from `at`, where its
 * first byte is `first`; "cut" when the text ends before its last byte,
 * undefined when the bytes are not a UTF-8 sequence.
 */
function utf8At(text: string, at: number, first: number): { character: string; end: number } | "cut" | undefined {
  const length =
    first < 0x80
      ? 1
      : first >= 0xc2 && first <= 0xdf
        ? 2
        : first >= 0xe0 && first <= 0xef
          ? 3
          : first >= 0xf0 && first <= 0xf4
            ? 4
            : 0;
  if (length === 0) return undefined;
  let point = length === 1 ? first : first & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) {
    const position = at + 3 * k;
    const next = byteAt(text, position);
    if (next === undefined)
      return position >= text.length || (text.charCodeAt(position) === 0x25 && isHexEnd(text, position + 1, 1))
        ? "cut"
        : undefined;
    if ((next & 0xc0) !== 0x80) return undefined;
    point = (point << 6) | (next & 0x3f);
  }
  if (point > 0x10ffff) return undefined;
  return { character: String.fromCodePoint(point), end: at + 3 * length };
}

/**
 * A view being written: its characters, and for each where it came from in
 * the source of the view it decodes. Only a view that differs from the one
 * it decodes is kept (`done` returns undefined otherwise).
 */
class Builder {
  private readonly codes: Uint16Array;
  private readonly from: Int32Array;
  private length = 0;
  private decoded = false;
  private madeSigns = "";
  private readonly decodedAt: number[] = [];

  constructor(private readonly of: TextView) {
    this.codes = new Uint16Array(of.text.length);
    this.from = new Int32Array(of.text.length + 1);
  }

  /** Characters start..end of the view decoded, as they are. */
  copy(start: number, end: number): void {
    const { codes, from } = this;
    const text = this.of.text;
    const sources = this.of.from;
    let length = this.length;
    for (let i = start; i < end; i++) {
      codes[length] = text.charCodeAt(i);
      from[length++] = sources[i] as number;
    }
    this.length = length;
  }

  /** Characters decoded from an escape at `at` (two for a code point above U+FFFF, both from there). */
  put(characters: string, at: number): void {
    this.decoded = true;
    if (
      characters.length === 1 &&
      SIGN_CODES.includes(characters.charCodeAt(0)) &&
      !this.madeSigns.includes(characters)
    )
      this.madeSigns += characters;
    this.decodedAt.push(this.length);
    for (let k = 0; k < characters.length; k++) {
      this.codes[this.length] = characters.charCodeAt(k);
      this.from[this.length++] = this.of.from[at] as number;
    }
  }

  /** The view, its last character ending where `end` of the view decoded starts; undefined when it is that view. */
  done(end: number): DecodedView | undefined {
    if (!this.decoded && end === this.of.text.length) return undefined;
    this.from[this.length] = this.of.from[end] as number;
    return {
      text: textOf(this.codes.subarray(0, this.length)),
      from: this.from.subarray(0, this.length + 1),
      madeSigns: this.madeSigns,
      decodedAt: Int32Array.from(this.decodedAt),
    };
  }
}

/**
 * One character for each UTF-16 code, so that positions stay as they are: a
 * byte order mark kept (ignoreBOM), a lone surrogate read as U+FFFD (no
 * secret holds one).
 */
const UTF16 = new TextDecoder("utf-16le", { ignoreBOM: true });

/** UTF-16 codes as a string. */
function textOf(codes: Uint16Array): string {
  return UTF16.decode(codes);
}
