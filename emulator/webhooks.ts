/**
 * Session-ended notifications, delivered as the Standard Webhooks scheme
 * describes: a JSON POST of the runtime's SessionEndedEvent with the headers
 * `webhook-id` (one per event, the same on every retry, so a receiver can
 * drop a copy it already handled), `webhook-timestamp` (seconds, of this
 * attempt) and, when a signing secret is set, `webhook-signature` (signed by
 * the `standardwebhooks` package over id, timestamp and body). A non-2xx
 * answer or a network error is retried after each configured delay.
 * Delivery runs beside the API and never throws into it.
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "undici";
import type { SessionEndedEvent } from "@flowsmith/runtime";
import { Webhook } from "standardwebhooks";
import type { EmulatorClock } from "./clock.js";
import type { EndedSession } from "./sessions.js";

export interface WebhookPolicy {
  readonly webhookUrl: string | undefined;
  readonly webhookRetryDelaysMs: readonly number[];
  readonly webhookSecret: string | undefined;
  readonly clock: EmulatorClock;
}

/** What an ended session's delivery carries. */
export function sessionEndedEvent(session: EndedSession): SessionEndedEvent {
  return {
    type: "session.ended",
    timestamp: session.outcome.decidedAt.toISOString(),
    data: { sessionId: session.id, flowId: session.flow.id, environment: session.flow.environment, decision: session.outcome.decision },
  };
}

/** A receiver slower than this is taken as failed, and the event is retried. */
const ATTEMPT_TIMEOUT_MS = 10_000;

export class WebhookSender {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stop = new AbortController();
  private readonly signer: Webhook | undefined;
  /** Its own connections, not undici's global pool: close() ends them, so no keep-alive socket outlives the emulator. */
  private readonly dispatcher = new Agent();

  constructor(private readonly policy: WebhookPolicy) {
    this.signer = policy.webhookSecret === undefined ? undefined : new Webhook(policy.webhookSecret);
  }

  notify(event: SessionEndedEvent): void {
    const url = this.policy.webhookUrl;
    if (url === undefined) return;
    const delivery = this.deliver(url, `msg_${randomUUID()}`, JSON.stringify(event)).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  private closing: Promise<void> | undefined;

  /** Stops retries, waits for attempts under way and ends the connections; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stop.abort();
      await Promise.allSettled([...this.inFlight]);
      await this.dispatcher.close();
    })();
    return this.closing;
  }

  private async deliver(url: string, id: string, body: string): Promise<void> {
    const delays = this.policy.webhookRetryDelaysMs;
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0 && !(await this.waitOrStop(delays[attempt - 1] ?? 0))) return;
      if (await this.attempt(url, id, body)) return;
    }
  }

  private async attempt(url: string, id: string, body: string): Promise<boolean> {
    const sentAt = new Date(this.policy.clock.now());
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "flowsmith-emulator",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    };
    if (this.signer) headers["webhook-signature"] = this.signer.sign(id, sentAt, body);
    try {
      const response = await request(url, {
        method: "POST",
        headers,
        body,
        dispatcher: this.dispatcher,
        signal: this.stop.signal,
        headersTimeout: ATTEMPT_TIMEOUT_MS,
        bodyTimeout: ATTEMPT_TIMEOUT_MS,
      });
      await response.body.dump();
      return response.statusCode >= 200 && response.statusCode < 300;
    } catch {
      return false;
    }
  }

  private waitOrStop(ms: number): Promise<boolean> {
    if (this.stop.signal.aborted) return Promise.resolve(false);
    const { clock } = this.policy;
    return new Promise((resolve) => {
      const onStop = (): void => {
        clock.clearTimeout(timer);
        resolve(false);
      };
      const timer = clock.setTimeout(() => {
        this.stop.signal.removeEventListener("abort", onStop);
        resolve(true);
      }, ms);
      this.stop.signal.addEventListener("abort", onStop, { once: true });
    });
  }
}
