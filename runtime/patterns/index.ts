/**
 * `@flowsmith/runtime/patterns`: the linear-time pattern engine, as the
 * schema checker takes it. Generated flows whose schemas have a pattern
 * import it; on Node the client also loads it for the patterns of action
 * schemas (platform/node.ts). Anywhere else, an application that wants those
 * checked on the client imports it once: `import "@flowsmith/runtime/patterns"`.
 */
import { usePatternEngine } from "../validation/pattern-registry.js";
import type { PatternEngine } from "../validation/pattern-engine.js";
import { linearPatternOrThrow, UnsupportedPatternError } from "./linear-pattern.js";

/** Compiled patterns by source: a flow's and an action's schemas repeat a few. */
const compiled = new Map<string, ReturnType<PatternEngine["compile"]>>();
/** Distinct patterns kept at most; a service sends few, so this only bounds a misbehaving one. */
const CAPACITY = 500;

/**
 * The engine itself. Importing this entry registers it; an application only
 * imports the entry (`import "@flowsmith/runtime/patterns"`), never calls it.
 */
export const linearPatterns: PatternEngine = {
  compile(pattern) {
    const known = compiled.get(pattern);
    if (known) return known;
    const made = compileOrUnsupported(pattern);
    if (compiled.size >= CAPACITY) compiled.delete(compiled.keys().next().value as string);
    compiled.set(pattern, made);
    return made;
  },
};

function compileOrUnsupported(pattern: string): ReturnType<PatternEngine["compile"]> {
  try {
    return linearPatternOrThrow(pattern);
  } catch (error) {
    if (error instanceof UnsupportedPatternError) return { unsupported: error.reason };
    if (error instanceof SyntaxError) return { unsupported: `it is not a valid regular expression (${error.message})` };
    throw error;
  }
}

// Importing this module is what makes the engine available to action schemas off Node.
usePatternEngine(linearPatterns);
