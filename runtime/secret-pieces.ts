/**
 * Every run of PIECE characters of a set of strings (the forms of the known
 * secrets, secret-forms.ts), found in a text in one pass: a server may echo
 * any part of a secret, from its start, its middle or its end, so each piece
 * counts, not only the whole. A form shorter than PIECE is one piece, whole.
 *
 * Each piece is kept in a hash table by a rolling hash of its characters; the
 * scan rolls the same hash over the text and compares the characters of a
 * piece only where a slot holds one: time linear in the text (a bounded
 * number of slots per character, each compared in at most PIECE characters),
 * whatever the text. An Aho-Corasick automaton would do the same with a node
 * per character of every piece, which for a client's hundred tokens of a
 * kilobyte, each in several forms, is millions of nodes.
 *
 * The comparison reads a few characters as one: ASCII letters in either case
 * (hex digits and percent escapes are written in both, and a secret written
 * in another case is no less the secret), a space and `+` (a form body writes
 * a space as `+`), `-` and `+`, `_` and `/` (base64url for base64). A text
 * that differs from a secret only there is taken for it: more is redacted,
 * never less.
 */

/** Characters in a row of a secret that make a piece: no run this long of a secret may be shown. */
export const PIECE = 8;

/** Slots at least this many times the pieces: most probes end at an empty slot or the first compare. */
const SLOTS_PER_PIECE = 2;

/** The hash's base: odd, large, so that neighbouring characters spread. */
const BASE = 0x01000193;

/** A character as the comparison reads it (see above). */
function fold(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  if (code === 0x20 || code === 0x2d) return 0x2b;
  if (code === 0x5f) return 0x2f;
  return code;
}

function folded(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(fold(text.charCodeAt(i)));
  return out;
}

export class SecretPieces {
  /** One table per piece length, the longest first. */
  private readonly tables: PieceTable[];
  /** The starts of the forms that `startAtEnd` looks for, folded. */
  private readonly starts: Set<string>;

  /** `forms`, each shorter than `minLength` left out. */
  constructor(forms: Iterable<string>, minLength: number) {
    const byLength = new Map<number, string[]>();
    this.starts = new Set();
    for (const form of forms) {
      if (form.length < minLength) continue;
      const width = Math.min(form.length, PIECE);
      const list = byLength.get(width) ?? [];
      byLength.set(width, list);
      const text = folded(form);
      list.push(text);
      for (let length = 1; length < width; length++) this.starts.add(text.slice(0, length));
    }
    this.tables = [...byLength.entries()].sort(([a], [b]) => b - a).map(([width, list]) => new PieceTable(width, list));
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
   * it returns true (then this returns true).
   */
  scan(text: string, found: (start: number, end: number) => boolean): boolean {
    return this.tables.some((table) => table.scan(text, found));
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

/** The pieces of one length: an open-addressing table of where each starts in `source`. */
class PieceTable {
  /** The forms, folded, one after another. */
  private readonly source: string;
  /** For each slot, where its piece starts in `source`; -1 when empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** BASE to the power width - 1: what the character leaving the window weighed. */
  private readonly top: number;
  /** Characters read and slots probed by every scan so far. */
  work = 0;

  constructor(
    private readonly width: number,
    forms: readonly string[],
  ) {
    this.source = forms.join("");
    const pieces = forms.reduce((sum, form) => sum + form.length - width + 1, 0);
    let size = 16;
    while (size < pieces * SLOTS_PER_PIECE) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    let top = 1;
    for (let i = 1; i < width; i++) top = Math.imul(top, BASE);
    this.top = top;
    let offset = 0;
    for (const form of forms) {
      this.addPieces(offset, form.length);
      offset += form.length;
    }
  }

  /** Every run of `width` characters of source[start, start + length) that is not in the table yet. */
  private addPieces(start: number, length: number): void {
    let hash = 0;
    for (let i = 0; i < length; i++) {
      hash = this.rolled(hash, i >= this.width ? this.source.charCodeAt(start + i - this.width) : undefined, this.source.charCodeAt(start + i));
      if (i + 1 < this.width) continue;
      const at = start + i + 1 - this.width;
      let slot = mix(hash) & this.mask;
      for (; this.slots[slot] !== -1; slot = (slot + 1) & this.mask) {
        if (this.source.startsWith(this.source.slice(at, at + this.width), this.slots[slot])) break;
      }
      if (this.slots[slot] === -1) this.slots[slot] = at;
    }
  }

  scan(text: string, found: (start: number, end: number) => boolean): boolean {
    let hash = 0;
    let probes = 0;
    const width = this.width;
    try {
      for (let i = 0; i < text.length; i++) {
        hash = this.rolled(hash, i >= width ? fold(text.charCodeAt(i - width)) : undefined, fold(text.charCodeAt(i)));
        if (i + 1 < width) continue;
        const start = i + 1 - width;
        for (let slot = mix(hash) & this.mask; this.slots[slot] !== -1; slot = (slot + 1) & this.mask) {
          probes++;
          if (!this.matches(text, start, this.slots[slot] as number)) continue;
          if (found(start, i + 1)) return true;
          break;
        }
      }
      return false;
    } finally {
      this.work += text.length + probes;
    }
  }

  /** The hash of a window moved on by one character: `leaving` out (none while the window fills), `entering` in. */
  private rolled(hash: number, leaving: number | undefined, entering: number): number {
    const kept = leaving === undefined ? hash : hash - Math.imul(leaving, this.top);
    return (Math.imul(kept, BASE) + entering) | 0;
  }

  private matches(text: string, start: number, piece: number): boolean {
    for (let k = 0; k < this.width; k++) {
      if (fold(text.charCodeAt(start + k)) !== this.source.charCodeAt(piece + k)) return false;
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
