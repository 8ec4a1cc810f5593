/**
 * Every regular expression a description or a server gives flowsmith runs
 * here, in time linear in the text it is tested on: RE2's algorithm (the
 * re2js package, plain JavaScript) on the pattern written in RE2's syntax
 * (pattern-translation.ts). The native RegExp backtracks: on `^(a+)+$` its
 * time doubles with each character of a text that fails to match.
 *
 * This folder is `@flowsmith/runtime/patterns`, a module of its own: only a
 * generated flow whose schemas have a pattern imports it, so re2js is loaded
 * (and bundled) only where a pattern is checked (docs: runtime/README.md,
 * "Patterns").
 */
import { RE2JS } from "re2js";
import { re2SourceOrThrow, UnsupportedPatternError } from "./pattern-translation.js";

export { UnsupportedPatternError } from "./pattern-translation.js";

/** A compiled pattern. */
export interface LinearPattern {
  /** Whether the pattern matches anywhere in `text` (unanchored, as JSON Schema's `pattern`). */
  test(text: string): boolean;
  toString(): string;
}

/**
 * The pattern compiled for the linear-time engine, as JSON Schema reads it
 * (an ECMAScript pattern with the `u` flag). Throws a SyntaxError for what is
 * not a valid regular expression, and UnsupportedPatternError for what RE2
 * cannot run (backreferences, lookaround: see pattern-translation.ts).
 */
export function linearPatternOrThrow(pattern: string): LinearPattern {
  // Parsing only, linear in the pattern's length: the native RegExp never runs. It settles the
  // syntax, so the translation can read the pattern as valid ECMAScript.
  new RegExp(pattern, "u");
  const source = re2SourceOrThrow(pattern);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    // RE2's own limits (a program too large, nested repetitions over 1000, a script name it does not know).
    throw new UnsupportedPatternError(pattern, `RE2 does not compile it (${(error as Error).message})`);
  }
  const shown = `/${pattern}/u`;
  return { test: (text) => compiled.test(text), toString: () => shown };
}
