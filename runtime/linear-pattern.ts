/**
 * Every regular expression a description or a server gives flowsmith runs
 * here, in time linear in the text it is tested on: RE2's algorithm (the
 * re2js package, plain JavaScript) on the pattern written in RE2's syntax
 * (pattern-translation.ts). The native RegExp backtracks: on `^(a+)+$` its
 * time doubles with each character of a text that fails to match.
 * Generated validators reach it through `validatorRuntime.pattern`
 * (validator-support.ts), the action schemas (action-schemas.ts) and the
 * emulator through ajv's `code.regExp` option; the generator checks each
 * pattern of a description with it, so what codegen accepts also runs.
 *
 * The generator and the emulator import it through `@flowsmith/runtime/internal`
 * (internal.ts); re2js itself is loaded with the first pattern.
 */
import type { RegExpEngine } from "ajv/dist/types";
import type { RE2JS } from "re2js";
import { re2SourceOrThrow, UnsupportedPatternError } from "./pattern-translation.js";

export { UnsupportedPatternError } from "./pattern-translation.js";

/** What ajv needs of a compiled pattern. */
export interface LinearPattern {
  /** Whether the pattern matches anywhere in `text` (unanchored, as JSON Schema's `pattern`). */
  test(text: string): boolean;
  toString(): string;
}

/**
 * The pattern compiled for the linear-time engine. `flags`: ajv passes `u`
 * (patterns are unicode); nothing else is asked of it. Throws a SyntaxError
 * for what is not a valid regular expression, and UnsupportedPatternError
 * for what RE2 cannot run (backreferences, lookaround: see pattern-translation.ts).
 */
export function linearPatternOrThrow(pattern: string, flags = "u"): LinearPattern {
  if (flags !== "u") throw new UnsupportedPatternError(pattern, `flags "${flags}" (patterns run with the u flag only)`);
  // Parsing only, linear in the pattern's length: the native RegExp never runs. It settles the
  // syntax, so the translation can read the pattern as valid ECMAScript.
  new RegExp(pattern, "u");
  const source = re2SourceOrThrow(pattern);
  let compiled: RE2JS;
  try {
    compiled = re2js().RE2JS.compile(source);
  } catch (error) {
    // RE2's own limits (a program too large, nested repetitions over 1000, a script name it does not know).
    throw new UnsupportedPatternError(pattern, `RE2 does not compile it (${(error as Error).message})`);
  }
  const shown = `/${pattern}/u`;
  return { test: (text) => compiled.test(text), toString: () => shown };
}

/**
 * ajv's `code.regExp` option, for every validator of a description's or a
 * server's schema. `code` is how ajv's standalone code refers to it: a
 * generated validator reaches it through its import of `validatorRuntime`
 * (validator-support.ts).
 */
export const linearRegExp: RegExpEngine = Object.assign((pattern: string, flags: string) => linearPatternOrThrow(pattern, flags), {
  code: "validatorRuntime.pattern",
});

let loaded: typeof import("re2js") | undefined;

function re2js(): typeof import("re2js") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on the first pattern: most flows have none
  loaded ??= require("re2js") as typeof import("re2js");
  return loaded;
}
