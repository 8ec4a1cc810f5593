/**
 * What the service's webhook tells a backend (docs/service.md section 6: "a
 * webhook tells the customer backend that a session ended"). The reference
 * shows no payload; this is the shape the emulator sends, in the envelope the
 * Standard Webhooks scheme recommends (`type`, `timestamp`, `data`).
 */
import type { Environment } from "./service-limits.js";

/** The decision a session ends with. */
export type Decision = "ACCEPTED" | "REJECTED";

export interface SessionEndedEvent {
  readonly type: "session.ended";
  /** ISO 8601: when the session ended. */
  readonly timestamp: string;
  readonly data: {
    readonly sessionId: string;
    readonly flowId: string;
    readonly environment: Environment;
    readonly decision: Decision;
  };
}
