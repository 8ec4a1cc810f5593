/**
 * The validators of action bodies, compiled from the schemas a step offers.
 * Each distinct schema is compiled once: the cache key is its canonical JSON,
 * so the same schema sent again in every step response costs nothing.
 * Their patterns run on the linear-time engine (linear-pattern.ts): a server's
 * pattern never runs on the backtracking RegExp, and one the engine cannot run
 * refuses the action (UnsupportedPatternError, nothing sent).
 */
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { FlowsmithError } from "./errors.js";
import { escapePointerToken } from "./json.js";
import { linearRegExp, UnsupportedPatternError } from "./linear-pattern.js";
import { quoted } from "./pattern-translation.js";

/** Distinct schemas kept at most; a service offers few, so this only bounds a misbehaving one. */
const CAPACITY = 200;

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

export function actionValidatorOrThrow(schema: unknown, actionType: string): ValidateFunction {
  const key = canonicalJson(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  const validate = compileOrThrow(schema, actionType);
  if (compiled.size >= CAPACITY) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, validate);
  return validate;
}

/** How many schemas were compiled so far (tests prove the cache with it). */
export function compiledActionSchemaCount(): number {
  return compiled.size;
}

function compileOrThrow(schema: unknown, actionType: string): ValidateFunction {
  if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null)) {
    throw new FlowsmithError("INVALID_ACTION_SCHEMA", `The step's schema for action ${actionType} is not a JSON Schema`);
  }
  try {
    ajv ??= createAjv();
    return ajv.compile(schema);
  } catch (error) {
    // ajv keeps each schema object it was given; one refused again on every call must not pile up.
    if (typeof schema === "object") ajv?.removeSchema(schema);
    if (error instanceof UnsupportedPatternError) {
      const at = pointerOf(schema, error.pattern);
      throw new UnsupportedPatternError(
        error.pattern,
        error.reason,
        `The step's schema for action ${actionType} has a pattern${at === undefined ? "" : ` at ${quoted(at)}`} that the linear-time engine cannot run, so the action cannot be checked and was not sent: ${error.message}`,
      );
    }
    throw new FlowsmithError(
      "INVALID_ACTION_SCHEMA",
      `The step's schema for action ${actionType} cannot be compiled: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

function createAjv(): Ajv {
  // Schemas come from the service; unknown keywords must not stop validation of the ones we know.
  const instance = new Ajv({ allErrors: true, strict: false, addUsedSchema: false, code: { regExp: linearRegExp } });
  addFormats(instance);
  return instance;
}

/**
 * Where in the schema the pattern is (a `pattern` keyword or a `patternProperties` key), for the
 * message; data keywords (`enum`, `const`, `default`, `examples`) are not walked. Depth-first, bounded by the schema's size.
 */
function pointerOf(schema: unknown, pattern: string, at = ""): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    const here = `${at}/${escapePointerToken(key)}`;
    if (key === "pattern" && value === pattern) return here;
    if (key === "patternProperties" && typeof value === "object" && value !== null && Object.hasOwn(value, pattern)) {
      return `${here}/${escapePointerToken(pattern)}`;
    }
    if (DATA_KEYWORDS.has(key)) continue;
    const found = pointerOf(value, pattern, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

const DATA_KEYWORDS: ReadonlySet<string> = new Set(["enum", "const", "default", "examples"]);

/** JSON with object keys sorted at every level: equal schemas give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  // undefined (and functions) have no JSON text: JSON.stringify returns undefined for them.
  return value === undefined || typeof value === "function" ? "null" : JSON.stringify(value);
}
