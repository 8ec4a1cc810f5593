/**
 * What the schema checker needs of a regular-expression engine: the pattern
 * compiled, or why it cannot be. The linear-time engine (patterns/) is one;
 * the checker never runs a pattern on the backtracking RegExp.
 */

/** A compiled pattern: whether it matches anywhere in `text` (unanchored, as JSON Schema's `pattern`). */
export interface PatternTest {
  test(text: string): boolean;
}

export interface PatternEngine {
  /** The pattern ready to test, or `{ unsupported }` saying which construct the engine cannot run. */
  compile(pattern: string): PatternTest | { readonly unsupported: string };
}
