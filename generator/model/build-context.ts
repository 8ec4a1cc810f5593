/**
 * What every step of the model builder shares: the loaded description and
 * one way to make an error that carries flow, file, pointer and line.
 */
import { isRecord } from "@flowsmith/runtime/internal/json";
import { CodegenError, type CodegenErrorCode } from "../errors.js";
import type { LoadedDescription } from "../read/load-description.js";
import { resolveRefOrThrow, type ResolvedRef } from "../read/refs.js";

/** A value of the document and where it sits. */
export interface Located {
  readonly value: unknown;
  readonly pointer: string;
  /** Pointers of the `$ref` targets expanded on the way here, to refuse recursive schemas. */
  readonly trail: readonly string[];
}

export interface BuildContext {
  readonly loaded: LoadedDescription;
  readonly flow: string | undefined;
  /** What this build has read so far, for the limits of limits.ts. */
  readonly counts: { schemas: number };
  /** Returns (does not throw) the error, so call sites read `throw context.error(...)`. */
  error(code: CodegenErrorCode, detail: string, pointer: string): CodegenError;
  resolveRefOrThrow(ref: string, fromPointer: string): ResolvedRef;
}

export function createBuildContext(loaded: LoadedDescription, flow: string | undefined): BuildContext {
  return {
    loaded,
    flow,
    counts: { schemas: 0 },
    error: (code, detail, pointer) =>
      new CodegenError(code, detail, { flow, file: loaded.file, pointer, line: loaded.lineOfOrUndefined(pointer) }),
    resolveRefOrThrow: (ref, fromPointer) =>
      resolveRefOrThrow(loaded.document, ref, fromPointer, {
        flow,
        file: loaded.file,
        lineOfOrUndefined: (pointer) => loaded.lineOfOrUndefined(pointer),
      }),
  };
}

/** The runtime's (one implementation for runtime, generator and emulator); the model's modules take it from here. */
export { isRecord };

/** Own keys only: a key named `__proto__` or `constructor` in the document is data, never inherited. */
export function ownValue(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The value itself, or what its `$ref` points to (requestBody, response and media objects may be refs). */
export function followRefOrThrow(context: BuildContext, at: Located): Located {
  const ref = isRecord(at.value) ? ownValue(at.value, "$ref") : undefined;
  if (typeof ref !== "string") return at;
  const resolved = context.resolveRefOrThrow(ref, `${at.pointer}/$ref`);
  return { value: resolved.value, pointer: resolved.pointer, trail: at.trail };
}
