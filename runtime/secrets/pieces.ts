/**
 * Every run of PIECE characters of a set of strings (the forms of the known
 * secrets, forms.ts), found in a text in one pass: a server may echo
 * any part of a secret, from its start, its middle or its end, so each piece
 * counts, not only the whole. A form shorter than PIECE is one piece, whole.
 *
 * Each piece is kept in a hash table by a rolling hash of its characters; the
 * scan rolls the same hash over the text and compares the characters of a
 * piece only where a slot holds one: time linear in the text (a bounded
 * number of slots per character, each compared in at most PIECE characters),
 * whatever the text. An Aho-Corasick automaton would do the same with a node
 * per character of every piece, where this keeps a slot per piece (what the
 * table costs: bench/analysis.md, row 16).
 *
 * A piece matches the text's characters exactly, but for what its form's
 * kind lets differ: in the secret as written, a space may be the `+` a form
 * body writes for it; in base64, `-` and `_` may be base64url's `+` and `/`;
 * in hex, a digit may be in upper case. The hash reads all of these alike
 * (and A-F as a-f), so the slots hold every candidate and the comparison
 * decides.
 */

/** Characters in a row of a secret that make a piece: no run this long of a secret may be shown. */
const PIECE = 8;

/** Slots at least this many times the pieces: most probes end at an empty slot or the first compare. */
const SLOTS_PER_PIECE = 2;

/** The hash's base: odd, large, so that neighbouring characters spread. */
const BASE = 0x01000193;

/** What a form is, which says which of its characters the text may write otherwise. */
type FormKind = "text" | "base64" | "hex";

export interface SearchedForm {
  readonly text: string;
  readonly kind: FormKind;
}

const KIND_CODES: Readonly<Record<FormKind, number>> = { text: 0, base64: 1, hex: 2 };

/** A character as the hash reads it: every character a form's kind lets the text write for it, alike. */
function fold(code: number): number {
  if (code >= 0x41 && code <= 0x46) return code + 0x20;
  if (code === 0x20 || code === 0x2d) return 0x2b;
  if (code === 0x5f) return 0x2f;
  return code;
}

/** Whether `written`, in a text, stands for `wanted` of a form of this kind. */
function sameCharacter(written: number, wanted: number, kind: number): boolean {
  if (written === wanted) return true;
  if (kind === KIND_CODES.text) return wanted === 0x20 && written === 0x2b;
  if (kind === KIND_CODES.base64) return (wanted === 0x2b && written === 0x2d) || (wanted === 0x2f && written === 0x5f);
  return wanted >= 0x61 && wanted <= 0x66 && written === wanted - 0x20;
}

/** A short text (the start of a form, the end of a view) as the comparison reads it. */
function folded(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(fold(text.charCodeAt(i)));
  return out;
}

export class SecretPieces {
  /** One table per piece length, the longest first. */
  private readonly tables: PieceTable[] = [];
  /** The starts of the forms that `startAtEnd` looks for, folded. */
  private readonly starts = new Set<string>();

  /** Forms shorter than `minLength` are left out. */
  constructor(private readonly minLength: number) {}

  /** More forms to look for: the cost of their own pieces, not of those already kept. */
  add(forms: Iterable<SearchedForm>): void {
    for (const { text: form, kind } of forms) {
      if (form.length < this.minLength) continue;
      const width = Math.min(form.length, PIECE);
      let table = this.tables.find((each) => each.width === width);
      if (!table) {
        table = new PieceTable(width);
        this.tables.push(table);
        this.tables.sort((a, b) => b.width - a.width);
      }
      table.add(form, KIND_CODES[kind]);
      const start = folded(form.slice(0, width - 1));
      for (let length = 1; length < width; length++) this.starts.add(start.slice(0, length));
    }
  }

  get isEmpty(): boolean {
    return this.tables.length === 0;
  }

  /** Characters read and slots probed by every scan so far: what the test of linear time bounds. */
  get work(): number {
    return this.tables.reduce((sum, table) => sum + table.work, 0);
  }

  /**
   * Calls `found(start, end)` for each run of `text` that is a piece, until
   * it returns true (then this returns true). `near`: only the runs that
   * hold one of these places (in order) are looked at; all when undefined.
   */
  scan(text: string, found: (start: number, end: number) => boolean, near?: Int32Array): boolean {
    if (!near) return this.tables.some((table) => table.scan(text, 0, text.length, found));
    // Each stretch around the places, one PIECE either side, merged where they meet.
    let start = 0;
    let end = 0;
    for (const at of near) {
      if (at - PIECE + 1 > end) {
        if (end > start && this.tables.some((table) => table.scan(text, start, end, found))) return true;
        start = Math.max(at - PIECE + 1, 0);
      }
      end = Math.min(at + PIECE, text.length);
    }
    return end > start && this.tables.some((table) => table.scan(text, start, end, found));
  }

  /**
   * How many characters at the end of `text`, fewer than PIECE, begin a form
   * (the most that do): the start of a secret that a cut through the text
   * left, too short for a piece. 0 when none do.
   */
  startAtEnd(text: string): number {
    for (let length = Math.min(PIECE - 1, text.length); length > 0; length--) {
      if (this.starts.has(folded(text.slice(text.length - length)))) return length;
    }
    return 0;
  }
}

/**
 * The pieces of one length: an open-addressing table of where each starts in
 * `source`, doubled (and filled anew) when it is half full, so that adding a
 * form costs its own pieces, amortized.
 */
class PieceTable {
  /** The forms' characters, one form after another, in the first `used` places. */
  private source = new Uint16Array(256);
  /** For each character of `source`, the kind of its form. */
  private kinds = new Uint8Array(256);
  private used = 0;
  /** For each slot, where its piece starts in `source`; -1 when empty. */
  private slots = new Int32Array(16).fill(-1);
  private pieces = 0;
  /** BASE to the power width - 1: what the character leaving the window weighed. */
  private readonly top: number;
  /** Characters read and slots probed by every scan so far. */
  work = 0;

  constructor(readonly width: number) {
    let top = 1;
    for (let i = 1; i < width; i++) top = Math.imul(top, BASE);
    this.top = top;
  }

  add(form: string, kind: number): void {
    const start = this.used;
    if (start + form.length > this.source.length) {
      let size = this.source.length;
      while (size < start + form.length) size *= 2;
      const grown = new Uint16Array(size);
      grown.set(this.source.subarray(0, start));
      this.source = grown;
      const kinds = new Uint8Array(size);
      kinds.set(this.kinds.subarray(0, start));
      this.kinds = kinds;
    }
    const source = this.source;
    for (let i = 0; i < form.length; i++) source[start + i] = form.charCodeAt(i);
    this.kinds.fill(kind, start, start + form.length);
    this.used += form.length;
    const more = form.length - this.width + 1;
    if ((this.pieces + more) * SLOTS_PER_PIECE > this.slots.length) this.resize((this.pieces + more) * SLOTS_PER_PIECE);
    let hash = 0;
    for (let i = 0; i < form.length; i++) {
      hash = this.rolled(
        hash,
        i >= this.width ? fold(source[start + i - this.width] as number) : undefined,
        fold(source[start + i] as number),
      );
      if (i + 1 >= this.width) this.put(hash, start + i + 1 - this.width);
    }
  }

  /** A piece into its slot, unless the same characters are there already. */
  private put(hash: number, at: number): void {
    const mask = this.slots.length - 1;
    let slot = mix(hash) & mask;
    for (; this.slots[slot] !== -1; slot = (slot + 1) & mask) {
      if (this.samePiece(at, this.slots[slot] as number)) return;
    }
    this.slots[slot] = at;
    this.pieces++;
  }

  private resize(least: number): void {
    let size = this.slots.length;
    while (size < least) size *= 2;
    const old = this.slots;
    this.slots = new Int32Array(size).fill(-1);
    this.pieces = 0;
    for (const at of old) {
      if (at === -1) continue;
      let hash = 0;
      for (let k = 0; k < this.width; k++) hash = this.rolled(hash, undefined, fold(this.source[at + k] as number));
      this.put(hash, at);
    }
  }

  /** Every run of `width` characters within text[from, to). */
  scan(text: string, from: number, to: number, found: (start: number, end: number) => boolean): boolean {
    let hash = 0;
    let probes = 0;
    const { width, slots } = this;
    const mask = slots.length - 1;
    try {
      for (let i = from; i < to; i++) {
        hash = this.rolled(
          hash,
          i - from >= width ? fold(text.charCodeAt(i - width)) : undefined,
          fold(text.charCodeAt(i)),
        );
        if (i + 1 - from < width) continue;
        const start = i + 1 - width;
        for (let slot = mix(hash) & mask; slots[slot] !== -1; slot = (slot + 1) & mask) {
          probes++;
          if (!this.matches(text, start, slots[slot] as number)) continue;
          if (found(start, i + 1)) return true;
          break;
        }
      }
      return false;
    } finally {
      this.work += to - from + probes;
    }
  }

  /** The hash of a window moved on by one character: `leaving` out (none while the window fills), `entering` in. */
  private rolled(hash: number, leaving: number | undefined, entering: number): number {
    const kept = leaving === undefined ? hash : hash - Math.imul(leaving, this.top);
    return (Math.imul(kept, BASE) + entering) | 0;
  }

  private samePiece(a: number, b: number): boolean {
    if (this.kinds[a] !== this.kinds[b]) return false;
    for (let k = 0; k < this.width; k++) if (this.source[a + k] !== this.source[b + k]) return false;
    return true;
  }

  private matches(text: string, start: number, piece: number): boolean {
    const kind = this.kinds[piece] as number;
    for (let k = 0; k < this.width; k++) {
      if (!sameCharacter(text.charCodeAt(start + k), this.source[piece + k] as number, kind)) return false;
    }
    return true;
  }
}

/** The hash's bits mixed, so that the table's index (its low bits) depends on all of them. */
function mix(hash: number): number {
  let h = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}
