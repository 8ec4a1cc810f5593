/**
 * Session-ended notifications, delivered as the Standard Webhooks scheme
 * describes: a JSON POST of the runtime's SessionEndedEvent with the headers
 * `webhook-id` (one per event, the same on every retry, so a receiver can
 * drop a copy it already handled), `webhook-timestamp` (seconds, of this
 * attempt) and, when a signing secret is set, `webhook-signature` (signed by
 * the `standardwebhooks` package over id, timestamp and body). A non-2xx
 * answer or a network error is retried after each configured delay.
 * Delivery runs beside the API and never throws into it.
 *
 * With several webhook URLs (a fleet of receivers behind no load balancer),
 * events take the URLs in turn, and each further attempt of an event (a
 * retry, the second copy) goes to the URL after the one its previous attempt
 * went to: a retry after a receiver failed reaches another one, and the two
 * copies of a duplicated event reach two receivers, however many events are
 * under way at once. A session's
 * scenario may have its event delivered twice (same webhook-id), late, or
 * never (scenarios.ts). Every attempt is written to the WebhookLog, and
 * every failed one is told to onWebhookFailure (webhook-failure.ts: by
 * default a line on stderr, saying what the failure means).
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "undici";
import type { SessionEndedEvent } from "@flowsmith/runtime";
import { Webhook } from "standardwebhooks";
import type { EmulatorClock } from "./clock.js";
import type { WebhookDelivery } from "./scenarios.js";
import type { EndedSession } from "./sessions.js";
import { webhookFailure, type FailedAttempt, type WebhookFailure } from "./webhook-failure.js";
import { WebhookLog, type WebhookEntry } from "./webhook-log.js";

export interface WebhookPolicy {
  /** Empty: nothing is sent (events are still logged). */
  readonly webhookUrls: readonly string[];
  readonly webhookRetryDelaysMs: readonly number[];
  /** How long after the session ended a `late` event goes out. */
  readonly lateWebhookMs: number;
  readonly webhookSecret: string | undefined;
  readonly clock: EmulatorClock;
  /** Told about each failed attempt. */
  readonly onWebhookFailure: (failure: WebhookFailure) => void;
}

/** What an ended session's delivery carries. */
export function sessionEndedEvent(session: EndedSession): SessionEndedEvent {
  return {
    type: "session.ended",
    timestamp: session.outcome.decidedAt.toISOString(),
    data: {
      sessionId: session.id,
      flowId: session.flow.id,
      environment: session.flow.environment,
      decision: session.outcome.decision,
    },
  };
}

/** One event's delivery under way: what it carries, where it is logged, what stops it, and where its next attempt goes. */
interface Delivery {
  readonly webhookId: string;
  readonly sessionId: string;
  readonly body: string;
  readonly entry: WebhookEntry;
  readonly stop: AbortSignal;
  readonly nextUrl: () => string;
}

/** A receiver slower than this is taken as failed, and the event is retried. */
const ATTEMPT_TIMEOUT_MS = 10_000;

export class WebhookSender {
  readonly log = new WebhookLog();
  private readonly inFlight = new Set<Promise<void>>();
  /** Replaced at each reset(): aborting it stops the deliveries started before. */
  private stop = new AbortController();
  private readonly signer: Webhook | undefined;
  /** Its own connections, not undici's global pool: close() ends them, so no keep-alive socket outlives the emulator. */
  private readonly dispatcher = new Agent();
  /** Events so far: event k starts at URL k (mod their count). */
  private events = 0;

  constructor(private readonly policy: WebhookPolicy) {
    this.signer = policy.webhookSecret === undefined ? undefined : new Webhook(policy.webhookSecret);
  }

  notify(event: SessionEndedEvent, delivery: WebhookDelivery = "once"): void {
    const webhookId = `msg_${randomUUID()}`;
    const sends = this.policy.webhookUrls.length > 0 && delivery !== "never";
    const { sessionId, decision } = event.data;
    const entry = this.log.open({ webhookId, type: event.type, sessionId, decision, delivery }, sends);
    if (!sends) return;
    const stop = this.stop.signal;
    const body = JSON.stringify(event);
    const urls = this.policy.webhookUrls;
    let turn = this.events++;
    const nextUrl = (): string => urls[turn++ % urls.length] ?? "";
    const under: Delivery = { webhookId, sessionId, body, entry, stop, nextUrl };
    const copies = async (): Promise<void> => {
      if (delivery === "late" && !(await this.waitOrStop(this.policy.lateWebhookMs, stop))) return;
      await this.deliver(under);
      if (delivery === "twice") await this.deliver(under);
    };
    const running = copies().finally(() => {
      entry.finished();
      this.inFlight.delete(running);
    });
    this.inFlight.add(running);
  }

  /** Stops every delivery under way or waiting, and forgets the log (POST /__emulator/reset). */
  reset(): void {
    this.stop.abort();
    this.stop = new AbortController();
    this.log.clear();
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

  /** One copy of the event, with its retries, until a 2xx, the last retry, or a stop (reset or close); each failed attempt is told. */
  private async deliver(delivery: Delivery): Promise<void> {
    const delays = this.policy.webhookRetryDelaysMs;
    const attempts = delays.length + 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0 && !(await this.waitOrStop(delays[attempt - 1] ?? 0, delivery.stop))) return;
      if (delivery.stop.aborted) return;
      const url = delivery.nextUrl();
      const failed = await this.attempt(url, delivery);
      if (failed === undefined || failed === "stopped") return;
      const place = {
        webhookId: delivery.webhookId,
        sessionId: delivery.sessionId,
        target: targetOf(url),
        attempt: attempt + 1,
        attempts,
        retryInMs: delays[attempt],
      };
      this.policy.onWebhookFailure(
        webhookFailure({ ...place, signed: this.signer !== undefined, timeoutMs: ATTEMPT_TIMEOUT_MS }, failed),
      );
    }
  }

  /** Undefined when the receiver answered 2xx; "stopped" when a reset or close cut it short (no failure of the receiver's); else what failed. */
  private async attempt(
    url: string,
    { webhookId: id, body, entry, stop }: Delivery,
  ): Promise<FailedAttempt | "stopped" | undefined> {
    const sentAt = new Date(this.policy.clock.now());
    const logged = { target: targetOf(url), at: sentAt.toISOString() };
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
        signal: stop,
        headersTimeout: ATTEMPT_TIMEOUT_MS,
        bodyTimeout: ATTEMPT_TIMEOUT_MS,
      });
      await response.body.dump();
      entry.attempted({ ...logged, status: response.statusCode });
      return response.statusCode >= 200 && response.statusCode < 300 ? undefined : { status: response.statusCode };
    } catch (error) {
      const failed = networkFailureOf(error);
      entry.attempted({ ...logged, error: failed.error });
      return stop.aborted ? "stopped" : failed;
    }
  }

  private waitOrStop(ms: number, stop: AbortSignal): Promise<boolean> {
    if (stop.aborted) return Promise.resolve(false);
    const { clock } = this.policy;
    return new Promise((resolve) => {
      const onStop = (): void => {
        clock.clearTimeout(timer);
        resolve(false);
      };
      const timer = clock.setTimeout(() => {
        stop.removeEventListener("abort", onStop);
        resolve(true);
      }, ms);
      stop.addEventListener("abort", onStop, { once: true });
    });
  }
}

/** A target as the log shows it: origin and path, never user:password@ or a query that may carry a key. */
function targetOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** What failed: undici's code, and code and message in one short line (an address, never a header or a body). */
function networkFailureOf(error: unknown): { readonly code: string | undefined; readonly error: string } {
  const { code, message } = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const text = [code, message].filter((part) => typeof part === "string" && part !== "").join(": ");
  return { code: typeof code === "string" ? code : undefined, error: (text || "network error").slice(0, 200) };
}
