/**
 * What watches each attempt on the exchange path: the logger (logging.ts)
 * and the tracer (tracing.ts). Each starts a record when an attempt starts
 * and hears how it ended; a tracer also runs the attempt inside its span.
 */
import type { Answer } from "./answer.js";
import type { ExchangeRequest } from "./messages.js";

export interface AttemptObserver {
  /** Whether it watches attempts now (a tracer: once a tracer provider is registered); absent means always. */
  active?(): boolean;
  /** Called before the middleware; may add headers to `request.headers` (traceparent). */
  start(request: ExchangeRequest): AttemptRecord;
}

export interface AttemptRecord {
  /** Runs the rest of the attempt (middleware, network) in this record's context. */
  readonly within?: <T>(attempt: () => Promise<T>) => Promise<T>;
  /** An answer came (any status); for a streamed body, at its headers. */
  answered(answer: Answer): void;
  /** No answer: the typed error (time limit, network, close(), the caller's signal), or what a middleware threw. */
  failed(error: unknown): void;
}
