/**
 * Multipart property names in bracket notation: `head[seg][seg]...`, where
 * `[]` is an array element. Segment text is anything but brackets, kept
 * exactly (hyphens, digits, non-ASCII, reserved words).
 */

/** A segment: an object key, or the element of an array (`[]`). */
export type BracketSegment = { readonly key: string } | { readonly element: true };

export interface BracketName {
  /** The whole name, as declared: the literal part name. */
  readonly declared: string;
  /** The head first (`input`), then each bracketed segment. */
  readonly path: readonly BracketSegment[];
}

const NAME = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;
const SEGMENT = /\[([^[\]]*)\]/g;

/** The parsed name, or undefined when the brackets do not pair up. */
export function parseBracketNameOrUndefined(declared: string): BracketName | undefined {
  const match = NAME.exec(declared);
  if (!match) return undefined;
  const [, head = "", rest = ""] = match;
  const path: BracketSegment[] = [{ key: head }];
  for (const [, text = ""] of rest.matchAll(SEGMENT)) path.push(text === "" ? { element: true } : { key: text });
  return { declared, path };
}

export function isElement(segment: BracketSegment): segment is { readonly element: true } {
  return "element" in segment;
}
