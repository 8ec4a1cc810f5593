/**
 * How an exchange that did not get its answer becomes a typed error, said in
 * the order of what ended it; and what is refused before anything is sent.
 */
import { AbortError, ClientClosedError, FlowsmithError, NetworkError, TimeoutError } from "../errors.js";
import type { ClientLifecycle } from "../lifecycle.js";

/** What a failure names: the method and path (without query). */
export interface FailedRequest {
  readonly method: string;
  readonly path: string;
  readonly signal: AbortSignal | undefined;
}

export function transportError(
  error: unknown,
  req: FailedRequest,
  timedOut: boolean,
  timeoutMs: number,
  lifecycle: ClientLifecycle,
): Error {
  // Whatever undici made of it (aborted, destroyed): the exchange ended because the client was closed.
  if (lifecycle.closed) return new ClientClosedError(req.method, req.path);
  if (error instanceof FlowsmithError) return error;
  if (timedOut) return new TimeoutError(req.method, req.path, timeoutMs);
  if (req.signal?.aborted) return new AbortError(req.method, req.path, { cause: req.signal.reason });
  if ((error as { code?: unknown } | null)?.code === "UND_ERR_INVALID_ARG") {
    return new FlowsmithError("INVALID_REQUEST", `${req.method} ${req.path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return new NetworkError(req.method, req.path, { cause: error });
}

/** Nothing is sent once the client is closed or the caller's signal has fired. */
export function refusalOf(req: FailedRequest, lifecycle: ClientLifecycle): Error | undefined {
  if (lifecycle.closed) return new ClientClosedError(req.method, req.path);
  if (req.signal?.aborted) return new AbortError(req.method, req.path, { cause: req.signal.reason });
  return undefined;
}
