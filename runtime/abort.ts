/** Waiting that gives way to the caller's AbortSignal and to the client's close(). */
import type { Clock } from "./clock.js";
import { AbortError, ClientClosedError } from "./errors.js";

export interface Operation {
  readonly method: string;
  readonly path: string;
}

/** What ends a wait early: the caller's signal, and the client's (fired by close()). */
export interface StopSignals {
  readonly caller: AbortSignal | undefined;
  readonly closing: AbortSignal;
}

/**
 * Waits `ms` on the clock. Rejects with an AbortError when the caller's
 * signal fires first, with a ClientClosedError when the client is closed;
 * the clock's timer is cancelled then, so nothing keeps the process alive.
 */
export function sleep(clock: Clock, ms: number, stop: StopSignals, operation: Operation): Promise<void> {
  if (isStopped(stop)) return Promise.reject(stoppedError(stop, operation));
  return new Promise((resolve, reject) => {
    const cancel = new AbortController();
    const onStop = () => {
      detach();
      cancel.abort();
      reject(stoppedError(stop, operation));
    };
    const detach = () => {
      stop.caller?.removeEventListener("abort", onStop);
      stop.closing.removeEventListener("abort", onStop);
    };
    stop.caller?.addEventListener("abort", onStop, { once: true });
    stop.closing.addEventListener("abort", onStop, { once: true });
    clock.sleep(ms, cancel.signal).then(
      () => {
        detach();
        resolve();
      },
      (error: unknown) => {
        detach();
        // A rejection because we cancelled it was answered by onStop already.
        if (!cancel.signal.aborted) reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Settles with `promise`, or rejects with an AbortError when `signal` fires
 * first. The promise itself keeps running: it may be shared (the token request).
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, operation: Operation): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal, operation));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(abortError(signal, operation));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function isStopped(stop: StopSignals): boolean {
  return stop.closing.aborted || stop.caller?.aborted === true;
}

/** close() wins over the caller's signal: after close() nothing is worth retrying. */
function stoppedError(stop: StopSignals, operation: Operation): Error {
  if (stop.closing.aborted || !stop.caller) return new ClientClosedError(operation.method, operation.path);
  return abortError(stop.caller, operation);
}

function abortError(signal: AbortSignal, operation: Operation): AbortError {
  return new AbortError(operation.method, operation.path, { cause: signal.reason });
}
