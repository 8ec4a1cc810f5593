/**
 * The checks of action bodies, made from the schemas a step offers by the
 * schema checker (validation/schema-check.ts: it walks the schema and
 * compiles no code, so it runs where eval is refused). Each distinct schema
 * is walked once: the cache key is its canonical JSON, so the same schema
 * sent again in every step response costs nothing. Its patterns run on the
 * linear-time engine when one is at hand (validation/pattern-registry.ts,
 * platform/); a pattern it cannot run, or any pattern where no engine is
 * loaded, is left to the service, which checks the action anyway: said once
 * per schema through the client's logger.
 */
import { platform } from "#platform";
import { FlowsmithError } from "./errors.js";
import type { Logger } from "./exchange/logging.js";
import { registeredPatternEngine } from "./validation/pattern-registry.js";
import { schemaCheckOrThrow, SchemaShapeError, type Check, type UncheckedPattern } from "./validation/schema-check.js";

/** Distinct schemas kept at most; a service offers few, so this only bounds a misbehaving one. */
const CAPACITY = 200;

const made = new Map<string, Check>();

export function actionCheckOrThrow(schema: unknown, actionType: string, logger: Logger | undefined): Check {
  const key = canonicalJson(schema);
  const cached = made.get(key);
  if (cached) return cached;
  const check = walkOrThrow(schema, actionType, logger);
  if (made.size >= CAPACITY) made.delete(made.keys().next().value as string);
  made.set(key, check);
  return check;
}

/** How many schemas were walked so far (tests prove the cache with it). */
export function actionSchemaCount(): number {
  return made.size;
}

function walkOrThrow(schema: unknown, actionType: string, logger: Logger | undefined): Check {
  if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null)) {
    throw new FlowsmithError(
      "INVALID_ACTION_SCHEMA",
      `The step's schema for action ${actionType} is not a JSON Schema`,
    );
  }
  const unchecked: UncheckedPattern[] = [];
  const patterns = registeredPatternEngine() ?? platform.patternEngine();
  try {
    const check = schemaCheckOrThrow(schema, {
      ...(patterns ? { patterns } : {}),
      onUnchecked: (pattern) => unchecked.push(pattern),
    });
    for (const { pointer, reason } of unchecked) {
      logger?.warn(
        { actionType, pointer, reason },
        `flowsmith: the schema of action ${actionType} has a pattern at ${pointer} that is not checked on the client (${reason}); the service checks it`,
      );
    }
    return check;
  } catch (error) {
    if (!(error instanceof SchemaShapeError)) throw error;
    throw new FlowsmithError(
      "INVALID_ACTION_SCHEMA",
      `The step's schema for action ${actionType} cannot be used: ${error.message}`,
      { cause: error },
    );
  }
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
