/**
 * One HTTP exchange over undici whose body is handed over as a stream
 * (getFile): the time limit until the headers and the body are taken, the
 * caller's signal for as long as the body is open, and transport failures
 * turned into typed errors. Answers read whole go through text-exchange.ts.
 * Retries and auth sit above this (api-call.ts).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { Deadline } from "./deadline.js";
import { refusalOf, transportError, withUserAgent, type HttpRequest, type Transport } from "./transport.js";

export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** An error body as text, read within the time limit, at most `limitBytes`; "" when it cannot be read (the status is the news). */
  errorText(limitBytes: number): Promise<string>;
  /** The body as a stream: the time limit stops here, the caller's signal still applies. */
  stream(): Readable;
  /** Drops the body so the connection can be reused. */
  discard(): Promise<void>;
}

export async function exchangeStream(transport: Transport, req: HttpRequest): Promise<HttpResponse> {
  const lifecycle = transport.lifecycle;
  const refusal = refusalOf(req, lifecycle);
  if (refusal) throw refusal;
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
    return new UndiciResponse(response, deadline);
  } catch (error) {
    deadline.release();
    throw transportError(error, req, deadline, lifecycle);
  }
}

class UndiciResponse implements HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;

  constructor(
    private readonly response: Dispatcher.ResponseData,
    private readonly deadline: Deadline,
  ) {
    this.status = response.statusCode;
    this.headers = response.headers;
  }

  async errorText(limitBytes: number): Promise<string> {
    const body = this.response.body;
    try {
      // A declared length within the limit is read by undici in one go; otherwise chunk by chunk, up to the limit.
      return declaredLength(this.headers) <= limitBytes ? await body.text() : await readText(body, limitBytes);
    } catch {
      return "";
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
  // As undici's body.text() does: a UTF-8 byte order mark is not part of the text.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
