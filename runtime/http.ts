/**
 * One HTTP exchange over undici: the User-Agent on every request, the time
 * limit, the caller's signal, and transport failures turned into typed errors.
 * Retries and auth sit above this (api-call.ts, auth.ts).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import type { Dispatcher, FormData } from "undici";
import { Deadline } from "./deadline.js";
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

export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body as text, read within the time limit; at most `limitBytes` are kept. */
  text(limitBytes?: number): Promise<string>;
  /** The body as a stream: the time limit stops here, the caller's signal still applies. */
  stream(): Readable;
  /** Drops the body so the connection can be reused. */
  discard(): Promise<void>;
}

export interface Transport {
  readonly dispatcher: Dispatcher;
  readonly userAgent: string;
  /** Refuses exchanges after close() and aborts the open ones at close(). */
  readonly lifecycle: ClientLifecycle;
}

/** A body larger than this is not kept whole in memory when read as text (error bodies, JSON). */
const DEFAULT_TEXT_LIMIT = 16 * 1024 * 1024;

export async function sendOnce(transport: Transport, req: HttpRequest): Promise<HttpResponse> {
  const lifecycle = transport.lifecycle;
  lifecycle.throwIfClosed({ method: req.method, path: req.displayPath });
  throwIfAborted(req);
  const deadline = new Deadline(req.timeoutMs, req.signal, lifecycle.openExchanges);
  try {
    // The dispatcher's own request(): undici's top-level request(url) would parse a URL per call.
    const response = await transport.dispatcher.request({
      origin: req.origin,
      path: req.path,
      method: req.method,
      headers: withUserAgent(req.headers, transport.userAgent),
      body: req.body,
      signal: deadline.asSignal(),
    });
    return wrapResponse(response, req, deadline, lifecycle);
  } catch (error) {
    deadline.release();
    throw transportError(error, req, deadline, lifecycle);
  }
}

/** Callers on the hot path pass headers that already carry it: no copy then. */
function withUserAgent(headers: Readonly<Record<string, string>>, userAgent: string): Readonly<Record<string, string>> {
  return headers["user-agent"] === userAgent ? headers : { ...headers, "user-agent": userAgent };
}

function wrapResponse(
  response: Dispatcher.ResponseData,
  req: HttpRequest,
  deadline: Deadline,
  lifecycle: ClientLifecycle,
): HttpResponse {
  return new UndiciResponse(response, req, deadline, lifecycle);
}

/** A class, not an object of closures: one allocation per response on the hot path. */
class UndiciResponse implements HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;

  constructor(
    private readonly response: Dispatcher.ResponseData,
    private readonly req: HttpRequest,
    private readonly deadline: Deadline,
    private readonly lifecycle: ClientLifecycle,
  ) {
    this.status = response.statusCode;
    this.headers = response.headers;
  }

  async text(limitBytes = DEFAULT_TEXT_LIMIT): Promise<string> {
    const body = this.response.body;
    try {
      // A declared length within the limit is read by undici in one go; otherwise chunk by chunk, up to the limit.
      return declaredLength(this.headers) <= limitBytes ? await body.text() : await readText(body, limitBytes);
    } catch (error) {
      throw transportError(error, this.req, this.deadline, this.lifecycle);
    } finally {
      this.deadline.release();
    }
  }

  stream(): Readable {
    this.deadline.stop();
    return this.response.body;
  }

  async discard(): Promise<void> {
    this.deadline.release();
    // dump() reads a small rest so the connection can be reused, else destroys it.
    await this.response.body.dump().catch(() => undefined);
  }
}

/** Content-Length as a number; NaN when absent or unreadable. */
function declaredLength(headers: IncomingHttpHeaders): number {
  const value = headers["content-length"];
  return typeof value === "string" && value !== "" ? Number(value) : Number.NaN;
}

async function readText(body: Readable, limitBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = limitBytes - size;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(chunk.length, room);
    if (size >= limitBytes) {
      body.destroy();
      break;
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  // As undici's body.text() does on the other path: a UTF-8 byte order mark is not part of the text.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function transportError(error: unknown, req: HttpRequest, deadline: Deadline, lifecycle: ClientLifecycle): Error {
  // Whatever undici made of it (aborted, destroyed): the exchange ended because the client was closed.
  if (lifecycle.closed) return new ClientClosedError(req.method, req.displayPath);
  if (error instanceof FlowsmithError) return error;
  if (deadline.timedOut) return new TimeoutError(req.method, req.displayPath, req.timeoutMs);
  if (req.signal?.aborted) return new AbortError(req.method, req.displayPath, { cause: req.signal.reason });
  if ((error as { code?: unknown } | null)?.code === "UND_ERR_INVALID_ARG") {
    return new FlowsmithError("INVALID_REQUEST", `${req.method} ${req.displayPath}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return new NetworkError(req.method, req.displayPath, { cause: error });
}

function throwIfAborted(req: HttpRequest): void {
  if (req.signal?.aborted) throw new AbortError(req.method, req.displayPath, { cause: req.signal.reason });
}
