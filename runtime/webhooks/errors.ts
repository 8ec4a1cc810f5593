/**
 * Why the webhook handler refused a delivery, or could not use one it took.
 * Each error carries the HTTP status the delivery was answered with, so an
 * onError callback can tell "refused, the sender will retry" (4xx, 5xx) from
 * "accepted and then lost" (2xx).
 */
import { FlowsmithError } from "../errors.js";

/** Why a delivery was refused or not handled: the codes of WebhookError. */
export type WebhookErrorCode =
  /** Not a POST. */
  | "WEBHOOK_METHOD_NOT_ALLOWED"
  /** A secret is configured and webhook-id, webhook-timestamp or webhook-signature is missing. */
  | "WEBHOOK_SIGNATURE_MISSING"
  /** webhook-timestamp is not a number or is more than 5 minutes away from now (a replay or a stale retry). */
  | "WEBHOOK_TIMESTAMP_INVALID"
  /** No signature in webhook-signature matches the body under the secret. */
  | "WEBHOOK_SIGNATURE_INVALID"
  /** The body is over maxBodyBytes. */
  | "WEBHOOK_BODY_TOO_LARGE"
  /** The body could not be read: the connection broke, or a framework consumed it and left nothing behind. */
  | "WEBHOOK_BODY_UNAVAILABLE"
  /** A framework parsed the body before the handler, so its exact bytes, which the signature covers, are gone. */
  | "WEBHOOK_BODY_ALREADY_PARSED"
  /** The body is not JSON, or not a session.ended event of the documented shape. */
  | "INVALID_WEBHOOK_PAYLOAD"
  /** The event names the other environment than the handler's client. */
  | "WEBHOOK_ENVIRONMENT_MISMATCH"
  /** More deliveries are being processed than maxInFlight; answered 503 so the sender retries later. */
  | "WEBHOOK_BUSY"
  /** The handler's queue could not store the delivery (Redis unreachable); answered 503 so the sender retries later. */
  | "WEBHOOK_QUEUE_UNAVAILABLE";

/** A delivery the webhook handler refused, or took and could not process; `status` is what it was answered with. */
export class WebhookError extends FlowsmithError {
  override readonly name: string = "WebhookError";
  constructor(
    override readonly code: WebhookErrorCode,
    message: string,
    /** The HTTP status the delivery was answered with. */
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** A delivery's body is not a valid event. `path` names the field (`data.decision`); "" is the body itself. */
export class WebhookPayloadError extends WebhookError {
  override readonly name = "WebhookPayloadError";
  constructor(
    /** The wrong field (`data.decision`); `""` for the body itself. */
    readonly path: string,
    detail: string,
  ) {
    super("INVALID_WEBHOOK_PAYLOAD", `Webhook body${path ? ` at ${path}` : ""}: ${detail}`, 400);
  }
}
