/**
 * Polling a call until its answer settles (waitForStep; waitForOutcome the
 * same way): a deadline and the interval on the client's clock, each poll
 * within the time left, and the caller's signal and close() ending the wait.
 * Bounded by construction: timeoutMs is a positive finite number
 * (option-numbers.ts), and the deadline is checked before every poll and
 * every sleep.
 */
import { sleep, type Operation } from "./abort.js";
import type { ClientContext } from "./client-context.js";
import { TimeoutError } from "./errors.js";
import { nonNegative, positive } from "./option-numbers.js";
import type { RequestOptions } from "./resources.js";

export interface PollOptions {
  /** Time between polls. Default: the client's pollIntervalMs. */
  readonly intervalMs?: number;
  /** Give up after this long with a TimeoutError. Default: the client's waitTimeoutMs. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface Poll<T> {
  /** The waiting function, as a refused option names it (`waitForStep`). */
  readonly name: string;
  /** The polled call, as errors name it. */
  readonly operation: Operation;
  /** One poll, within `options.timeoutMs` (the time left); undefined means "not yet". */
  readonly once: (options: RequestOptions) => Promise<T | undefined>;
  /** Whether the answer ends the wait. */
  readonly settled: (value: T) => boolean;
  /** What the wait is for, as its TimeoutError says (`an outcome`). */
  readonly waitingFor: string;
}

export async function pollUntilSettled<T>(ctx: ClientContext, poll: Poll<T>, options: PollOptions = {}): Promise<T> {
  const { clock } = ctx.options;
  // Checked, as createClient checks its defaults: an infinite or NaN timeoutMs would poll forever.
  const intervalMs = nonNegative(options.intervalMs, ctx.options.pollIntervalMs, `${poll.name}'s intervalMs`);
  const timeoutMs = positive(options.timeoutMs, ctx.options.waitTimeoutMs, `${poll.name}'s timeoutMs`);
  const stop = { caller: options.signal, closing: ctx.lifecycle.signal };
  const deadline = clock.now() + timeoutMs;
  const gaveUp = () => new TimeoutError(poll.operation.method, poll.operation.path, timeoutMs, poll.waitingFor);
  for (;;) {
    const remaining = deadline - clock.now();
    if (remaining <= 0) throw gaveUp();
    const value = await poll
      .once({ signal: options.signal, timeoutMs: Math.min(ctx.options.timeoutMs, remaining) })
      .catch((error: unknown) => {
        // A poll cut short by the time left is the wait running out, not a slow call.
        throw error instanceof TimeoutError && clock.now() >= deadline - 5 ? gaveUp() : error;
      });
    if (value !== undefined && poll.settled(value)) return value;
    const left = deadline - clock.now();
    if (left <= 0) throw gaveUp();
    await sleep(clock, Math.min(intervalMs, left), stop, poll.operation);
  }
}
