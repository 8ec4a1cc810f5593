/**
 * A flow's two checks, made from its spec's schemas once per spec object: a
 * generated module passes the same constant spec on every call, so each
 * process walks a flow's schemas once. Their patterns run on the linear-time
 * engine: a module whose flow has a pattern imports `@flowsmith/runtime/patterns`,
 * which registers it (pattern-registry.ts); on Node the platform loads it
 * anyway. It is asked for only when a schema has a pattern.
 */
import { platform } from "#platform";
import { FlowsmithError } from "./errors.js";
import type { FlowSpec } from "./flow-spec.js";
import type { PatternEngine } from "./validation/pattern-engine.js";
import { registeredPatternEngine } from "./validation/pattern-registry.js";
import { schemaCheckOrThrow, SchemaShapeError, type Check } from "./validation/schema-check.js";

export interface FlowChecks {
  readonly request: Check;
  readonly response: Check;
}

const made = new WeakMap<object, FlowChecks>();

export function flowChecksOrThrow(spec: FlowSpec): FlowChecks {
  let checks = made.get(spec);
  if (!checks) {
    checks = { request: checkOrThrow(spec, "request"), response: checkOrThrow(spec, "response") };
    made.set(spec, checks);
  }
  return checks;
}

/** The engine, found when the first pattern is met. */
const patterns: PatternEngine = {
  compile(pattern) {
    const engine = registeredPatternEngine() ?? platform.patternEngine();
    return engine
      ? engine.compile(pattern)
      : { unsupported: "no linear-time pattern engine is loaded (import @flowsmith/runtime/patterns)" };
  },
};

function checkOrThrow(spec: FlowSpec, which: "request" | "response"): Check {
  try {
    // A pattern the engine cannot run is never in a generated schema (the generator leaves it to the service and says so).
    return schemaCheckOrThrow(spec[which], { patterns });
  } catch (error) {
    if (!(error instanceof SchemaShapeError)) throw error;
    throw new FlowsmithError(
      "INVALID_SPEC",
      `Flow ${spec.id}'s ${which} schema is damaged (${error.message}): the generated module was edited or comes from another flowsmith; run \`npx flowsmith codegen --force\``,
    );
  }
}
