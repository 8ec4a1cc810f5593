/**
 * The shape of a control body (a flow description, a fault), checked before
 * anything parses it into values: how deep it nests, and that its mapping
 * keys are names. YAML and JSON are composed into values recursively (the
 * yaml package, js-yaml), so a body nested some hundreds of levels deep runs
 * the composer out of stack (and a second such body can make V8 abort the
 * process), and reading a deep body takes the yaml package far longer than a
 * flat one of its size. A key that is a collection or an alias (`? [a]`,
 * `{[a]: 1}`, `*a : 1`) is turned into a string by writing its value out,
 * each level again inside the next, so a few hundred bytes of nested
 * collection keys take the yaml package minutes. Neither has a place in a
 * flow description or a fault, so both are refused here, first.
 *
 * The yaml package's own lexer and CST parser read the text token by token,
 * building no values: the list of collections they are in (`parser.stack`)
 * is the depth the composer would recurse to, and the CST they leave holds
 * every key as written, by YAML's whole grammar (quotes, comments, block
 * scalars, flow and block collections, and what the parser accepts with
 * errors), so no way of writing a body hides either. Reading stops at the
 * first token past MAX_NESTING levels, so a deep body costs a few hundred
 * tokens whatever its size, and any other body one pass over its tokens and
 * one over its CST, cut into turns so that other requests are served in
 * between.
 */
import { CST, Lexer, LineCounter, Parser } from "yaml";
import { EmulatorControlError } from "../control-error.js";

/**
 * Levels of nesting a body may have: the generator's own limit for a flow
 * description (which is a few dozen levels deep), and half the depth at which
 * the yaml package's composer runs out of stack.
 */
export const MAX_NESTING = 400;

/** Tokens (or CST entries) read in one turn: a short stretch of work, then other requests may run. */
export const TOKENS_PER_TURN = 2048;

/**
 * The check as a generator: it yields after each TOKENS_PER_TURN tokens or
 * CST entries (a caller may pause there), and throws EmulatorControlError
 * BODY_TOO_DEEP at the first token past MAX_NESTING levels, or
 * BODY_KEY_NOT_A_NAME at the first key that is a collection or an alias.
 */
function* shapeTurns(text: string): Generator<void, void, undefined> {
  const lines = new LineCounter();
  // The parser reports each line after the first as it starts one.
  lines.addNewLine(0);
  const parser = new Parser(lines.addNewLine);
  const documents: CST.Document[] = [];
  let work = 0;
  for (const lexeme of new Lexer().lex(text)) {
    const start = parser.offset;
    for (const token of parser.next(lexeme)) if (token.type === "document") documents.push(token);
    // The stack's first entry is the document itself.
    if (parser.stack.length - 1 > MAX_NESTING) throw tooDeep(lines.linePos(start));
    if (++work % TOKENS_PER_TURN === 0) yield;
  }
  for (const token of parser.end()) if (token.type === "document") documents.push(token);
  for (const document of documents) {
    const collections = document.value ? [document.value] : [];
    for (let node = collections.pop(); node; node = collections.pop()) {
      if (!CST.isCollection(node)) continue;
      for (const item of node.items) {
        const key = item.key;
        if (key && (CST.isCollection(key) || key.type === "alias")) throw keyNotAName(lines.linePos(key.offset));
        if (item.value) collections.push(item.value);
        if (++work % TOKENS_PER_TURN === 0) yield;
      }
    }
  }
}

/** The whole check at once: for a body handed over in-process (the handle's methods). */
export function checkBodyShapeOrThrow(text: string): void {
  const turns = shapeTurns(text);
  while (turns.next().done !== true) {
    // Nothing waits between turns.
  }
}

/** The check in turns, `pause()` between them (by default, one pass of the event loop). */
export async function checkBodyShapeInTurnsOrThrow(
  text: string,
  pause: () => Promise<void> = nextLoopPass,
): Promise<void> {
  const turns = shapeTurns(text);
  while (turns.next().done !== true) await pause();
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

function keyNotAName(at: { line: number; col: number }): EmulatorControlError {
  return new EmulatorControlError(
    "BODY_KEY_NOT_A_NAME",
    `the key at line ${String(at.line)}, column ${String(at.col)} is a collection or an alias; it is refused before it is read (the keys of a flow description are names)`,
  );
}
