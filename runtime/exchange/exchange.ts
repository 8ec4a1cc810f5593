/**
 * The one exchange path: every attempt of every call, the token request
 * included, passes here. Observers (the logger, the tracer) see it start and
 * end, middleware runs around it, and the network side (dispatch.ts) sends
 * it (transport.ts: undici on Node, fetch elsewhere). A client without
 * middleware or observers goes straight to the network side: the same path
 * with nothing attached.
 */
import type { ClientLifecycle } from "../lifecycle.js";
import type { Answer } from "./answer.js";
import { refusalOf } from "./failures.js";
import type { ExchangeRequest, Middleware, Next } from "./messages.js";
import { answerOf, chain } from "./middleware.js";
import type { AttemptObserver, AttemptRecord } from "./observer.js";
import type { Transport, WireSettings } from "./transport.js";

export interface ExchangeParts {
  readonly transport: Transport;
  readonly lifecycle: ClientLifecycle;
  readonly middleware: readonly Middleware[];
  readonly observers: readonly AttemptObserver[];
}

export class Exchange {
  /** Nothing attached: every attempt goes straight to the network side. */
  private readonly bare: boolean;
  /** Only observers that may be idle (a tracer without a registered provider): asked per attempt. */
  private readonly idleWhenInactive: boolean;

  constructor(private readonly parts: ExchangeParts) {
    this.bare = parts.middleware.length === 0 && parts.observers.length === 0;
    this.idleWhenInactive =
      parts.middleware.length === 0 && parts.observers.every((observer) => observer.active !== undefined);
  }

  get lifecycle(): ClientLifecycle {
    return this.parts.lifecycle;
  }

  /** One attempt. `request.headers` is the attempt's own object (observers and middleware may add to it). */
  send(request: ExchangeRequest, settings: WireSettings): Promise<Answer> {
    const { transport, lifecycle } = this.parts;
    if (this.bare || (this.idleWhenInactive && !this.parts.observers.some((observer) => observer.active?.()))) {
      return transport.send(request, settings, lifecycle);
    }
    // Refused before it starts (closed, aborted): not an attempt, nothing to log or trace.
    const refusal = refusalOf(request, lifecycle);
    if (refusal) return Promise.reject(refusal);
    return this.observed(request, settings);
  }

  private async observed(request: ExchangeRequest, settings: WireSettings): Promise<Answer> {
    const { transport, lifecycle, middleware, observers } = this.parts;
    const records = observers
      .filter((observer) => observer.active?.() ?? true)
      .map((observer) => observer.start(request));
    const network: Next = (sent) => transport.send(sent, settings, lifecycle);
    const attempt = async (): Promise<Answer> =>
      answerOf(await chain(middleware, network)(request), request, settings.limits);
    try {
      const answer = await runWithin(records, attempt);
      for (const record of records) record.answered(answer);
      return answer;
    } catch (error) {
      for (const record of records) record.failed(error);
      throw error;
    }
  }
}

function runWithin(records: readonly AttemptRecord[], attempt: () => Promise<Answer>): Promise<Answer> {
  let run = attempt;
  for (const { within } of records) {
    const inner = run;
    if (within) run = () => within(inner);
  }
  return run();
}
