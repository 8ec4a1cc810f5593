/**
 * A Clock for tests: time moves only when the runtime sleeps (by exactly what
 * it asked for) or when the test advances it, so a 24-hour token or a
 * 10-minute wait costs no real time and every duration is exact.
 */
import type { Clock } from "../../../runtime/index.js";

export class VirtualClock implements Clock {
  /** Every sleep the runtime asked for, in ms, in order. */
  readonly sleeps: number[] = [];
  private nowMs: number;
  private held: { resolve: () => void }[] | undefined;
  private readonly onSleep: ((ms: number) => void) | undefined;

  /**
   * `hold`: sleeps do not end by themselves; the caller's signal or release() ends them.
   * `onSleep`: called as each sleep starts (a test acts at that exact point).
   */
  constructor(
    options: { readonly startMs?: number; readonly hold?: boolean; readonly onSleep?: (ms: number) => void } = {},
  ) {
    this.nowMs = options.startMs ?? Date.UTC(2026, 0, 1);
    this.held = options.hold ? [] : undefined;
    this.onSleep = options.onSleep;
  }

  now(): number {
    return this.nowMs;
  }

  advance(ms: number): void {
    this.nowMs += ms;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve, reject) => {
      const aborted = () => {
        reject(signal?.reason instanceof Error ? signal.reason : new Error("sleep aborted"));
      };
      if (signal?.aborted) {
        aborted();
        return;
      }
      signal?.addEventListener("abort", aborted, { once: true });
      const wake = () => {
        this.nowMs += ms;
        resolve();
      };
      // A macrotask later, as a timer would: the sleeping code never resumes synchronously.
      if (this.held) this.held.push({ resolve: wake });
      else setImmediate(wake);
      this.onSleep?.(ms);
    });
  }

  /** Ends the held sleeps. */
  release(): void {
    for (const sleeper of this.held?.splice(0) ?? []) sleeper.resolve();
  }
}
