/**
 * Where known secrets are in a text: every form of each secret
 * (secret-forms.ts), found in every view of the text (text-views.ts), as
 * places in the text itself. redaction.ts replaces them.
 *
 * The search indexes the first KEY_LENGTH characters of each form and
 * compares the rest where those are found: an access token is a kilobyte,
 * and a client remembers up to a hundred of them, each in nine forms, which
 * whole would make a trie of a million nodes built at the first error. A
 * text costs one pass, plus a comparison of the rest of a form wherever its
 * first KEY_LENGTH characters occur: linear in the text, with the form's
 * length as a factor only where those occur at every few characters, which
 * takes a secret that repeats itself (`aaaa…`).
 */
import { LiteralSearch } from "./literal-search.js";
import { searchedFormsOf } from "./secret-forms.js";
import { viewsOf } from "./text-views.js";

/** Characters of a form the search indexes; a shorter form is indexed whole. */
const KEY_LENGTH = 48;

/** The places found: spans to replace, and, in a cut text, where what is kept ends. */
export interface Found {
  /** [start, end) in the text, unsorted, may overlap. */
  readonly spans: [number, number][];
  /** Where the kept text ends: before the start of a secret cut through at its end, or before an escape cut through. */
  readonly end: number;
  /** Whether `end` is before a secret cut through (rather than only before a broken escape). */
  readonly cutThrough: boolean;
}

export class KnownSecrets {
  private readonly search: LiteralSearch;
  /** For each indexed key: the forms that begin with it. */
  private readonly formsOf: (readonly string[])[];

  /**
   * `secrets` each in all their forms; a form shorter than `minLength` is
   * left out. A cut text loses a secret's start at its end when it spans
   * `minFragment` characters of the text or more.
   */
  constructor(
    secrets: Iterable<string>,
    minLength: number,
    private readonly minFragment: number,
  ) {
    const byKey = new Map<string, Set<string>>();
    for (const secret of secrets) {
      for (const form of searchedFormsOf(secret)) {
        if (form.length < minLength) continue;
        const key = form.slice(0, KEY_LENGTH);
        let forms = byKey.get(key);
        if (!forms) byKey.set(key, (forms = new Set()));
        forms.add(form);
      }
    }
    this.search = new LiteralSearch([...byKey.keys()]);
    this.formsOf = [...byKey.values()].map((forms) => [...forms]);
  }

  occursIn(text: string): boolean {
    if (this.formsOf.length === 0) return false;
    return viewsOf(text, false).some((view) => {
      let found = false;
      this.search.scan(view.text, (end, index) => (found = (this.formsOf[index] as readonly string[]).some((form) => view.text.startsWith(form, end - keyLength(form)))));
      return found;
    });
  }

  /** Every place a secret is in `text`; `truncated`: the text was cut at its end (see redaction.ts). */
  find(text: string, truncated: boolean): Found {
    const spans: [number, number][] = [];
    if (this.formsOf.length === 0 && !truncated) return { spans, end: text.length, cutThrough: false };
    let end = text.length;
    let cutThrough = false;
    for (const view of viewsOf(text, truncated)) {
      const { from, text: seen } = view;
      // Where a secret that the text's end cuts through starts in the view, if any.
      let tail = seen.length;
      const started = this.search.scan(seen, (at, index) => {
        for (const form of this.formsOf[index] as readonly string[]) {
          const start = at - keyLength(form);
          if (seen.startsWith(form, start)) spans.push([from[start] as number, from[start + form.length] as number]);
          else if (truncated && start < tail && start + form.length > seen.length && form.startsWith(seen.slice(start))) tail = start;
        }
        return false;
      });
      if (!truncated) continue;
      // A cut shorter than a key: the automaton's last state is the longest ending that begins one.
      tail = Math.min(tail, seen.length - started);
      const start = from[tail] as number;
      if (tail < seen.length && text.length - start >= this.minFragment) {
        end = Math.min(end, start);
        cutThrough = true;
      } else end = Math.min(end, from[seen.length] as number);
    }
    return { spans, end, cutThrough };
  }
}

function keyLength(form: string): number {
  return Math.min(form.length, KEY_LENGTH);
}
