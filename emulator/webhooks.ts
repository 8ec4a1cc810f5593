/**
 * Session-ended notifications: a JSON POST to the configured webhook URL,
 * retried with growing delays when the receiver fails or cannot be reached.
 * Delivery runs beside the API and never throws into it.
 */
import { request } from "undici";
import type { Environment } from "@flowsmith/runtime";
import type { Decision } from "./sessions.js";

export interface SessionEndedEvent {
  readonly event: "session.ended";
  readonly sessionId: string;
  readonly flowId: string;
  readonly environment: Environment;
  readonly decision: Decision;
}

export class WebhookSender {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stop = new AbortController();

  constructor(
    private readonly url: string | undefined,
    private readonly retryDelaysMs: readonly number[],
  ) {}

  notify(event: SessionEndedEvent): void {
    if (this.url === undefined) return;
    const delivery = this.deliver(this.url, event).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** Stops retries and waits for attempts under way. */
  async close(): Promise<void> {
    this.stop.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private async deliver(url: string, event: SessionEndedEvent): Promise<void> {
    const body = JSON.stringify(event);
    for (let attempt = 0; attempt <= this.retryDelaysMs.length; attempt++) {
      if (attempt > 0 && !(await this.waitOrStop(this.retryDelaysMs[attempt - 1]!))) return;
      if (await this.attempt(url, body)) return;
    }
  }

  private async attempt(url: string, body: string): Promise<boolean> {
    try {
      const response = await request(url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "flowsmith-emulator" },
        body,
        signal: this.stop.signal,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await response.body.dump();
      return response.statusCode >= 200 && response.statusCode < 300;
    } catch {
      return false;
    }
  }

  private waitOrStop(ms: number): Promise<boolean> {
    if (this.stop.signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onStop = (): void => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.stop.signal.removeEventListener("abort", onStop);
        resolve(true);
      }, ms);
      this.stop.signal.addEventListener("abort", onStop, { once: true });
    });
  }
}
