/**
 * One HTTP exchange over undici: the User-Agent on every request, the time
 * limit, the caller's signal, and transport failures turned into typed errors.
 * Retries and auth sit above this (api-call.ts, auth.ts).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { request, type Dispatcher, type FormData } from "undici";
import { AbortError, FlowsmithError, NetworkError, TimeoutError } from "./errors.js";

export interface HttpRequest {
  readonly method: "GET" | "POST";
  /** Absolute URL. */
  readonly url: string;
  /** What errors name: the path without query string. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
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
}

/** A body larger than this is not kept whole in memory when read as text (error bodies, JSON). */
const DEFAULT_TEXT_LIMIT = 16 * 1024 * 1024;

export async function sendOnce(transport: Transport, req: HttpRequest): Promise<HttpResponse> {
  throwIfAborted(req);
  const limit = startTimeLimit(req);
  try {
    const response = await request(req.url, {
      method: req.method,
      dispatcher: transport.dispatcher,
      headers: { ...req.headers, "user-agent": transport.userAgent },
      body: req.body,
      signal: limit.signal,
    });
    return wrapResponse(response, req, limit);
  } catch (error) {
    limit.stop();
    throw transportError(error, req, limit);
  }
}

interface TimeLimit {
  readonly signal: AbortSignal;
  readonly timedOut: () => boolean;
  readonly stop: () => void;
}

function startTimeLimit(req: HttpRequest): TimeLimit {
  const timer = new AbortController();
  let timedOut = false;
  const handle = setTimeout(() => {
    timedOut = true;
    timer.abort();
  }, req.timeoutMs);
  return {
    signal: req.signal ? AbortSignal.any([req.signal, timer.signal]) : timer.signal,
    timedOut: () => timedOut,
    stop: () => clearTimeout(handle),
  };
}

function wrapResponse(response: Dispatcher.ResponseData, req: HttpRequest, limit: TimeLimit): HttpResponse {
  const body = response.body;
  return {
    status: response.statusCode,
    headers: response.headers,
    async text(limitBytes = DEFAULT_TEXT_LIMIT) {
      try {
        return await readText(body, limitBytes);
      } catch (error) {
        throw transportError(error, req, limit);
      } finally {
        limit.stop();
      }
    },
    stream() {
      limit.stop();
      return body;
    },
    async discard() {
      limit.stop();
      // dump() reads a small rest so the connection can be reused, else destroys it.
      await body.dump().catch(() => undefined);
    },
  };
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
  return Buffer.concat(chunks).toString("utf8");
}

function transportError(error: unknown, req: HttpRequest, limit: TimeLimit): Error {
  if (error instanceof FlowsmithError) return error;
  if (limit.timedOut()) return new TimeoutError(req.method, req.path, req.timeoutMs);
  if (req.signal?.aborted) return new AbortError(req.method, req.path, { cause: req.signal.reason });
  if ((error as { code?: unknown } | null)?.code === "UND_ERR_INVALID_ARG") {
    return new FlowsmithError("INVALID_REQUEST", `${req.method} ${req.path}: ${(error as Error).message}`, { cause: error });
  }
  return new NetworkError(req.method, req.path, { cause: error });
}

function throwIfAborted(req: HttpRequest): void {
  if (req.signal?.aborted) throw new AbortError(req.method, req.path, { cause: req.signal.reason });
}
