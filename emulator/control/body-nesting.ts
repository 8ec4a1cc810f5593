/**
 * How deep a control body (a flow description, a fault) nests, measured
 * before anything parses it into values. YAML and JSON are composed into
 * values recursively (the yaml package, js-yaml), so a body nested some
 * hundreds of levels deep runs the composer out of stack (and a second such
 * body can make V8 abort the process), and reading a deep body takes the
 * yaml package far longer than a flat one of its size: such a body is
 * refused here, before. The yaml package's own lexer and CST parser read the text
 * token by token, building no values and keeping the collections they are
 * in on a list (`parser.stack`): its length is the depth the composer would
 * recurse to, by YAML's whole grammar (quotes, comments, block scalars, flow
 * and block collections, and what the parser accepts with errors), so no
 * way of writing a body can hide its depth. Reading stops as soon as the
 * depth passes MAX_NESTING, so a deep body costs a few hundred tokens
 * whatever its size, and any other body one pass over its tokens, cut into
 * turns so that other requests are served in between.
 */
import { Lexer, LineCounter, Parser } from "yaml";
import { EmulatorControlError } from "../control-error.js";

/**
 * Levels of nesting a body may have: the generator's own limit for a flow
 * description (which is a few dozen levels deep), and half the depth at which
 * the yaml package's composer runs out of stack.
 */
export const MAX_NESTING = 400;

/** Tokens read in one turn: a short stretch of work, then other requests may run. */
export const TOKENS_PER_TURN = 2048;

/**
 * The check as a generator: it yields after each TOKENS_PER_TURN tokens (a
 * caller may pause there) and throws EmulatorControlError BODY_TOO_DEEP at
 * the first token past MAX_NESTING levels.
 */
export function* nestingTurns(text: string): Generator<void, void, undefined> {
  const lines = new LineCounter();
  // The parser reports each line after the first as it starts one.
  lines.addNewLine(0);
  const parser = new Parser(lines.addNewLine);
  let tokens = 0;
  for (const lexeme of new Lexer().lex(text)) {
    const start = parser.offset;
    for (const _ of parser.next(lexeme)) {
      // A finished document (its CST) is not kept.
    }
    // The stack's first entry is the document itself.
    if (parser.stack.length - 1 > MAX_NESTING) throw tooDeep(lines.linePos(start));
    tokens += 1;
    if (tokens % TOKENS_PER_TURN === 0) yield;
  }
}

/** The whole check at once: for a body handed over in-process (the handle's methods). */
export function checkNestingOrThrow(text: string): void {
  for (const _ of nestingTurns(text)) {
    // Nothing waits between turns.
  }
}

/** The check in turns, `pause()` between them (by default, one pass of the event loop). */
export async function checkNestingInTurnsOrThrow(text: string, pause: () => Promise<void> = nextLoopPass): Promise<void> {
  for (const _ of nestingTurns(text)) await pause();
}

function nextLoopPass(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function tooDeep(at: { line: number; col: number }): EmulatorControlError {
  return new EmulatorControlError(
    "BODY_TOO_DEEP",
    `the body nests more than ${String(MAX_NESTING)} levels deep (at line ${String(at.line)}, column ${String(at.col)}); it is refused before it is read (a flow description is a few dozen levels deep)`,
  );
}
