/**
 * Time as the runtime reads it for token expiry, waitForStep's polling and
 * the retry backoff. The default is the real one; a test passes its own, so
 * a 24-hour token lifetime or a 10-minute wait costs no real time. The time
 * limit of each HTTP exchange (`timeoutMs`) stays on real timers: it bounds
 * real I/O, which a virtual clock cannot speed up.
 */

export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /**
   * Resolves after `ms`. When `signal` fires it should stop (reject, and
   * clear its timer); the runtime stops waiting then in any case.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `Date.now()` and timers. createClient's default. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const aborted = () => (signal?.reason instanceof Error ? signal.reason : new Error("the sleep was aborted"));
      if (signal?.aborted) {
        reject(aborted());
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(aborted());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
});
