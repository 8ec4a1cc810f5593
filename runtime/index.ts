/**
 * flowsmith's runtime: the client every generated `createSession` calls and
 * through which a backend follows a session to its outcome. Every export is
 * named here, so adding one is a decision (test/types/public-index.ts pins
 * the list). Other entry points: `@flowsmith/runtime/flow-module` (what
 * generated modules import, not for applications), `/patterns` (the
 * linear-time pattern engine), `/service-limits` (the constants alone) and
 * `/internal` (flowsmith's own generator and emulator).
 */
export { createClient, type Client } from "./client.js";
export type { AuthMethod, ClientOptions, RetryOptions } from "./client-options.js";
export type { ProxyOption, ProxySettings } from "./exchange/proxy-url.js";
export type { AttemptLogEntry, Logger } from "./exchange/logging.js";
export type { ExchangeRequest, ExchangeResponse, Middleware, Next, ResponseHeaders } from "./exchange/messages.js";
export { clientCredentialsIn, withoutClientCredentials } from "./secrets/credentials-in.js";
export type { FlowDescriptionOptions } from "./flow-description.js";
export { createMemoryTokenStore, type TokenStore } from "./token-store.js";
export { systemClock, type Clock } from "./clock.js";
export { forEnvironment, type EnvironmentFlow, type FlowModuleOf } from "./environment-flow.js";
export { fileFromPath } from "./files.js";
export type { FileData, FileInput, NamedFile } from "./file-input.js";
export type { FileFromPathOptions } from "./platform/platform.js";
export {
  DEFAULT_DESCRIPTION_PATH,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  ENVIRONMENTS,
  MAX_FILES_PER_REQUEST,
  MAX_REQUEST_BYTES,
  MAX_STATE_LENGTH,
  METADATA_KEYS,
  RECOMMENDED_POLL_INTERVAL_MS,
  SERVICE_LOCALES,
  type Environment,
  type Locale,
} from "./service-limits.js";
export type {
  ActionBody,
  DataBlocks,
  FileDownload,
  FlowRecord,
  RequestOptions,
  SessionMetadata,
  SessionRecord,
  Step,
  StepAction,
  WaitForOutcomeOptions,
  WaitForStepOptions,
} from "./resources.js";
export {
  AbortError,
  ApiError,
  AuthError,
  BadRequestError,
  ClientClosedError,
  ConfigurationError,
  FlowsmithError,
  ForbiddenError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UnprocessableEntityError,
  type ApiErrorCode,
  type AuthErrorCode,
  type RequestValidationCode,
  type ValidationIssue,
} from "./errors.js";
export { decisionOf, parseSessionEndedEvent, type Decision, type SessionEndedEvent } from "./webhooks/event.js";
export { WebhookError, WebhookPayloadError, type WebhookErrorCode } from "./webhooks/errors.js";
export { webhookSecretProblem } from "./webhooks/signature.js";
export {
  createWebhookHandler,
  WEBHOOK_DEFAULTS,
  type SessionEnded,
  type WebhookClient,
  type WebhookDelivery,
  type WebhookHandler,
  type QueuedWebhookHandlerOptions,
  type WebhookHandlerOptions,
  type WebhookRequest,
  type WebhookResponse,
} from "./webhooks/handler.js";
export type { QueuedDelivery, WebhookQueue } from "./webhooks/queue.js";
export { readSessionEnded, type OutcomeWait } from "./webhooks/session-ended.js";
export {
  createRedirectState,
  RedirectStateError,
  stateFromReturnUrl,
  verifyRedirectState,
  type CreateRedirectStateOptions,
  type RedirectStateErrorCode,
  type StateSecret,
  type VerifiedRedirectState,
  type VerifyRedirectStateOptions,
} from "./redirect-state.js";
