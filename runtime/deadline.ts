/**
 * The time limit of one streamed HTTP exchange (http.ts: getFile), joined
 * with the caller's AbortSignal, as the one signal undici's request() takes.
 * (Answers read whole need no signal: text-exchange.ts holds undici's
 * controller and aborts through it.) An AbortController per request (an
 * EventTarget, AbortSignal.any, and undici's listeners on it) cost more on the
 * hot path than the rest of the runtime's own work, so this is the
 * EventEmitter-shaped signal undici also accepts: a plain object, one timer.
 *
 * While its request or response body is open, a Deadline sits in its client's
 * set of open exchanges, so that close() can abort it (lifecycle.ts).
 */
import type { EventEmitter } from "node:events";
import { OpenExchange, type OpenExchanges } from "./open-exchanges.js";

type Listener = () => void;

export class Deadline extends OpenExchange {
  /** Read by undici: whether to refuse the request up front, and what to abort it with. */
  aborted = false;
  reason: unknown = undefined;
  private expired = false;
  private listeners: Listener[] = [];
  private timer: NodeJS.Timeout | undefined;
  private onCallerAbort: Listener | undefined;

  constructor(
    timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly openExchanges: OpenExchanges,
  ) {
    super();
    openExchanges.add(this);
    this.timer = setTimeout(expireDeadline, timeoutMs, this);
    if (callerSignal) {
      this.onCallerAbort = () => {
        this.fire(callerSignal.reason);
      };
      callerSignal.addEventListener("abort", this.onCallerAbort, { once: true });
    }
  }

  /** Whether the time limit, rather than the caller, ended the exchange. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** What undici's `signal` option is given; it only calls on/once/removeListener and reads aborted/reason. */
  asSignal(): EventEmitter {
    return this as unknown as EventEmitter;
  }

  /** The time limit is over (the response was read, or handed over as a stream); the caller's signal still applies. */
  stop(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The exchange is over (its body read, dropped, or it failed): nothing listens any more. */
  release(): void {
    this.stop();
    this.finish();
  }

  // The EventEmitter side undici uses. A fired deadline never fires again, so `once` is `on`.
  on(_event: "abort", listener: Listener): this {
    this.listeners.push(listener);
    return this;
  }

  once(event: "abort", listener: Listener): this {
    return this.on(event, listener);
  }

  addListener(event: "abort", listener: Listener): this {
    return this.on(event, listener);
  }

  /** undici removes its listener when the body closes: the exchange is over, the caller's signal is let go. */
  removeListener(_event: "abort", listener: Listener): this {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
    if (this.listeners.length === 0) this.finish();
    return this;
  }

  off(event: "abort", listener: Listener): this {
    return this.removeListener(event, listener);
  }

  /** The time limit is reached. */
  expire(): void {
    this.expired = true;
    this.fire(undefined);
  }

  /** The client is closing: the request, or the body still being read, is aborted with `reason`. */
  abortWith(reason: unknown): void {
    this.fire(reason);
  }

  private fire(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.release();
    for (const listener of this.listeners.splice(0)) listener();
  }

  private finish(): void {
    this.openExchanges.delete(this);
    if (!this.onCallerAbort) return;
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
    this.onCallerAbort = undefined;
  }
}

/** A module-level callback: setTimeout then needs no closure per request. */
function expireDeadline(deadline: Deadline): void {
  deadline.expire();
}
