/**
 * `@flowsmith/runtime/internal`: what flowsmith's own generator and emulator
 * take from the runtime and an application does not: the schema checker and
 * its words, and the metadata rule. Not part of the public API: it changes
 * with the flowsmith that generated the code. It loads none of the client
 * (no transport), so the generator can import it.
 *
 * The JSON helpers (isRecord, JSON pointers) are `@flowsmith/runtime/internal/json`
 * (json.ts), which loads nothing else; the pattern engine is `@flowsmith/runtime/patterns`.
 */
export { describeIssues, readablePath } from "./validation/issues.js";
export {
  issuesOf,
  schemaCheckOrThrow,
  SchemaShapeError,
  type Check,
  type JsonSchema,
  type UncheckedPattern,
} from "./validation/schema-check.js";
export type { PatternEngine, PatternTest } from "./validation/pattern-engine.js";
export { metadataProblems, type MetadataProblem } from "./metadata-rule.js";
