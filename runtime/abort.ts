/** Waiting that gives way to the caller's AbortSignal. */
import { AbortError } from "./errors.js";

export interface Operation {
  readonly method: string;
  readonly path: string;
}

/** Waits `ms`, or rejects with an AbortError when `signal` fires first. */
export function sleep(ms: number, signal: AbortSignal | undefined, operation: Operation): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal, operation));
    const onAbort = () => {
      clearTimeout(handle);
      reject(abortError(signal, operation));
    };
    const handle = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
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
    const onAbort = () => reject(abortError(signal, operation));
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal.removeEventListener("abort", onAbort);
    promise.then(
      (value) => (settle(), resolve(value)),
      (error: unknown) => (settle(), reject(error)),
    );
  });
}

function abortError(signal: AbortSignal | undefined, operation: Operation): AbortError {
  return new AbortError(operation.method, operation.path, { cause: signal?.reason });
}
