/**
 * YAML (and JSON, which the yaml package reads as YAML 1.2) into plain values,
 * keeping the parsed Document so a JSON pointer can be mapped back to a line.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import { CodegenError } from "../errors.js";
import { appendPointer, pointerKeys } from "./json-pointer.js";

export interface ParsedYaml {
  readonly document: unknown;
  lineOfOrUndefined(pointer: string): number | undefined;
}

export function parseYamlOrThrow(text: string, file: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const parsed = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const lineOfOrUndefined = (pointer: string): number | undefined => lineOfPointerOrUndefined(parsed, lineCounter, pointer);
  const [first] = parsed.errors;
  if (first) {
    const line = lineCounter.linePos(first.pos[0]).line;
    const message = first.message.split("\n")[0] ?? first.message;
    if (first.code === "DUPLICATE_KEY") {
      const key = duplicateKeyOrUndefined(parsed, first.pos[0]);
      const pointer = key ? appendPointer(key.mapPointer, key.name) : undefined;
      const what = key ? `"${key.name}" appears twice in one mapping` : "the same key appears twice in one mapping";
      throw new CodegenError("DUPLICATE_NAME", `${what}; names must be unique`, { file, line, pointer });
    }
    throw new CodegenError("SYNTAX_ERROR", `not valid YAML or JSON: ${message}`, { file, line });
  }
  try {
    return { document: parsed.toJS({ maxAliasCount: 1000 }), lineOfOrUndefined };
  } catch (error) {
    throw new CodegenError("SYNTAX_ERROR", `cannot read YAML: ${(error as Error).message}`, { file }, { cause: error });
  }
}

/** Line of the key naming the pointer's target (or of the value, for array items and the root). */
function lineOfPointerOrUndefined(parsed: Document, lineCounter: LineCounter, pointer: string): number | undefined {
  let node: unknown = parsed.contents;
  let offset = offsetOf(node);
  for (const key of pointerKeys(pointer)) {
    if (isAlias(node)) node = node.resolve(parsed);
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && keyText(item.key) === key);
      if (!pair) return undefined;
      offset = offsetOf(pair.key);
      node = pair.value;
    } else if (isSeq(node) && /^(0|[1-9]\d*)$/.test(key)) {
      node = node.items[Number(key)];
      offset = offsetOf(node);
    } else {
      return undefined;
    }
  }
  return offset === undefined ? undefined : lineCounter.linePos(offset).line;
}

/** The repeated key at `offset` and the pointer of the mapping holding it. */
function duplicateKeyOrUndefined(parsed: Document, offset: number): { mapPointer: string; name: string } | undefined {
  const visit = (node: unknown, pointer: string): { mapPointer: string; name: string } | undefined => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const name = keyText(pair.key);
        if (name === undefined) continue;
        if (offsetOf(pair.key) === offset) return { mapPointer: pointer, name };
        const found = visit(pair.value, appendPointer(pointer, name));
        if (found) return found;
      }
    } else if (isSeq(node)) {
      for (const [index, item] of node.items.entries()) {
        const found = visit(item, appendPointer(pointer, index));
        if (found) return found;
      }
    }
    return undefined;
  };
  return visit(parsed.contents, "#");
}

function keyText(key: unknown): string | undefined {
  return isScalar(key) ? String(key.value) : undefined;
}

function offsetOf(node: unknown): number | undefined {
  return (node as Node | null | undefined)?.range?.[0];
}
