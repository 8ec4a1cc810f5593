/**
 * The pattern engine action schemas are checked with: the one
 * `@flowsmith/runtime/patterns` registered when something imported it (a
 * generated flow with patterns, or the application), else whatever the
 * platform loads itself (platform/: Node loads the engine on first need).
 * Where neither is, a pattern of an action schema is left to the service,
 * which checks it anyway, and the client says so once (actions.ts).
 */
import type { PatternEngine } from "./pattern-engine.js";

let registered: PatternEngine | undefined;

export function usePatternEngine(engine: PatternEngine): void {
  registered = engine;
}

export function registeredPatternEngine(): PatternEngine | undefined {
  return registered;
}
