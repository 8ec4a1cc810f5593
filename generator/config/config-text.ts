/**
 * The text of codegen.config.json: JSON with comments and trailing commas
 * (JSONC, as editors write tsconfig.json), read by jsonc-parser into a value
 * and a syntax tree, so every message can name the line and column of what
 * it is about. `flowsmith add` edits the same text (append-flow.ts).
 */
import { createScanner, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { pointerTokens } from "@flowsmith/runtime/internal/json";
import { CodegenError } from "../errors.js";

/** 1-based, as editors show them. */
interface TextPosition {
  readonly line: number;
  readonly column: number;
}

export interface ConfigText {
  readonly value: unknown;
  /**
   * Where the pointer's value starts; with `key`, where that key of the
   * pointer's object is written (an unknown key is shown at its name).
   */
  positionOfOrUndefined(pointer: string, key?: string): TextPosition | undefined;
}

const JSONC = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false } as const;

/**
 * Deepest nesting of objects and arrays a config may have. The schema's
 * deepest key is five levels down; jsonc-parser parses by recursion, so a
 * file nested tens of thousands deep would overflow the stack before any
 * message could name where.
 */
const MAX_CONFIG_DEPTH = 64;

/** jsonc-parser's SyntaxKind members this code reads (a const enum, which isolated modules cannot import). */
export const TOKEN = {
  openBrace: 1,
  closeBrace: 2,
  openBracket: 3,
  closeBracket: 4,
  comma: 5,
  lineComment: 12,
  blockComment: 13,
  lineBreak: 14,
  space: 15,
  eof: 17,
} as const;

/** What jsonc-parser's codes mean, in the words of the message. */
const FAULTS: Readonly<Record<string, string>> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "not a number",
  PropertyNameExpected: "a key in double quotes was expected",
  ValueExpected: "a value was expected",
  ColonExpected: "a colon was expected",
  CommaExpected: "a comma was expected",
  CloseBraceExpected: "a closing } was expected",
  CloseBracketExpected: "a closing ] was expected",
  EndOfFileExpected: "nothing may follow the closing }",
  InvalidCommentToken: "an unfinished comment",
  UnexpectedEndOfComment: "a /* comment is not closed",
  UnexpectedEndOfString: "a string is not closed",
  UnexpectedEndOfNumber: "a number is cut off",
  InvalidUnicode: "a bad \\u escape",
  InvalidEscapeCharacter: "a bad escape in a string",
  InvalidCharacter: "a control character in a string",
};

export function parseConfigTextOrThrow(text: string, file: string): ConfigText {
  if (text.trim() === "") {
    throw new CodegenError(
      "CONFIG_INVALID",
      'the config file is empty: write at least { "outputDir": "generated", "flows": [...] } (docs/generating.md, codegen.config.json)',
      { file },
    );
  }
  refuseDeepNestingOrThrow(text, file);
  const faults: ParseError[] = [];
  const root = parseTree(text, faults, JSONC);
  const fault = faults[0];
  if (fault || !root) {
    const at = positionAt(text, fault?.offset ?? 0);
    const what = fault
      ? (FAULTS[printParseErrorCode(fault.error)] ?? printParseErrorCode(fault.error))
      : "no JSON value";
    throw new CodegenError("CONFIG_INVALID", `not valid JSON (comments and trailing commas are allowed): ${what}`, {
      file,
      ...at,
    });
  }
  refuseProtoKeysOrThrow(root, text, file);
  // The tree is not held for the run (it grows with the flows, and a position is wanted only for a message): the
  // text is parsed again the first time a message needs a position (bench/analysis.md, "Peak memory").
  let tree: Node | undefined;
  return {
    value: getNodeValue(root) as unknown,
    positionOfOrUndefined: (pointer, key) => {
      tree ??= parseTree(text, [], JSONC);
      const node = tree && nodeAt(tree, pointerTokens(pointer.replace(/^#/, "")));
      if (!node) return undefined;
      if (key === undefined) return positionAt(text, node.offset);
      const member =
        node.type === "object" ? node.children?.find((property) => property.children?.[0]?.value === key) : undefined;
      return positionAt(text, (member ?? node).offset);
    },
  };
}

/** One pass of jsonc-parser's scanner (a loop, not recursion), before the parser recurses. */
function refuseDeepNestingOrThrow(text: string, file: string): void {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token: number = scanner.scan(); token !== TOKEN.eof; token = scanner.scan()) {
    if (token === TOKEN.openBrace || token === TOKEN.openBracket) depth += 1;
    else if (token === TOKEN.closeBrace || token === TOKEN.closeBracket) depth -= 1;
    if (depth > MAX_CONFIG_DEPTH) {
      throw new CodegenError(
        "CONFIG_INVALID",
        `nested more than ${String(MAX_CONFIG_DEPTH)} levels deep here; a config is a few levels deep (docs/generating.md, codegen.config.json)`,
        {
          file,
          ...positionAt(text, scanner.getTokenOffset()),
        },
      );
    }
  }
}

/**
 * jsonc-parser builds objects by assignment, where `"__proto__": {...}` would
 * set the prototype instead of a key. No key of the config is named so; say
 * it is unknown before it can be misread.
 */
function refuseProtoKeysOrThrow(node: Node, text: string, file: string): void {
  if (node.type === "property" && node.children?.[0]?.value === "__proto__") {
    throw new CodegenError("CONFIG_INVALID", 'unknown key "__proto__"', { file, ...positionAt(text, node.offset) });
  }
  for (const child of node.children ?? []) refuseProtoKeysOrThrow(child, text, file);
}

function nodeAt(root: Node, tokens: readonly string[]): Node | undefined {
  let node: Node | undefined = root;
  for (const token of tokens) {
    if (node?.type === "array") node = /^(0|[1-9]\d*)$/.test(token) ? node.children?.[Number(token)] : undefined;
    else if (node?.type === "object")
      node = node.children?.find((property) => property.children?.[0]?.value === token)?.children?.[1];
    else return undefined;
  }
  return node;
}

function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
