/**
 * The one error hierarchy of the runtime. Every error has a `name` and a
 * stable machine `code`; API errors add status, method and path (never the
 * query string, never a token). What a server sent is scrubbed of secrets
 * before an error holds it, and every error a call rejects with passes
 * through the client's Redactor (redaction.ts).
 */
import { excerptOf } from "./secrets/excerpt.js";
import { ENVIRONMENTS } from "./service-limits.js";

/**
 * The base of every error the runtime throws or rejects with: a `name`, a
 * stable machine `code` and a message that says what was wrong and where,
 * never a secret or token. `instanceof FlowsmithError` tells the runtime's
 * errors from any other.
 */
export class FlowsmithError extends Error {
  /** The class's name (`ApiError`, `TimeoutError`, ...), also on its instances for logs and JSON. */
  override readonly name: string = "FlowsmithError";
  constructor(
    /** What went wrong, as a stable machine code (`TIMEOUT`, `INVALID_OPTIONS`, ...): branch on this, not on the message. */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /**
   * What JSON.stringify and loggers write: name, code, message, the error's
   * own fields and its cause, not only the enumerable fields an Error has.
   */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    Object.assign(json, this);
    const cause: unknown = this.cause;
    if (cause instanceof FlowsmithError) json.cause = cause.toJSON();
    else if (typeof cause === "object" && cause !== null && "message" in cause) {
      const { name, code, message } = cause as { name?: unknown; code?: unknown; message?: unknown };
      json.cause = { name, code, message };
    } else if (cause !== undefined) json.cause = cause;
    return json;
  }
}

/** createClient was given options it cannot work with. */
export class ConfigurationError extends FlowsmithError {
  override readonly name = "ConfigurationError";
  constructor(message: string) {
    super("INVALID_OPTIONS", message);
  }
}

/** Why a request was refused before it was sent: the codes of RequestValidationError, most specific first. */
export type RequestValidationCode =
  | "VALIDATION_FAILED"
  | "INVALID_METADATA"
  | "UNSUPPORTED_LOCALE"
  | "STATE_TOO_LONG"
  | "FILE_TOO_LARGE"
  | "TOO_MANY_FILES"
  | "REQUEST_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "ENVIRONMENT_MISMATCH"
  | "INVALID_ACTION"
  | "UNKNOWN_ACTION";

/** Where a request is wrong: a readable path (`input.documents[0].source`) and what is wrong there. */
export interface ValidationIssue {
  /** Where in the request (`input.basicIdentity.familyName`, `input.documents[0].source`). */
  readonly path: string;
  /** What is wrong there (`is required`, `must have at most 150 characters`). */
  readonly message: string;
}

/** A pre-flight check failed on the client: nothing was sent. */
export class RequestValidationError extends FlowsmithError {
  override readonly name = "RequestValidationError";
  constructor(
    /** The first problem's code, in the order the runtime checks (the most specific first). */
    override readonly code: RequestValidationCode,
    message: string,
    /** Every problem found, each with its path. */
    readonly issues: readonly ValidationIssue[] = [],
  ) {
    super(code, message);
  }
}

/**
 * `AUTH_FAILED`: the token request failed (unreachable, refused).
 * `INVALID_TOKEN_RESPONSE`: the auth server answered 2xx with a token that
 * cannot be used (no token, a token unfit for a header, a lifetime that is
 * not a positive number); nothing was cached.
 */
export type AuthErrorCode = "AUTH_FAILED" | "INVALID_TOKEN_RESPONSE";

/** A token could not be had. Names the token URL and status; never the credentials. */
export class AuthError extends FlowsmithError {
  override readonly name = "AuthError";
  declare readonly code: AuthErrorCode;
  constructor(
    /** `{authUrl}/oidc/token`, the URL the token was asked of. */
    readonly tokenUrl: string,
    /** The token endpoint's HTTP status; undefined when it could not be reached. */
    readonly status: number | undefined,
    detail: string,
    options?: { cause?: unknown; code?: AuthErrorCode },
  ) {
    const code = options?.code ?? "AUTH_FAILED";
    const outcome =
      code === "INVALID_TOKEN_RESPONSE"
        ? `answered ${String(status)} without a usable token`
        : `failed${status ? ` with status ${String(status)}` : ""}`;
    // docs/service.md 5.2: a token request sent to {base_url} returns 404; so a 404 here is the address, not the credentials.
    const hint =
      code === "AUTH_FAILED" && status === 404
        ? `. The token URL does not exist: authUrl must be {auth_url}, the token host, not the API host {base_url} (a token request sent there returns 404)`
        : "";
    super(code, `Token request to ${tokenUrl} ${outcome}: ${detail}${hint}`, options);
  }
}

/**
 * The client was closed (client.close()): calls made after it, and calls
 * still running when it was called, end with this error. Create a new client
 * to make more calls.
 */
export class ClientClosedError extends FlowsmithError {
  override readonly name = "ClientClosedError";
  constructor(
    /** The call's HTTP method, when the call had one. */
    readonly method?: string,
    /** The call's path (no query), when the call had one. */
    readonly path?: string,
  ) {
    super(
      "CLIENT_CLOSED",
      `${method && path ? `${method} ${path}: ` : ""}the client was closed (client.close()); create a new client to make more calls`,
    );
  }
}

/** A request did not complete within its time limit, or a wait (waitForStep, waitForOutcome) ran out of time. */
export class TimeoutError extends FlowsmithError {
  override readonly name = "TimeoutError";
  constructor(
    /** The HTTP method of the call that timed out (or, for a wait, of the polled call). */
    readonly method: string,
    /** Its path, with the baseUrl's prefix, without query. */
    readonly path: string,
    /** The limit that ran out: an attempt's timeoutMs, or a wait's. */
    readonly timeoutMs: number,
    /** For a wait: what it waited for (`an outcome`); the polled call itself answered. */
    readonly waitingFor?: string,
  ) {
    super(
      "TIMEOUT",
      waitingFor === undefined
        ? `${method} ${path} timed out after ${String(timeoutMs)} ms`
        : `gave up after ${String(timeoutMs)} ms waiting for ${waitingFor} (polling ${method} ${path}); pass a larger timeoutMs to wait longer`,
    );
  }
}

/** The caller's AbortSignal fired. */
export class AbortError extends FlowsmithError {
  override readonly name = "AbortError";
  constructor(
    /** The HTTP method of the aborted call. */
    readonly method: string,
    /** Its path, with the baseUrl's prefix, without query. */
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super("ABORTED", `${method} ${path} was aborted`, options);
  }
}

/**
 * The connection failed (refused, reset, DNS...) before a response arrived.
 * For a POST the message says when the service may have acted on it anyway
 * (createSession: the session may exist), since a POST is never retried.
 */
export class NetworkError extends FlowsmithError {
  override readonly name = "NetworkError";
  constructor(
    /** The HTTP method of the call whose connection failed. */
    readonly method: string,
    /** Its path, with the baseUrl's prefix, without query. */
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(
      "NETWORK_ERROR",
      `${method} ${path} failed: ${describeCause(options?.cause)}${mayHaveTakenEffect(method, options?.cause)}`,
      options,
    );
  }
}

/** The error in `cause`'s chain (itself first) that carries a string `code`, within a few links. */
function innermostWithCode(cause: unknown): object | undefined {
  let current = cause;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    if (typeof (current as { code?: unknown }).code === "string") return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Failures before a connection existed: nothing was sent. */
const NEVER_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function mayHaveTakenEffect(method: string, cause: unknown): string {
  const code = (innermostWithCode(cause) as { code?: unknown } | undefined)?.code as string | undefined;
  if (method === "GET" || (code !== undefined && NEVER_SENT.has(code))) return "";
  return ". The service may have received the request and acted on it (for createSession: the session may exist); it was not retried, so check before sending it again";
}

interface InvalidResponseInit {
  readonly method: string;
  /** Path of the request, without query string. */
  readonly path: string;
  /** The 2xx status the service answered with. */
  readonly status: number;
  /** The body as received (parsed JSON, else its text), secrets scrubbed. */
  readonly body: unknown;
  /** What is wrong, and where (`sessionContext.sessionId`). */
  readonly issues: readonly ValidationIssue[];
  /** Whether the request took effect (a POST answered 2xx): sending it again would do it twice. */
  readonly tookEffect: boolean;
}

/**
 * A 2xx response whose body is not what the service documents (not JSON, a
 * field missing or of the wrong type). The runtime does not hand such a body
 * on as a result; `body` keeps it for inspection.
 */
export class InvalidResponseError extends FlowsmithError {
  override readonly name = "InvalidResponseError";
  /** The HTTP method of the call. */
  readonly method: string;
  /** Its path, with the baseUrl's prefix, without query. */
  readonly path: string;
  /** The 2xx status the service answered with. */
  readonly status: number;
  /** The body as received (parsed JSON, else its text, up to 64 KiB), secrets scrubbed. */
  readonly body: unknown;
  /** What is wrong, and where (`sessionContext.sessionId is required`). */
  readonly issues: readonly ValidationIssue[];
  /** Whether the request took effect (a POST answered 2xx: the session was created, the action sent): sending it again would do it twice. */
  readonly tookEffect: boolean;

  /** `message` is worded by the caller, which knows what took effect (response-checks.ts). */
  constructor(init: InvalidResponseInit, message: string) {
    super("INVALID_RESPONSE", message);
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.body = init.body;
    this.issues = init.issues;
    this.tookEffect = init.tookEffect;
  }
}

/** The code of an ApiError, by status: 400, 401, 403, 404, 413, 422, 429, 5xx, and `HTTP_ERROR` for any other. */
export type ApiErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "PAYLOAD_TOO_LARGE"
  | "UNPROCESSABLE_ENTITY"
  | "RATE_LIMITED"
  | "SERVER_ERROR"
  | "HTTP_ERROR";

interface ApiErrorInit {
  readonly status: number;
  readonly method: string;
  /** Path of the request, without query string. */
  readonly path: string;
  /** The parsed error body (JSON), its text, or undefined when empty. */
  readonly body: unknown;
  /** Milliseconds from a Retry-After header, when the service sent one. */
  readonly retryAfterMs?: number;
}

/** The service answered with a non-2xx status. */
export class ApiError extends FlowsmithError {
  override readonly name: string = "ApiError";
  /** The HTTP status the service answered with. */
  readonly status: number;
  /** The HTTP method of the call. */
  readonly method: string;
  /** Its path, with the baseUrl's prefix, without query. */
  readonly path: string;
  /** The error body: parsed JSON, its text, or undefined when empty; secrets scrubbed. */
  readonly body: unknown;
  /** `code` from the error body, when it has one (`FILE_TOO_LARGE` on 422). */
  readonly bodyCode: string | undefined;
  /** Milliseconds from the answer's Retry-After header, when it had one. */
  readonly retryAfterMs: number | undefined;

  constructor(code: ApiErrorCode, init: ApiErrorInit, hint?: string) {
    const bodyCode = bodyCodeOf(init.body);
    const bodyMessage = bodyMessageOf(init.body);
    super(
      code,
      `${init.method} ${init.path} failed with status ${String(init.status)}` +
        (bodyCode ? ` (${bodyCode})` : "") +
        (bodyMessage ? `: ${bodyMessage}` : "") +
        (hint ? `. ${hint}` : ""),
    );
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.body = init.body;
    this.bodyCode = bodyCode;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 400: the service refused the request as malformed (`bodyCode` says why). */
export class BadRequestError extends ApiError {
  override readonly name = "BadRequestError";
  constructor(init: ApiErrorInit) {
    super("BAD_REQUEST", init);
  }
}
/** 401, also after the runtime fetched a new token and sent the call again once. */
export class UnauthorizedError extends ApiError {
  override readonly name = "UnauthorizedError";
  constructor(init: ApiErrorInit) {
    super("UNAUTHORIZED", init, "The access token was refused, also after fetching a new one");
  }
}
/** 403: most often the API client of the other environment; the message names the path's environment. */
export class ForbiddenError extends ApiError {
  override readonly name = "ForbiddenError";
  constructor(init: ApiErrorInit) {
    super("FORBIDDEN", init, forbiddenHint(init.path));
  }
}
/** 404: no such session, step, file or flow (or a wrong baseUrl). */
export class NotFoundError extends ApiError {
  override readonly name = "NotFoundError";
  constructor(init: ApiErrorInit) {
    super("NOT_FOUND", init);
  }
}
/** 413: the request body is over the service's limit. */
export class PayloadTooLargeError extends ApiError {
  override readonly name = "PayloadTooLargeError";
  constructor(init: ApiErrorInit) {
    super("PAYLOAD_TOO_LARGE", init, "The request body is over the service's 50 MB limit");
  }
}
/** 422: the service refused the request's content (`bodyCode`, such as `FILE_TOO_LARGE`). */
export class UnprocessableEntityError extends ApiError {
  override readonly name = "UnprocessableEntityError";
  constructor(init: ApiErrorInit) {
    super("UNPROCESSABLE_ENTITY", init);
  }
}
/** 429: too many requests; `retryAfterMs` says when to try again. GETs are retried by themselves. */
export class RateLimitError extends ApiError {
  override readonly name = "RateLimitError";
  constructor(init: ApiErrorInit) {
    super("RATE_LIMITED", init);
  }
}
/** 5xx: the service failed. GETs are retried by themselves; a POST is not. */
export class ServerError extends ApiError {
  override readonly name = "ServerError";
  constructor(init: ApiErrorInit) {
    super("SERVER_ERROR", init);
  }
}

/**
 * The runtime sends a User-Agent on every request (docs/service.md 5.6), so a
 * 403 is almost always the API client of the other environment
 * (docs/service.md 5.7): the path's environment segment is named.
 */
function forbiddenHint(path: string): string {
  const environment = path.split("/").find((segment) => (ENVIRONMENTS as readonly string[]).includes(segment));
  const segment =
    environment === undefined ? "The {environment} segment of the path" : `The path's environment (${environment})`;
  return (
    `The likely cause is credentials of another environment: ${segment} must equal the environment the API client ` +
    `(clientId and clientSecret) was created for in the dashboard. Use the credentials of that environment's API client, ` +
    `or create the client with the environment the credentials belong to. (A request without User-Agent also gets 403, ` +
    `but the runtime sends one on every request, unless a proxy strips it.)`
  );
}

/** The error class for a non-2xx status. */
export function apiErrorFor(init: ApiErrorInit): ApiError {
  switch (init.status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new UnauthorizedError(init);
    case 403:
      return new ForbiddenError(init);
    case 404:
      return new NotFoundError(init);
    case 413:
      return new PayloadTooLargeError(init);
    case 422:
      return new UnprocessableEntityError(init);
    case 429:
      return new RateLimitError(init);
    default:
      return init.status >= 500 ? new ServerError(init) : new ApiError("HTTP_ERROR", init);
  }
}

function bodyCodeOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const code = (body as { code?: unknown }).code;
  return typeof code === "string" && code.length > 0 ? code : undefined;
}

function bodyMessageOf(body: unknown): string | undefined {
  const raw =
    typeof body === "string"
      ? body
      : typeof body === "object" && body !== null
        ? (body as { message?: unknown }).message
        : undefined;
  if (typeof raw !== "string" || raw.trim() === "") return undefined;
  const oneLine = raw.replace(/\s+/g, " ").trim();
  // The body was scrubbed before the error was made (api-call.ts); cut as every message is.
  return excerptOf(oneLine, 300);
}

function describeCause(cause: unknown): string {
  // Duck-typed: errors from Node internals may come from another realm (instanceof fails under jest).
  // fetch says only "fetch failed"; what failed (ECONNREFUSED, a reset) is in its cause.
  const specific = innermostWithCode(cause) ?? cause;
  const { code, message } = (typeof specific === "object" && specific !== null ? specific : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const parts = [code, message].filter((part) => typeof part === "string" && part !== "");
  return parts.length > 0 ? parts.join(" ") : "network error";
}
