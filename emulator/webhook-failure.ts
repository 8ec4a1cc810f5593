/**
 * What a failed webhook attempt means, in words that say what to check, and
 * the lines the emulator prints about it on stderr by default: a short one
 * for an attempt that will be retried, and one for a delivery that failed
 * for good (after its last attempt), saying why. A receiver that refuses
 * every signature answers 401 four times; without these lines the emulator
 * said nothing of it. Targets are shown as origin and path (webhooks.ts),
 * never with credentials or a query; no secret is ever named but by its
 * option.
 */

/** Why an attempt failed, as a stable code. */
export type WebhookFailureKind =
  /** 401 or 403: the receiver refused the signature (or its absence). */
  | "SIGNATURE_REFUSED"
  /** 404, 405 or 410: nothing takes a POST at that path. */
  | "NO_SUCH_PATH"
  /** 3xx: deliveries do not follow redirects. */
  | "REDIRECTED"
  /** Another 4xx. */
  | "REFUSED"
  /** 5xx. */
  | "RECEIVER_FAILED"
  /** Nothing listens at the URL's host and port. */
  | "CONNECTION_REFUSED"
  /** The URL's host does not resolve, or cannot be reached. */
  | "UNREACHABLE"
  /** No answer in time. */
  | "TIMEOUT"
  /** The receiver closed the connection without answering. */
  | "CONNECTION_CLOSED"
  | "NETWORK_ERROR";

/** One failed attempt of a delivery (EmulatorOptions.onWebhookFailure). */
export interface WebhookFailure {
  readonly webhookId: string;
  readonly sessionId: string;
  /** Origin and path of the URL the attempt went to (no credentials, no query). */
  readonly target: string;
  /** This attempt, from 1, among the `attempts` of this copy of the event. */
  readonly attempt: number;
  readonly attempts: number;
  /** When the next attempt goes out; undefined when this was the last: the delivery failed. */
  readonly retryInMs: number | undefined;
  /** The receiver's status; undefined when no answer came. */
  readonly status: number | undefined;
  /** What went wrong on the network (code and message) when no answer came. */
  readonly error: string | undefined;
  readonly kind: WebhookFailureKind;
  /** What it means and what to check. */
  readonly meaning: string;
  /** The line the emulator prints for it, without the `flowsmith emulator: ` prefix. */
  readonly message: string;
}

/** An attempt's outcome as the sender saw it: the receiver's status, or the network error's code and text. */
export type FailedAttempt = { readonly status: number } | { readonly code: string | undefined; readonly error: string };

export interface AttemptPlace {
  readonly webhookId: string;
  readonly sessionId: string;
  readonly target: string;
  readonly attempt: number;
  readonly attempts: number;
  readonly retryInMs: number | undefined;
  /** Whether deliveries carry a signature (a webhook secret is set). */
  readonly signed: boolean;
  /** How long an attempt may wait for its answer. */
  readonly timeoutMs: number;
}

export function webhookFailure(place: AttemptPlace, failed: FailedAttempt): WebhookFailure {
  const { kind, meaning } =
    "status" in failed ? statusMeaning(failed.status, place) : networkMeaning(failed.code, place);
  const status = "status" in failed ? failed.status : undefined;
  const error = "status" in failed ? undefined : failed.error;
  const what = status !== undefined ? `answered ${String(status)}` : `failed (${error ?? ""})`;
  const { webhookId, sessionId, target, attempt, attempts, retryInMs } = place;
  const message =
    retryInMs !== undefined
      ? `webhook ${webhookId} attempt ${String(attempt)} of ${String(attempts)} to ${target} ${what}; retrying in ${String(retryInMs)} ms`
      : `webhook ${webhookId} (session ${sessionId}) not delivered: ${attempts === 1 ? "its one attempt" : `${String(attempts)} attempts, the last`} to ${target} ${what}: ${meaning}`;
  return { webhookId, sessionId, target, attempt, attempts, retryInMs, status, error, kind, meaning, message };
}

/** The default of EmulatorOptions.onWebhookFailure: the line on stderr. */
export function printWebhookFailure(failure: WebhookFailure): void {
  process.stderr.write(`flowsmith emulator: ${failure.message}\n`);
}

const SECRET_OPTION = "webhookSecret (--webhook-secret, FLOWSMITH_WEBHOOK_SECRET)";

function statusMeaning(status: number, place: AttemptPlace): { kind: WebhookFailureKind; meaning: string } {
  if (status === 401 || status === 403) {
    return {
      kind: "SIGNATURE_REFUSED",
      meaning: place.signed
        ? `the receiver refused the signature: its webhook secret and the emulator's ${SECRET_OPTION} differ`
        : `the receiver wants signed deliveries and the emulator signs none: give the emulator the receiver's secret as ${SECRET_OPTION}`,
    };
  }
  if (status === 404 || status === 405 || status === 410) {
    return {
      kind: "NO_SUCH_PATH",
      meaning: "nothing takes a POST at that path: check the webhook URL's path against the receiver's route",
    };
  }
  if (status >= 300 && status < 400)
    return {
      kind: "REDIRECTED",
      meaning: "the receiver redirects, and deliveries do not follow redirects: give the URL it redirects to",
    };
  if (status >= 500)
    return { kind: "RECEIVER_FAILED", meaning: "the receiver failed while handling it: see the receiver's log" };
  return { kind: "REFUSED", meaning: "the receiver refused the delivery: see the receiver's log for why" };
}

function networkMeaning(code: string | undefined, place: AttemptPlace): { kind: WebhookFailureKind; meaning: string } {
  const origin = new URL(place.target).origin;
  switch (code) {
    case "ECONNREFUSED":
      return {
        kind: "CONNECTION_REFUSED",
        meaning: `nothing listens at ${origin}: start the receiver, or check the webhook URL's host and port`,
      };
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return { kind: "UNREACHABLE", meaning: `${origin} cannot be reached: check the webhook URL's host` };
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return {
        kind: "TIMEOUT",
        meaning: `the receiver did not answer within ${String(place.timeoutMs)} ms: it should answer before doing slow work`,
      };
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return {
        kind: "CONNECTION_CLOSED",
        meaning: "the receiver closed the connection without answering: see the receiver's log",
      };
    default:
      return { kind: "NETWORK_ERROR", meaning: "the delivery could not be sent" };
  }
}
