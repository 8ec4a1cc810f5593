/**
 * The validators of action bodies, compiled from the schemas a step offers.
 * Each distinct schema is compiled once: the cache key is its canonical JSON,
 * so the same schema sent again in every step response costs nothing.
 */
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { FlowsmithError } from "./errors.js";

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
    throw new FlowsmithError(
      "INVALID_ACTION_SCHEMA",
      `The step's schema for action ${actionType} cannot be compiled: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

function createAjv(): Ajv {
  // Schemas come from the service; unknown keywords must not stop validation of the ones we know.
  const instance = new Ajv({ allErrors: true, strict: false, addUsedSchema: false });
  addFormats(instance);
  return instance;
}

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
