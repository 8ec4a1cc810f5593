/**
 * What the service's webhook tells a backend (docs/service.md section 6: "a
 * webhook tells the customer backend that a session ended"). The reference
 * shows no payload; this is the shape the emulator sends, in the envelope the
 * Standard Webhooks scheme recommends (`type`, `timestamp`, `data`).
 */
import { utf8Text } from "../bytes.js";
import type { SessionRecord } from "../resources.js";
import { ENVIRONMENTS, type Environment } from "../service-limits.js";
import { WebhookPayloadError } from "./errors.js";

/** The decision a session ends with. */
export type Decision = "ACCEPTED" | "REJECTED";

/**
 * A webhook delivery's body: a session ended. The handler uses it only to
 * learn which session; what it hands on is read through the API.
 */
export interface SessionEndedEvent {
  /** The event kind; deliveries of other kinds are acknowledged and ignored. */
  readonly type: "session.ended";
  /** ISO 8601: when the session ended. */
  readonly timestamp: string;
  /** Which session ended, and how. */
  readonly data: {
    /** The session that ended. */
    readonly sessionId: string;
    /** Its flow. */
    readonly flowId: string;
    /** Its environment; the handler refuses another than its client's. */
    readonly environment: Environment;
    /** The decision as the delivery states it; the handler reads it again from the API. */
    readonly decision: Decision;
  };
}

const DECISIONS: readonly Decision[] = ["ACCEPTED", "REJECTED"];

/**
 * The event in a delivery's body (its text, bytes, or already parsed JSON),
 * checked field by field; throws a WebhookPayloadError naming the first wrong
 * field. Fields it does not know are kept, so the service may add some.
 */
export function parseSessionEndedEvent(body: unknown): SessionEndedEvent {
  const value = typeof body === "string" || body instanceof Uint8Array ? parseWebhookJsonOrThrow(body) : body;
  const event = recordOrThrow(value, "");
  if (event.type !== "session.ended") {
    throw new WebhookPayloadError("type", `expected "session.ended", got ${describe(event.type)}`);
  }
  textOrThrow(event.timestamp, "timestamp");
  if (Number.isNaN(Date.parse(event.timestamp as string))) {
    throw new WebhookPayloadError("timestamp", `expected an ISO 8601 date-time, got ${describe(event.timestamp)}`);
  }
  const data = recordOrThrow(event.data, "data");
  textOrThrow(data.sessionId, "data.sessionId");
  textOrThrow(data.flowId, "data.flowId");
  oneOfOrThrow(data.environment, ENVIRONMENTS, "data.environment");
  oneOfOrThrow(data.decision, DECISIONS, "data.decision");
  return value as SessionEndedEvent;
}

/**
 * The decision in a session record read from the API: `outcome.decision`, or
 * an outcome that is itself "ACCEPTED"/"REJECTED". undefined while there is no
 * outcome, or when it has another shape (the spec does not show it).
 */
export function decisionOf(session: SessionRecord): Decision | undefined {
  const outcome = session.outcome;
  const candidate =
    typeof outcome === "object" && outcome !== null ? (outcome as { decision?: unknown }).decision : outcome;
  return DECISIONS.find((decision) => decision === candidate);
}

/** A delivery's body as JSON, or a WebhookPayloadError. */
export function parseWebhookJsonOrThrow(body: string | Uint8Array): unknown {
  const text = typeof body === "string" ? body : utf8Text(body);
  try {
    return JSON.parse(text);
  } catch {
    throw new WebhookPayloadError("", `not JSON (${text.length === 0 ? "empty" : `${text.length} characters`})`);
  }
}

function recordOrThrow(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new WebhookPayloadError(path, `expected an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

function textOrThrow(value: unknown, path: string): void {
  if (typeof value !== "string" || value === "") {
    throw new WebhookPayloadError(path, `expected a non-empty string, got ${describe(value)}`);
  }
}

function oneOfOrThrow(value: unknown, allowed: readonly string[], path: string): void {
  if (typeof value !== "string" || !allowed.includes(value)) {
    throw new WebhookPayloadError(
      path,
      `expected one of ${allowed.map((a) => `"${a}"`).join(", ")}, got ${describe(value)}`,
    );
  }
}

/** A value as an error message shows it: short, one line, never a whole body. */
function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return `a ${typeof value}`;
}
