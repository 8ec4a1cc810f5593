/**
 * When a failed GET is tried again and how long to wait first: 429, 5xx and
 * network errors, exponential backoff with full jitter, Retry-After honoured,
 * a bounded number of times. Requests with a body are never retried here.
 */
import type { RetryOptions } from "./client-options.js";
import { ApiError, NetworkError } from "./errors.js";

export type RetryDecision = { readonly retry: false } | { readonly retry: true; readonly delayMs: number };

/** `retriesDone` counts retries already made (0 after the first attempt). */
export function decideRetry(error: unknown, retriesDone: number, policy: Required<RetryOptions>): RetryDecision {
  if (retriesDone >= policy.maxRetries || !isRetryable(error)) return { retry: false };
  const retryAfterMs = error instanceof ApiError ? error.retryAfterMs : undefined;
  if (retryAfterMs !== undefined) {
    // Waiting less than the service asked for would only earn another 429.
    return retryAfterMs <= policy.maxDelayMs ? { retry: true, delayMs: retryAfterMs } : { retry: false };
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retriesDone);
  return { retry: true, delayMs: Math.round(Math.random() * ceiling) };
}

function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && (error.status === 429 || error.status >= 500);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === "") return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
