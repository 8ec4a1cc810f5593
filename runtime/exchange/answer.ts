/**
 * An answer as the calls above the exchange use it (api-call.ts, auth.ts):
 * its status and headers, and its body either read whole (`text`) or handed
 * over as a stream (getFile). Made by a transport (transport.ts) or from a
 * middleware's own response (middleware.ts). Bodies are the Web platform's
 * ReadableStream on every platform.
 */
import { concatBytes, utf8Bytes, utf8Text } from "../bytes.js";
import type { ExchangeResponse, ResponseHeaders } from "./messages.js";

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

export type BodyStream = ReadableStream<Uint8Array>;

export class Answer implements ExchangeResponse {
  constructor(
    readonly status: number,
    readonly headers: ResponseHeaders,
    /** Read whole: UTF-8 text (a byte order mark dropped), at most the limit for the status ("" when it broke off). Streamed: the stream. */
    readonly body: string | BodyStream,
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
  stream(): BodyStream {
    this.source?.handOver();
    return typeof this.body === "string" ? streamOf(utf8Bytes(this.body)) : this.body;
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

  /** Drops the body (a streamed one is cancelled). */
  async discard(): Promise<void> {
    if (typeof this.body !== "string") await this.body.cancel().catch(ignore);
  }
}

/** A stream of the one chunk. */
export function streamOf(bytes: Uint8Array): BodyStream {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * A stream read to its end, or to `limitBytes` and then cancelled (truncated
 * only when a byte past the limit arrived), as UTF-8 without a byte order mark.
 */
export async function readText(body: BodyStream, limitBytes: number): Promise<LimitedText> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: utf8Text(concatBytes(chunks, size)), truncated: false };
    const room = limitBytes - size;
    if (value.length > room) {
      chunks.push(value.subarray(0, room));
      await reader.cancel().catch(ignore);
      return { text: utf8Text(concatBytes(chunks, limitBytes)), truncated: true };
    }
    chunks.push(value);
    size += value.length;
  }
}

function ignore(): void {
  // A stream that fails while it is being dropped has nothing more to say.
}
