/**
 * What became of each session-ended notification, for GET
 * /__emulator/webhooks: its webhook-id, how its scenario delivers it, and
 * every attempt with its target and status or error. Bounded: the last
 * MAX_EVENTS events, each with at most MAX_ATTEMPTS attempts (the retry
 * delays are an option, so their count is the user's).
 */
import type { Decision } from "@flowsmith/runtime";
import type { WebhookDelivery } from "./scenarios.js";

export const MAX_EVENTS = 10_000;
const MAX_ATTEMPTS = 100;

export type WebhookAttempt =
  | { readonly target: string; readonly at: string; readonly status: number }
  | { readonly target: string; readonly at: string; readonly error: string };

export interface WebhookRecord {
  readonly webhookId: string;
  readonly type: "session.ended";
  readonly sessionId: string;
  readonly decision: Decision;
  /** `once`, `twice` (the same webhook-id delivered twice), `late` or `never` (scenarios.ts). */
  readonly delivery: WebhookDelivery;
  /** Oldest first; a copy's retries follow it. */
  readonly attempts: readonly WebhookAttempt[];
  /** Attempts still to come (a retry or a late or second copy waiting). */
  readonly pending: boolean;
  /** Attempts not listed past MAX_ATTEMPTS. */
  readonly attemptsNotListed: number;
}

interface MutableRecord extends Omit<WebhookRecord, "attempts" | "pending" | "attemptsNotListed"> {
  readonly attempts: WebhookAttempt[];
  pending: boolean;
  attemptsNotListed: number;
}

/** One event's entry, which its delivery fills in. */
export interface WebhookEntry {
  attempted(attempt: WebhookAttempt): void;
  finished(): void;
}

export class WebhookLog {
  private readonly records: MutableRecord[] = [];

  open(event: Omit<WebhookRecord, "attempts" | "pending" | "attemptsNotListed">, pending: boolean): WebhookEntry {
    const record: MutableRecord = { ...event, attempts: [], pending, attemptsNotListed: 0 };
    this.records.push(record);
    if (this.records.length > MAX_EVENTS) this.records.shift();
    return {
      attempted: (attempt) => {
        if (record.attempts.length < MAX_ATTEMPTS) record.attempts.push(attempt);
        else record.attemptsNotListed += 1;
      },
      finished: () => {
        record.pending = false;
      },
    };
  }

  /** Copies, oldest event first: a caller cannot change the log, nor see it change under it. */
  list(): WebhookRecord[] {
    return this.records.map((record) => ({ ...record, attempts: [...record.attempts] }));
  }

  clear(): void {
    this.records.length = 0;
  }
}
