/**
 * The emulator's sense of time: session phases, token expiry and webhook
 * retry delays all read it, so tests can move time on instead of sleeping.
 * The default is the system clock.
 */

export interface EmulatorClock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** Calls `callback` once `ms` of this clock's time have passed; returns a handle for clearTimeout. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: EmulatorClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
