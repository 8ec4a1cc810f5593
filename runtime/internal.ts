/**
 * `@flowsmith/runtime/internal`: what flowsmith's own code takes from the
 * runtime and an application does not: the helpers generated validators
 * (validate.ts) call, and the pattern, validation-issue and metadata-rule
 * helpers the generator and the emulator share with the runtime. Not part of
 * the public API: it changes with the flowsmith that generated the code. It
 * loads none of the client (undici), so the generator can import it.
 *
 * The JSON helpers (isRecord, JSON pointers) are `@flowsmith/runtime/internal/json`
 * (json.ts), which loads nothing else: a codegen run that reuses every flow,
 * and @flowsmith/redis, need them without the validators' ajv-formats.
 */
export { validatorFormats, validatorRuntime } from "./validator-support.js";
export { describeIssues, issuesFromAjv, readablePath, type AjvErrorLike } from "./validation-issues.js";
export { metadataProblems, type MetadataProblem } from "./metadata-rule.js";
// UnsupportedPatternError is public too (index.ts); here for the generator, which must not load the client.
export { linearPatternOrThrow, linearRegExp, UnsupportedPatternError } from "./linear-pattern.js";
