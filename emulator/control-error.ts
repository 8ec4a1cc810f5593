/**
 * What the control methods throw (the handle's addFault, publishFlow...),
 * and the control API answers as `{status, code, message, field?, generator?}`.
 */
import { ApiError } from "./errors.js";

export type ControlErrorCode =
  "INVALID_FIELD" | "TOO_MANY_FAULTS" | "TOO_MANY_FLOWS" | "INVALID_FLOW" | "BODY_TOO_DEEP" | "BODY_KEY_NOT_A_NAME";

/** A refused flow: the generator's own error, as codegen would report it. */
export interface GeneratorErrorView {
  readonly code: string;
  readonly message: string;
  readonly pointer?: string;
  readonly line?: number;
}

export class EmulatorControlError extends Error {
  override readonly name = "EmulatorControlError";
  constructor(
    readonly code: ControlErrorCode,
    message: string,
    readonly details: {
      /** The field of the request that is wrong (`times`, `headers.retry-after`). */
      readonly field?: string;
      readonly generator?: GeneratorErrorView;
    } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toApiError(): ApiError {
    return new ApiError(
      this.code === "TOO_MANY_FAULTS" || this.code === "TOO_MANY_FLOWS" ? 409 : 400,
      this.code,
      this.message,
      { body: { ...this.details } },
    );
  }
}

export function invalidField(field: string, message: string): EmulatorControlError {
  return new EmulatorControlError("INVALID_FIELD", `${field}: ${message}`, { field });
}
