/**
 * Internal `$ref`s (`#/components/schemas/X`). External documents are not
 * part of a flow description, so they are refused rather than fetched.
 */
import { CodegenError, type CodegenErrorCode } from "../errors.js";
import { pointerTokens, valueAtTokens } from "@flowsmith/runtime/internal/json";
import { appendPointer } from "./json-pointer.js";
import { valueText } from "./value-text.js";

export interface ResolvedRef {
  /** The referenced value, after following any chain of `$ref`-only objects. */
  readonly value: unknown;
  /** Pointer of that value, `#/...`, not percent-encoded. */
  readonly pointer: string;
}

/** What an error needs beyond the pointer; all optional. */
export interface RefErrorPlace {
  readonly flow?: string;
  readonly file?: string;
  lineOfOrUndefined?(pointer: string): number | undefined;
}

export function resolveRefOrThrow(
  document: unknown,
  ref: string,
  fromPointer: string,
  place: RefErrorPlace = {},
): ResolvedRef {
  const fail = (code: CodegenErrorCode, detail: string, pointer: string): CodegenError =>
    new CodegenError(code, detail, {
      flow: place.flow,
      file: place.file,
      pointer,
      line: place.lineOfOrUndefined?.(pointer),
    });
  const visited: string[] = [];
  let current = ref;
  let usedAt = fromPointer;
  for (;;) {
    const keys = refKeysOrThrow(current, usedAt, fail);
    const pointer = appendPointer("#", ...keys);
    if (visited.includes(pointer)) {
      throw fail("UNSUPPORTED_CONSTRUCT", `$ref cycle: ${[...visited, pointer].join(" -> ")}`, fromPointer);
    }
    visited.push(pointer);
    const value = valueAtTokens(document, keys);
    if (value === undefined) {
      throw fail("DANGLING_REF", `$ref ${valueText(current)} points to nothing in this document`, usedAt);
    }
    const next =
      typeof value === "object" && value !== null && Object.hasOwn(value, "$ref")
        ? (value as Record<string, unknown>)["$ref"]
        : undefined;
    if (typeof next !== "string") return { value, pointer };
    current = next;
    usedAt = `${pointer}/$ref`;
  }
}

function refKeysOrThrow(
  ref: string,
  usedAt: string,
  fail: (code: CodegenErrorCode, detail: string, pointer: string) => CodegenError,
): readonly string[] {
  if (!ref.startsWith("#")) {
    throw fail(
      "UNSUPPORTED_CONSTRUCT",
      `$ref ${valueText(ref)} points outside this document; only internal references (#/...) are supported`,
      usedAt,
    );
  }
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    throw fail("DANGLING_REF", `$ref ${valueText(ref)} is not a valid URI fragment (bad percent-encoding)`, usedAt);
  }
  if (fragment === "") return [];
  if (!fragment.startsWith("/")) {
    throw fail("DANGLING_REF", `$ref ${valueText(ref)} is not a JSON pointer (expected "#/...")`, usedAt);
  }
  return pointerTokens(fragment);
}
