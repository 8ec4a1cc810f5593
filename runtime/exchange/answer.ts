/**
 * An answer as the calls above the exchange use it (api-call.ts, auth.ts):
 * its status and headers, and its body either read whole (`text`) or handed
 * over as a stream (getFile). Made by the network side (dispatch.ts) or from
 * a middleware's own response (middleware.ts).
 */
import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import type { ExchangeResponse } from "./messages.js";

/** How much of a body is kept, by status: a longer body is cut there and the rest is not read. */
export interface TextLimits {
  /** A 2xx body. */
  readonly okBytes: number;
  /** Any other (an error body). */
  readonly errorBytes: number;
}

/** The answer's side that a streamed body still needs: the time limit ends when the body is handed over. */
export interface BodySource {
  handOver(): void;
}

/** Text read up to a limit, and whether the body went on past it. */
export interface LimitedText {
  readonly text: string;
  /** The body was longer than the limit: `text` is its start, cut before anything could scrub it (redaction.ts). */
  readonly truncated: boolean;
}

export class Answer implements ExchangeResponse {
  constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    /** Read whole: UTF-8 text (a byte order mark dropped), at most the limit for the status ("" when it broke off). Streamed: the stream. */
    readonly body: string | Readable,
    /** Read whole: the body went on past the limit, so `text` is its start. */
    readonly truncated: boolean,
    /**
     * Set when a body read whole broke off after the status arrived (time
     * limit, network, close(), the caller's signal): the typed error. For a
     * 2xx that is the call's error; for an error status the status is the news.
     */
    readonly failure?: Error,
    private readonly source?: BodySource,
  ) {}

  /** The body read whole ("" for a stream: read it with errorText or stream()). */
  get text(): string {
    return typeof this.body === "string" ? this.body : "";
  }

  /** The body as a stream: the time limit stops here, the caller's signal still applies. */
  stream(): Readable {
    this.source?.handOver();
    return typeof this.body === "string" ? Readable.from([Buffer.from(this.body, "utf8")]) : this.body;
  }

  /** An error body as text, at most `limitBytes`; "" when it cannot be read (the status is the news). */
  async errorText(limitBytes: number): Promise<LimitedText> {
    if (typeof this.body === "string") return { text: this.body, truncated: this.truncated };
    try {
      return await readText(this.body, limitBytes);
    } catch {
      return { text: "", truncated: false };
    }
  }

  /** Drops the body (a streamed one is ended). */
  discard(): Promise<void> {
    if (typeof this.body !== "string") this.body.destroy();
    return Promise.resolve();
  }
}

/**
 * A stream read to its end, or to `limitBytes` and then destroyed (truncated
 * only when a byte past the limit arrived), as UTF-8 without a byte order mark.
 */
export async function readText(body: Readable, limitBytes: number): Promise<LimitedText> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    const room = limitBytes - size;
    if (bytes.length > room) {
      chunks.push(bytes.subarray(0, room));
      body.destroy();
      return { text: decodeUtf8(chunks, limitBytes), truncated: true };
    }
    chunks.push(bytes);
    size += bytes.length;
  }
  return { text: decodeUtf8(chunks, size), truncated: false };
}

/** As undici's body.text(): a UTF-8 byte order mark is not part of the text. */
export function decodeUtf8(chunks: readonly Buffer[], size: number): string {
  const text = chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks, size).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
