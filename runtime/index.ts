/**
 * flowsmith's runtime: the client every generated `createSession` calls and
 * through which a backend follows a session to its outcome.
 */
export * from "./flow-spec.js";
export * from "./service-limits.js";
export { createClient, type Client } from "./client.js";
export { clientCredentialsIn, withoutClientCredentials } from "./credentials-in.js";
export type { FlowDescriptionOptions } from "./flow-description.js";
export type { AuthMethod, ClientOptions, RetryOptions } from "./client-options.js";
export type { ProxyOption, ProxySettings } from "./exchange/dispatcher.js";
export type { AttemptLogEntry, Logger } from "./exchange/logging.js";
export type { ExchangeRequest, ExchangeResponse, Middleware, Next } from "./exchange/messages.js";
export { createMemoryTokenStore, type TokenStore } from "./token-store.js";
export { systemClock, type Clock } from "./clock.js";
export { createSessionFor, createSessionWith } from "./create-session.js";
export { forEnvironment, type EnvironmentFlow, type FlowModuleOf } from "./environment-flow.js";
export { fileFromPath, type FileData, type FileInput, type NamedFile } from "./files.js";
export type { RequestValidator } from "./request-validator.js";
export { UnsupportedPatternError } from "./pattern-translation.js";
// Also `@flowsmith/runtime/service-limits` (these constants alone), and `@flowsmith/runtime/internal`:
// what generated validators, the generator and the emulator take from the runtime (not for applications).
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
export { decisionOf, parseSessionEndedEvent, type Decision, type SessionEndedEvent } from "./webhook-event.js";
export { WebhookError, WebhookPayloadError, type WebhookErrorCode } from "./webhook-errors.js";
export { webhookSecretProblem } from "./webhook-signature.js";
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
} from "./webhook-handler.js";
export type { QueuedDelivery, WebhookQueue } from "./webhook-queue.js";
export { readSessionEnded, type OutcomeWait } from "./session-ended.js";
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
