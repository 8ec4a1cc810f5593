/**
 * Two properties of a parsed document that every later step relies on and
 * that the OpenAPI schema does not check: it is not nested deeper than the
 * readers (and ajv's OpenAPI validation) can walk without running out of
 * stack, and every number is finite (YAML's `.inf` and `.nan` have no JSON
 * spelling, so a description the service produces never holds one).
 * Checked by one loop with an explicit stack, so any depth is safe to check.
 */
import { CodegenError } from "../errors.js";
import { appendPointer } from "./json-pointer.js";
import { valueText } from "./value-text.js";

/**
 * Deepest nesting of mappings and sequences a description may have. A
 * request schema at the model's own limit (MAX_SCHEMA_DEPTH, 64 levels) is
 * about 140 levels of document, or 270 with an allOf at every level; the
 * yaml package and ajv need around 800 before they run out of stack.
 */
export const MAX_DOCUMENT_DEPTH = 400;

export interface DocumentPlace {
  readonly file: string;
  lineOfOrUndefined(pointer: string): number | undefined;
  scalarTextOrUndefined(pointer: string): string | undefined;
}

interface Visit {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string | number | undefined;
  readonly parent: Visit | undefined;
}

export function checkDocumentShapeOrThrow(document: unknown, place: DocumentPlace): void {
  const stack: Visit[] = [{ value: document, depth: 0, key: undefined, parent: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof value === "number" && !Number.isFinite(value)) throw notFinite(visit, place);
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_DOCUMENT_DEPTH) throw tooDeep(visit, place);
    // Pushed in reverse, so the first problem in document order is the one reported; only what can hold
    // one is pushed (most values are strings).
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) pushIfToCheck(stack, value[index], index, visit);
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i] as string;
        pushIfToCheck(stack, (value as Record<string, unknown>)[key], key, visit);
      }
    }
  }
}

function pushIfToCheck(stack: Visit[], value: unknown, key: string | number, parent: Visit): void {
  if ((typeof value === "object" && value !== null) || (typeof value === "number" && !Number.isFinite(value))) {
    stack.push({ value, depth: parent.depth + 1, key, parent });
  }
}

function pointerOf(visit: Visit): string {
  const keys: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return appendPointer("#", ...keys.reverse());
}

function notFinite(visit: Visit, place: DocumentPlace): CodegenError {
  const pointer = pointerOf(visit);
  const written = place.scalarTextOrUndefined(pointer) ?? valueText(visit.value);
  return new CodegenError(
    "INVALID_OPENAPI",
    `${written} is not a finite number; JSON has no infinity or NaN, so a flow description holds only finite numbers`,
    { file: place.file, pointer, line: place.lineOfOrUndefined(pointer) },
  );
}

function tooDeep(visit: Visit, place: DocumentPlace): CodegenError {
  const pointer = pointerOf(visit);
  return new CodegenError(
    "TOO_DEEP",
    `the document nests more than ${String(MAX_DOCUMENT_DEPTH)} levels deep here; a flow description is a few dozen levels deep`,
    { file: place.file, pointer, line: place.lineOfOrUndefined(pointer) },
  );
}
