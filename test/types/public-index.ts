/**
 * Type-level tests of the runtime's entry points, each pinned to its list:
 * `@flowsmith/runtime` is the application's API only; what a generated flow
 * module imports is on `@flowsmith/runtime/flow-module`; the linear-time
 * pattern engine on `@flowsmith/runtime/patterns`; the schema checker and
 * the helpers the generator, the emulator and @flowsmith/redis share on
 * `@flowsmith/runtime/internal` (runtime/internal.ts), the JSON helpers on
 * `@flowsmith/runtime/internal/json` (runtime/json.ts). A value added to or
 * taken from an entry fails here (`Pinned`); a type export is held to its
 * list by test/generator/emit-type-tests.test.ts, which reads the lists
 * below (tsc cannot list a module's types). Compiled by `tsc -p
 * tsconfig.json` and by that suite; never run. Each `@ts-expect-error` must
 * meet an error.
 */
import * as flowModule from "../../runtime/flow-module.js";
import * as runtime from "../../runtime/index.js";
import * as internal from "../../runtime/internal.js";
import * as json from "../../runtime/json.js";
import * as patterns from "../../runtime/patterns/index.js";

/** `true` when the entry exports exactly the listed names; else what was added to it and what is gone, in the error. */
type Pinned<Exported extends PropertyKey, Listed extends PropertyKey> = [Exported] extends [Listed]
  ? [Listed] extends [Exported]
    ? true
    : { readonly gone: Exclude<Listed, Exported> }
  : { readonly added: Exclude<Exported, Listed> };

/** `@flowsmith/runtime`'s values: adding one is a decision (runtime/index.ts names every export). */
export type PublicValue =
  | "AbortError"
  | "ApiError"
  | "AuthError"
  | "BadRequestError"
  | "ClientClosedError"
  | "ConfigurationError"
  | "DEFAULT_DESCRIPTION_PATH"
  | "DEFAULT_MAX_FILE_BYTES"
  | "DEFAULT_TOKEN_LIFETIME_SECONDS"
  | "ENVIRONMENTS"
  | "FlowsmithError"
  | "ForbiddenError"
  | "InvalidResponseError"
  | "MAX_FILES_PER_REQUEST"
  | "MAX_REQUEST_BYTES"
  | "MAX_STATE_LENGTH"
  | "METADATA_KEYS"
  | "NetworkError"
  | "NotFoundError"
  | "PayloadTooLargeError"
  | "RECOMMENDED_POLL_INTERVAL_MS"
  | "RateLimitError"
  | "RedirectStateError"
  | "RequestValidationError"
  | "SERVICE_LOCALES"
  | "ServerError"
  | "TimeoutError"
  | "UnauthorizedError"
  | "UnprocessableEntityError"
  | "WEBHOOK_DEFAULTS"
  | "WebhookError"
  | "WebhookPayloadError"
  | "clientCredentialsIn"
  | "createClient"
  | "createMemoryTokenStore"
  | "createRedirectState"
  | "createWebhookHandler"
  | "decisionOf"
  | "fileFromPath"
  | "forEnvironment"
  | "parseSessionEndedEvent"
  | "readSessionEnded"
  | "stateFromReturnUrl"
  | "systemClock"
  | "verifyRedirectState"
  | "webhookSecretProblem"
  | "withoutClientCredentials";

/** `@flowsmith/runtime`'s type-only exports (checked against the index by test/generator/emit-type-tests.test.ts). */
export type PublicType =
  | "ActionBody"
  | "ApiErrorCode"
  | "AttemptLogEntry"
  | "AuthErrorCode"
  | "AuthMethod"
  | "Client"
  | "ClientOptions"
  | "Clock"
  | "CreateRedirectStateOptions"
  | "DataBlocks"
  | "Decision"
  | "Environment"
  | "EnvironmentFlow"
  | "ExchangeRequest"
  | "ExchangeResponse"
  | "FileData"
  | "FileDownload"
  | "FileFromPathOptions"
  | "FileInput"
  | "FlowDescriptionOptions"
  | "FlowModuleOf"
  | "FlowRecord"
  | "Locale"
  | "Logger"
  | "Middleware"
  | "NamedFile"
  | "Next"
  | "OutcomeWait"
  | "ProxyOption"
  | "ProxySettings"
  | "QueuedDelivery"
  | "QueuedWebhookHandlerOptions"
  | "RedirectStateErrorCode"
  | "RequestOptions"
  | "RequestValidationCode"
  | "ResponseHeaders"
  | "RetryOptions"
  | "SessionEnded"
  | "SessionEndedEvent"
  | "SessionMetadata"
  | "SessionRecord"
  | "StateSecret"
  | "Step"
  | "StepAction"
  | "TokenStore"
  | "ValidationIssue"
  | "VerifiedRedirectState"
  | "VerifyRedirectStateOptions"
  | "WaitForOutcomeOptions"
  | "WaitForStepOptions"
  | "WebhookClient"
  | "WebhookDelivery"
  | "WebhookErrorCode"
  | "WebhookHandler"
  | "WebhookHandlerOptions"
  | "WebhookQueue"
  | "WebhookRequest"
  | "WebhookResponse";

/** `@flowsmith/runtime/flow-module`: what a generated module imports, and nothing else. */
export type FlowModuleValue = "createFlowSession";
export type FlowModuleType =
  | "BodyForm"
  | "Client"
  | "Environment"
  | "FieldSpec"
  | "FileInput"
  | "FlowSpec"
  | "JsonSchema"
  | "Locale"
  | "PartName"
  | "PartSegment"
  | "RequestOptions";

/** `@flowsmith/runtime/patterns`: the engine, registered as the module loads. */
export type PatternsValue = "linearPatterns";
export type PatternsType = never;

/** `@flowsmith/runtime/internal`: the schema checker, its words and the metadata rule. */
export type InternalValue =
  "SchemaShapeError" | "describeIssues" | "issuesOf" | "metadataProblems" | "readablePath" | "schemaCheckOrThrow";
export type InternalType =
  "Check" | "JsonSchema" | "MetadataProblem" | "PatternEngine" | "PatternTest" | "UncheckedPattern";

/** `@flowsmith/runtime/internal/json`: the JSON helpers alone. */
export type JsonValue = "escapePointerToken" | "isRecord" | "pointerTokens" | "valueAtTokens";
export type JsonType = never;

export const pinned: readonly true[] = [
  true satisfies Pinned<keyof typeof runtime, PublicValue>,
  true satisfies Pinned<keyof typeof flowModule, FlowModuleValue>,
  true satisfies Pinned<keyof typeof patterns, PatternsValue>,
  true satisfies Pinned<keyof typeof internal, InternalValue>,
  true satisfies Pinned<keyof typeof json, JsonValue>,
];

// The pinning can fail: a list with one name too many, or one too few.
// @ts-expect-error "createFlowSession" is not on the public index
export const tooMany = true satisfies Pinned<keyof typeof runtime, PublicValue | "createFlowSession">;
// @ts-expect-error createClient is on the public index, so a list without it is short
export const tooFew = true satisfies Pinned<keyof typeof runtime, Exclude<PublicValue, "createClient">>;

// The generated module's plumbing is not the application's: off the public index since validators are data.
type Public = typeof runtime;
// @ts-expect-error FlowSpec is a generated module's (/flow-module)
export type NoFlowSpec = runtime.FlowSpec;
// @ts-expect-error FieldSpec is a generated module's (/flow-module)
export type NoFieldSpec = runtime.FieldSpec;
// @ts-expect-error PartName is a generated module's (/flow-module)
export type NoPartName = runtime.PartName;
// @ts-expect-error PartSegment is a generated module's (/flow-module)
export type NoPartSegment = runtime.PartSegment;
// @ts-expect-error BodyForm is a generated module's (/flow-module)
export type NoBodyForm = runtime.BodyForm;
// @ts-expect-error createSessionFor is gone: a generated module calls createFlowSession (/flow-module)
export type NoCreateSessionFor = Public["createSessionFor"];
// @ts-expect-error createSessionWith is gone: a generated module calls createFlowSession (/flow-module)
export type NoCreateSessionWith = Public["createSessionWith"];
// @ts-expect-error createFlowSession is a generated module's, not the application's
export type NoCreateFlowSession = Public["createFlowSession"];
// @ts-expect-error RequestValidator is gone: no generated validator code, the schemas are data in spec
export type NoRequestValidator = runtime.RequestValidator;
// @ts-expect-error UnsupportedPatternError is gone: a pattern the engine cannot run is left to the service, not refused
export type NoUnsupportedPatternError = Public["UnsupportedPatternError"];

// Nor are the generator's and the emulator's helpers.
// @ts-expect-error isRecord is the generator's helper
export type IsRecord = Public["isRecord"];
// @ts-expect-error pointerTokens is the generator's helper
export type PointerTokens = Public["pointerTokens"];
// @ts-expect-error escapePointerToken is the generator's helper
export type EscapePointerToken = Public["escapePointerToken"];
// @ts-expect-error valueAtTokens is the generator's helper
export type ValueAtTokens = Public["valueAtTokens"];
// @ts-expect-error describeIssues is the emulator's
export type DescribeIssues = Public["describeIssues"];
// @ts-expect-error readablePath is the emulator's helper
export type ReadablePath = Public["readablePath"];
// @ts-expect-error schemaCheckOrThrow is the runtime's own, and the emulator's
export type SchemaCheckOrThrow = Public["schemaCheckOrThrow"];
// @ts-expect-error issuesOf is the runtime's own, and the emulator's
export type IssuesOf = Public["issuesOf"];
// @ts-expect-error metadataProblems is the runtime's preflight's and the emulator's
export type MetadataProblems = Public["metadataProblems"];
// @ts-expect-error MetadataProblem is the type metadataProblems answers with
export type PublicMetadataProblem = runtime.MetadataProblem;
// @ts-expect-error the pattern engine is its own entry (/patterns), loaded only by flows with a pattern
export type LinearPatterns = Public["linearPatterns"];

// /internal lost the ajv validators' helpers; the JSON helpers are on /internal/json alone (one path), which loads nothing else.
type Internal = typeof internal;
// @ts-expect-error issuesFromAjv is gone with ajv (the checker words its own issues)
export type IssuesFromAjv = Internal["issuesFromAjv"];
// @ts-expect-error validatorRuntime is gone with the generated validate.ts
export type ValidatorRuntime = Internal["validatorRuntime"];
// @ts-expect-error validatorFormats is gone with the generated validate.ts
export type ValidatorFormats = Internal["validatorFormats"];
// @ts-expect-error linearRegExp is gone: the checker takes the engine (/patterns)
export type LinearRegExp = Internal["linearRegExp"];
// @ts-expect-error linearPatternOrThrow is gone: the engine answers `{ unsupported }` (/patterns)
export type LinearPatternOrThrow = Internal["linearPatternOrThrow"];
// @ts-expect-error UnsupportedPatternError is gone
export type InternalUnsupportedPatternError = Internal["UnsupportedPatternError"];
// @ts-expect-error isRecord is on /internal/json
export type IsRecordOnInternal = Internal["isRecord"];

// What each entry's users take from it.
export const flowModuleCall: (client: runtime.Client, spec: flowModule.FlowSpec, request: unknown) => Promise<unknown> =
  flowModule.createFlowSession;
export const compiled: ReturnType<typeof patterns.linearPatterns.compile> = patterns.linearPatterns.compile("^a+$");
export const engine: internal.PatternEngine = patterns.linearPatterns;
export const check: internal.Check = internal.schemaCheckOrThrow(
  { type: "string", pattern: "^a+$" },
  { patterns: engine },
);
export const words: string = internal.describeIssues(internal.issuesOf(check, 1));
export const helpers = [
  json.isRecord,
  json.pointerTokens,
  json.escapePointerToken,
  json.valueAtTokens,
  internal.readablePath,
  internal.metadataProblems,
] as const;
export type OnInternal =
  internal.MetadataProblem | internal.UncheckedPattern | internal.JsonSchema | internal.PatternTest;
