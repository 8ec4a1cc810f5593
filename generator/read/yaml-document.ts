/**
 * YAML (and JSON, which the yaml package reads as YAML 1.2) into plain values
 * with the yaml package, keeping the parsed Document so a JSON pointer can be
 * mapped back to a line. yaml-source.ts calls it for the documents
 * plain-yaml.ts declines and for the lines of messages.
 */
import type { Document, LineCounter, Node } from "yaml";
import { CodegenError } from "../errors.js";
import { appendPointer, pointerKeys } from "./json-pointer.js";
import { valueText } from "./value-text.js";

export interface ParsedYaml {
  readonly document: unknown;
  lineOfOrUndefined(pointer: string): number | undefined;
  /** The source text of the scalar a pointer names (`.inf`, `1e999`), for messages that quote it as written. */
  scalarTextOrUndefined(pointer: string): string | undefined;
}

/** The yaml package: slower, and it knows where each value is. */
export function parseWithPositionsOrThrow(text: string, file: string): ParsedYaml {
  const lineCounter = new (yaml().LineCounter)();
  const parsed = parseOrThrow(text, file, lineCounter);
  const lineOfOrUndefined = (pointer: string): number | undefined => {
    const offset = locateOrUndefined(parsed, pointer)?.offset;
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
  const scalarTextOrUndefined = (pointer: string): string | undefined => {
    const node = locateOrUndefined(parsed, pointer)?.node;
    const range = yaml().isScalar(node) ? node.range : undefined;
    return range ? text.slice(range[0], range[1]).trim() : undefined;
  };
  const [first] = parsed.errors;
  if (first) {
    const line = lineCounter.linePos(first.pos[0]).line;
    const message = first.message.split("\n")[0] ?? first.message;
    // The yaml package composes collections recursively and reports running out of stack this way.
    if (first.code === "RESOURCE_EXHAUSTION") throw tooDeep(file, line);
    throw new CodegenError("SYNTAX_ERROR", `not valid YAML or JSON: ${message}`, { file, line });
  }
  const repeated = firstRepeatedKeyOrUndefined(parsed);
  if (repeated) {
    const line = lineCounter.linePos(repeated.offset).line;
    throw new CodegenError(
      "DUPLICATE_KEY",
      `${valueText(repeated.name)} appears twice in one mapping; names must be unique`,
      {
        file,
        line,
        pointer: appendPointer(repeated.mapPointer, repeated.name),
      },
    );
  }
  try {
    return { document: parsed.toJS({ maxAliasCount: 1000 }), lineOfOrUndefined, scalarTextOrUndefined };
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(file, undefined, error);
    throw new CodegenError("SYNTAX_ERROR", `cannot read YAML: ${(error as Error).message}`, { file }, { cause: error });
  }
}

function parseOrThrow(text: string, file: string, lineCounter: LineCounter): Document {
  try {
    // Repeated keys are found by firstRepeatedKeyOrUndefined: the package's own check (uniqueKeys)
    // compares each key with every earlier one of its mapping, quadratic in the mapping's size.
    return yaml().parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(file, undefined, error);
    throw error;
  }
}

/** A document nested some thousand levels deep: its depth, not a bug, so the same code as document-shape.ts gives. */
function tooDeep(file: string, line: number | undefined, cause?: unknown): CodegenError {
  return new CodegenError(
    "TOO_DEEP",
    "the document nests too deeply to be read (thousands of levels); a flow description is a few dozen levels deep",
    { file, ...(line === undefined ? {} : { line }) },
    cause === undefined ? undefined : { cause },
  );
}

/** The node a pointer names, and the offset of the key naming it (of the value, for array items and the root). */
function locateOrUndefined(
  parsed: Document,
  pointer: string,
): { node: unknown; offset: number | undefined } | undefined {
  let node: unknown = parsed.contents;
  let offset = offsetOf(node);
  for (const key of pointerKeys(pointer)) {
    if (yaml().isAlias(node)) node = node.resolve(parsed);
    if (yaml().isMap(node)) {
      const pair = node.items.find((item) => yaml().isPair(item) && keyText(item.key) === key);
      if (!pair) return undefined;
      offset = offsetOf(pair.key);
      node = pair.value;
    } else if (yaml().isSeq(node) && /^(0|[1-9]\d*)$/.test(key)) {
      node = node.items[Number(key)];
      offset = offsetOf(node);
    } else {
      return undefined;
    }
  }
  if (yaml().isAlias(node)) node = node.resolve(parsed);
  return { node, offset };
}

/**
 * The first key, in the order of the file, that repeats an earlier key of its mapping (keys equal as
 * the yaml package compares them: the same scalar value), with the pointer of that mapping and the
 * key's offset. One pass with a set per mapping; an explicit stack, so no depth the parse took can
 * overflow it.
 */
function firstRepeatedKeyOrUndefined(
  parsed: Document,
): { mapPointer: string; name: string; offset: number } | undefined {
  interface Frame {
    readonly items: readonly unknown[];
    readonly pointer: string;
    /** Scalar key values seen so far; undefined for a sequence. */
    readonly keys: Set<unknown> | undefined;
    next: number;
  }
  const frameOf = (node: unknown, pointer: string): Frame | undefined => {
    if (yaml().isMap(node)) return { items: node.items, pointer, keys: new Set(), next: 0 };
    if (yaml().isSeq(node)) return { items: node.items, pointer, keys: undefined, next: 0 };
    return undefined;
  };
  const root = frameOf(parsed.contents, "#");
  const stack = root ? [root] : [];
  for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
    const index = frame.next++;
    if (index >= frame.items.length) {
      stack.pop();
      continue;
    }
    const item = frame.items[index];
    if (!frame.keys) {
      const child = frameOf(item, appendPointer(frame.pointer, index));
      if (child) stack.push(child);
      continue;
    }
    if (!yaml().isPair(item)) continue;
    const name = keyText(item.key);
    if (name === undefined) continue;
    const value = (item.key as { value: unknown }).value;
    if (frame.keys.has(value)) return { mapPointer: frame.pointer, name, offset: offsetOf(item.key) ?? 0 };
    frame.keys.add(value);
    const child = frameOf(item.value, appendPointer(frame.pointer, name));
    if (child) stack.push(child);
  }
  return undefined;
}

function keyText(key: unknown): string | undefined {
  return yaml().isScalar(key) ? String(key.value) : undefined;
}

function offsetOf(node: unknown): number | undefined {
  return (node as Node | null | undefined)?.range?.[0];
}

let yamlPackage: typeof import("yaml") | undefined;

/** The yaml package, loaded on first use: a run whose documents plain-yaml.ts reads never loads it. */
function yaml(): typeof import("yaml") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  yamlPackage ??= require("yaml") as typeof import("yaml");
  return yamlPackage;
}
