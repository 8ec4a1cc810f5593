/**
 * What both kinds of HTTP exchange share (text-exchange.ts reads an answer
 * whole, http.ts hands a body over as a stream): the request they send, the
 * client's transport, and how a failure becomes a typed error.
 */
import type { Dispatcher, FormData } from "undici";
import { AbortError, ClientClosedError, FlowsmithError, NetworkError, TimeoutError } from "./errors.js";
import type { ClientLifecycle } from "./lifecycle.js";

export interface HttpRequest {
  readonly method: "GET" | "POST";
  /** Scheme, host and port (base-url.ts). */
  readonly origin: string;
  /** Path and query as sent. */
  readonly path: string;
  /** What errors name: the path without query string. */
  readonly displayPath: string;
  /** A `user-agent` here is replaced by the transport's. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | FormData;
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
}

export interface Transport {
  readonly dispatcher: Dispatcher;
  readonly userAgent: string;
  /** Refuses exchanges after close() and aborts the open ones at close(). */
  readonly lifecycle: ClientLifecycle;
}

/** Whether the time limit, rather than the caller or close(), ended an exchange. */
export interface ExchangeState {
  readonly timedOut: boolean;
}

/** Callers on the hot path pass headers that already carry it: no copy then. */
export function withUserAgent(headers: Readonly<Record<string, string>>, userAgent: string): Readonly<Record<string, string>> {
  return headers["user-agent"] === userAgent ? headers : { ...headers, "user-agent": userAgent };
}

/** The typed error for an exchange that failed, said in the order of what ended it. */
export function transportError(error: unknown, req: HttpRequest, state: ExchangeState, lifecycle: ClientLifecycle): Error {
  // Whatever undici made of it (aborted, destroyed): the exchange ended because the client was closed.
  if (lifecycle.closed) return new ClientClosedError(req.method, req.displayPath);
  if (error instanceof FlowsmithError) return error;
  if (state.timedOut) return new TimeoutError(req.method, req.displayPath, req.timeoutMs);
  if (req.signal?.aborted) return new AbortError(req.method, req.displayPath, { cause: req.signal.reason });
  if ((error as { code?: unknown } | null)?.code === "UND_ERR_INVALID_ARG") {
    return new FlowsmithError("INVALID_REQUEST", `${req.method} ${req.displayPath}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return new NetworkError(req.method, req.displayPath, { cause: error });
}

/** Nothing is sent once the client is closed or the caller's signal has fired. */
export function refusalOf(req: HttpRequest, lifecycle: ClientLifecycle): Error | undefined {
  if (lifecycle.closed) return new ClientClosedError(req.method, req.displayPath);
  if (req.signal?.aborted) return new AbortError(req.method, req.displayPath, { cause: req.signal.reason });
  return undefined;
}
