/**
 * Type-level tests of the runtime's entry points: `@flowsmith/runtime` is the
 * application's API only; the helpers generated validators, the generator,
 * the emulator and @flowsmith/redis share are on `@flowsmith/runtime/internal`
 * (runtime/internal.ts), the JSON helpers on `@flowsmith/runtime/internal/json`
 * (runtime/json.ts). Compiled by `tsc -p tsconfig.json` and by
 * test/generator/emit-type-tests.test.ts; never run. Each `@ts-expect-error`
 * must meet an error.
 */
import * as runtime from "../../runtime/index.js";
import * as internal from "../../runtime/internal.js";
import * as json from "../../runtime/json.js";

// On /internal and /internal/json: what flowsmith's own code imports.
const helpers = [
  json.isRecord,
  json.pointerTokens,
  json.escapePointerToken,
  json.valueAtTokens,
  internal.issuesFromAjv,
  internal.describeIssues,
  internal.readablePath,
  internal.validatorRuntime,
  internal.validatorFormats,
  internal.linearRegExp,
  internal.linearPatternOrThrow,
  internal.metadataProblems,
] as const;
export type OnInternal = internal.MetadataProblem;
// @ts-expect-error the JSON helpers are on /internal/json alone (one path), which loads nothing else
export type IsRecordOnInternal = (typeof internal)["isRecord"];

// Not on the public index.
type Public = typeof runtime;
// @ts-expect-error isRecord is the generator's helper
export type IsRecord = Public["isRecord"];
// @ts-expect-error pointerTokens is the generator's helper
export type PointerTokens = Public["pointerTokens"];
// @ts-expect-error escapePointerToken is the generator's helper
export type EscapePointerToken = Public["escapePointerToken"];
// @ts-expect-error issuesFromAjv is for generated validators and the emulator
export type IssuesFromAjv = Public["issuesFromAjv"];
// @ts-expect-error describeIssues is for generated validators and the emulator
export type DescribeIssues = Public["describeIssues"];
// @ts-expect-error readablePath is the emulator's helper
export type ReadablePath = Public["readablePath"];
// @ts-expect-error validatorRuntime is what generated validate.ts files call
export type ValidatorRuntime = Public["validatorRuntime"];
// @ts-expect-error validatorFormats is what generated validate.ts files call
export type ValidatorFormats = Public["validatorFormats"];
// @ts-expect-error linearRegExp is the generator's and the emulator's
export type LinearRegExp = Public["linearRegExp"];
// @ts-expect-error linearPatternOrThrow is the generator's
export type LinearPatternOrThrow = Public["linearPatternOrThrow"];
// @ts-expect-error valueAtTokens is the generator's helper
export type ValueAtTokens = Public["valueAtTokens"];
// @ts-expect-error metadataProblems is the runtime's preflight's and the emulator's
export type MetadataProblems = Public["metadataProblems"];
// @ts-expect-error MetadataProblem is the type metadataProblems answers with
export type PublicMetadataProblem = runtime.MetadataProblem;

// The public error stays public (a user may catch it from createSession); /internal has it too.
export const publicError: typeof internal.UnsupportedPatternError = runtime.UnsupportedPatternError;
export { helpers };
