/**
 * The errors the emulator answers with. Handlers throw ApiError; the servers
 * turn it into a JSON body `{status, code, message}`. Messages say what was
 * wrong and where, and never carry a secret or a token. Validation errors
 * also list `errors: [{ path, message }]`, worded by the runtime's own helper
 * (a readable path such as `input.documents[0].templateId`, or the name of a
 * multipart part refused as sent).
 */
import type { ValidationIssue } from "@flowsmith/runtime";

export type ApiErrorCode =
  | "USER_AGENT_REQUIRED"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "INVALID_REQUEST"
  | "INVALID_CLIENT"
  | "UNSUPPORTED_GRANT_TYPE"
  | "TOKEN_MISSING"
  | "TOKEN_INVALID"
  | "TOKEN_EXPIRED"
  | "ENVIRONMENT_MISMATCH"
  | "UNSUPPORTED_CONTENT_TYPE"
  | "MALFORMED_BODY"
  | "VALIDATION_FAILED"
  | "METADATA_KEY_NOT_ALLOWED"
  | "LOCALE_NOT_SUPPORTED"
  | "REDIRECT_URL_NOT_ALLOWED"
  | "UNKNOWN_PART"
  | "DUPLICATE_PART"
  | "UNSUPPORTED_FILE_TYPE"
  | "TOO_MANY_FILES"
  | "TOO_MANY_PARTS"
  | "TOO_MANY_VALUES"
  | "VALUE_TOO_LONG"
  | "REQUEST_TOO_LARGE"
  | "FILE_TOO_LARGE"
  | "SESSION_NOT_RUNNING"
  | "NO_ACTION_EXPECTED"
  | "TICKET_MISSING"
  | "TICKET_STALE"
  | "INVALID_ACTION"
  | "INTERNAL_ERROR"
  // The control API (/__emulator/) and the faults it injects.
  | "CONTROL_TOKEN_REQUIRED"
  | "CONTROL_FROM_BROWSER"
  | "CONTROL_HOST_NOT_ALLOWED"
  | "INVALID_FIELD"
  | "TOO_MANY_FAULTS"
  | "TOO_MANY_FLOWS"
  | "INVALID_FLOW"
  | "BODY_TOO_DEEP"
  | "BODY_KEY_NOT_A_NAME"
  | "INJECTED_FAULT";

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: {
      readonly errors?: readonly ValidationIssue[];
      readonly headers?: Readonly<Record<string, string>>;
      /** More fields of the body (the control API's `field`, a refused flow's generator error). */
      readonly body?: Readonly<Record<string, unknown>>;
    } = {},
  ) {
    super(message);
  }

  toBody(): Record<string, unknown> {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.extra.errors ? { errors: this.extra.errors } : {}),
      ...this.extra.body,
    };
  }
}

export function notFound(what: string): ApiError {
  return new ApiError(404, "NOT_FOUND", what);
}

export function badRequest(code: ApiErrorCode, message: string, errors?: readonly ValidationIssue[]): ApiError {
  return new ApiError(400, code, message, errors ? { errors } : {});
}
