/**
 * Where known secrets are in a text: every piece of every form of each
 * secret (forms.ts, pieces.ts), found in every view of the
 * text (views.ts), as places in the text itself. redaction.ts replaces
 * them.
 *
 * A text costs one pass per piece length over the text as it is, and in each
 * other view only over the stretches around what its decoding wrote (every
 * other run of it is a run of the view it decodes, searched there), each
 * linear (pieces.ts); the places found are merged by marking them on
 * one array over the text, not by sorting them: linear in the text, whatever
 * it holds, as this runs on error paths a server can provoke.
 */
import { SecretPieces } from "./pieces.js";
import { searchedFormsOf } from "./forms.js";
import { visitViews } from "./views.js";

/** The places found: ranges to replace, and, in a cut text, where what is kept ends. */
export interface Found {
  /** [start, end) in the text, in order, neither overlapping nor touching. */
  readonly ranges: readonly (readonly [number, number])[];
  /** Where the kept text ends: before an escape or a character cut through at the end of a cut text, dropped, not replaced. */
  readonly end: number;
}

export class KnownSecrets {
  private readonly pieces: SecretPieces;

  /**
   * A secret or form shorter than `minLength` is left out. A cut text loses a secret's
   * start at its end when it spans `minFragment` characters of the text or
   * more (escapes included).
   */
  constructor(
    private readonly minLength: number,
    private readonly minFragment: number,
  ) {
    this.pieces = new SecretPieces(minLength);
  }

  /** A secret to look for from now on, in all its forms; none shorter than `minLength`. */
  add(secret: string): void {
    if (secret.length >= this.minLength) this.pieces.add(searchedFormsOf(secret));
  }

  /** Characters read and slots probed by every search so far (pieces.ts): what the test of linear time bounds. */
  get work(): number {
    return this.pieces.work;
  }

  occursIn(text: string): boolean {
    if (this.pieces.isEmpty) return false;
    return visitViews(text, false, (view) => this.pieces.scan(view.text, () => true, view.decodedAt));
  }

  /** Every place a secret is in `text`; `truncated`: the text was cut at its end (see redaction.ts). */
  find(text: string, truncated: boolean): Found {
    if (this.pieces.isEmpty && !truncated) return { ranges: [], end: text.length };
    const marks = new Marks(text.length);
    let end = text.length;
    visitViews(text, truncated, ({ text: seen, from, decodedAt }) => {
      const mark = (start: number, stop: number) => {
        marks.add(from[start] as number, from[stop] as number);
        return false;
      };
      this.pieces.scan(seen, mark, decodedAt);
      if (truncated) {
        end = Math.min(end, from[seen.length] as number);
        // A secret cut through at the end, too short there for a piece: from its start on.
        const started = from[seen.length - this.pieces.startAtEnd(seen)] as number;
        if (text.length - started >= this.minFragment) marks.add(started, text.length);
      }
      return false;
    });
    return { ranges: marks.ranges(), end };
  }
}

/** Ranges of a text marked, then read back merged: a count of open ranges per position. */
class Marks {
  private opened: Int32Array | undefined;

  constructor(private readonly length: number) {}

  add(start: number, end: number): void {
    if (end <= start) return;
    this.opened ??= new Int32Array(this.length + 1);
    this.opened[start] = (this.opened[start] as number) + 1;
    this.opened[end] = (this.opened[end] as number) - 1;
  }

  ranges(): [number, number][] {
    const ranges: [number, number][] = [];
    if (!this.opened) return ranges;
    let open = 0;
    let start = 0;
    for (let i = 0; i <= this.length; i++) {
      const before = open;
      open += this.opened[i] as number;
      if (before === 0 && open > 0) start = i;
      else if (before > 0 && open === 0) ranges.push([start, i]);
    }
    return ranges;
  }
}
