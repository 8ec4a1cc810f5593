/**
 * Patterns a backtracking engine takes exponential (or high polynomial)
 * time on, with the texts that make it do so: nested quantifiers,
 * overlapping alternations and adjacent overlapping repetitions around an
 * atom, and a long run of a character the atom matches ended by one that
 * fails the pattern. The linear-time engine must finish each at once;
 * a native RegExp would not finish any at these lengths. Also patterns the
 * engine cannot run at all (backreferences, lookaround), which the client
 * leaves to the service: codegen generates the flow without that check and
 * its report names the field.
 */
import fc from "fast-check";
import { literalPattern } from "./hostile-text.js";

export interface CatastrophicPattern {
  readonly pattern: string;
  /** Thousands of characters the pattern fails on only after trying every way to split them. */
  readonly hostile: string;
  /** A short text it matches. */
  readonly matching: string;
}

/** An atom, a character it matches, and one that ends a hostile text (it fails the pattern). */
const ATOMS: readonly (readonly [atom: string, matched: string, stopper: string])[] = [
  ["a", "a", "!"],
  ["[a-z]", "q", "1"],
  ["[A-Za-z]", "B", "0"],
  ["\\w", "k", "-"],
  ["\\d", "7", "x"],
  [".", "a", "\n"],
  ["[^!]", "a", "!"],
  ["\\p{L}", "é", "1"],
  ["[^\\s!]", "é", "!"],
  ["(?:a|b)", "a", "c"],
];

/** Shapes around the atom X; each needs the whole text to match, so the stopper makes it try every split. */
const SHAPES: readonly ((atom: string) => string)[] = [
  (x) => `^(${x}+)+$`,
  (x) => `^(${x}*)*$`,
  (x) => `^(?:${x}|${x})+$`,
  (x) => `^(${x}|${x}${x})+$`,
  (x) => `^(${x}+${x}+)+$`,
  (x) => `^(${x}+ ?)+$`,
  (x) => `^((${x}+)+)+$`,
  (x) => `^(${x}{1,3})+$`,
  (x) => `^(?<word>${x}+,?)*$`,
  (x) => `^(${x}+)+(?:${x}*)*$`,
];

export function catastrophicPattern(): fc.Arbitrary<CatastrophicPattern> {
  return catastrophic;
}

const catastrophic = fc
  .tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...SHAPES), fc.integer({ min: 2_000, max: 20_000 }))
  .map(([[atom, matched, stopper], shape, length]) => ({
    pattern: shape(atom),
    hostile: matched.repeat(length) + stopper,
    matching: matched.repeat(3),
  }));

/** A pattern the linear-time engine cannot run, around hostile text. */
export function unsupportedPattern(): fc.Arbitrary<string> {
  return unsupported;
}

const unsupported = fc
  .tuple(
    literalPattern().map((pattern) => pattern.slice(1, -1)),
    fc.constantFrom<(text: string) => string>(
      (t) => `^(${t})\\1$`,
      (t) => `(?<q>${t})\\k<q>`,
      (t) => `^(?=${t})`,
      (t) => `^(?!${t})x`,
      (t) => `(?<=${t})y`,
      (t) => `(?<!${t})z`,
    ),
  )
  .map(([text, shape]) => shape(text));
