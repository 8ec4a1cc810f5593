/**
 * The network side off Node: the platform's own `fetch` (Cloudflare
 * Workers, Vercel Edge, Deno, Bun). One exchange keeps the promises of
 * transport.ts: its own AbortController ends it on the time limit, the
 * caller's signal or close(); a body read whole is read chunk by chunk up to
 * its limit and the rest is cancelled, never read; a streamed one is handed
 * over at its headers and leaves the client's open exchanges when it ends or
 * is cancelled. Redirects are not followed, as undici's dispatcher does not:
 * a 3xx is the service's answer.
 */
import type { ClientLifecycle } from "../lifecycle.js";
import { OpenExchange } from "../open-exchanges.js";
import { Answer, readText, type BodySource, type BodyStream, type LimitedText } from "./answer.js";
import { refusalOf, transportError } from "./failures.js";
import type { ResponseHeaders } from "./messages.js";
import type { Transport, WireRequest, WireSettings } from "./transport.js";

/**
 * How a platform sends one request: its `fetch`, perhaps with options of its
 * own (platform/deno.ts), and what a client's close() must release.
 */
export interface Fetcher {
  readonly fetch: typeof fetch;
  close?(): void;
}

/** The platform's own fetch, as it is: it keeps no connections a client owns. */
const GLOBAL_FETCH: Fetcher = { fetch: (input, init) => fetch(input, init) };

export class FetchTransport implements Transport {
  constructor(private readonly fetcher: Fetcher = GLOBAL_FETCH) {}

  send(request: WireRequest, settings: WireSettings, lifecycle: ClientLifecycle): Promise<Answer> {
    const refusal = refusalOf(request, lifecycle);
    if (refusal) return Promise.reject(refusal);
    return new FetchExchange(request, settings, lifecycle).run(this.fetcher.fetch);
  }

  close(): Promise<void> {
    this.fetcher.close?.();
    return Promise.resolve();
  }
}

/** The reason the exchange's controller aborts with; never shown (failures.ts says what ended it). */
const ENDED = new Error("flowsmith: the exchange was ended");

class FetchExchange extends OpenExchange implements BodySource {
  private readonly controller = new AbortController();
  private timedOut = false;
  private over = false;
  /** Why it was ended, when something ended it: what fetch rejects with is then only its echo. */
  private endedBy: unknown;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private onCallerAbort: (() => void) | undefined;

  constructor(
    private readonly req: WireRequest,
    private readonly settings: WireSettings,
    private readonly lifecycle: ClientLifecycle,
  ) {
    super();
    lifecycle.openExchanges.add(this);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.abortWith(ENDED);
    }, settings.timeoutMs);
    const signal = req.signal;
    if (signal) {
      this.onCallerAbort = () => {
        this.abortWith(signal.reason);
      };
      signal.addEventListener("abort", this.onCallerAbort, { once: true });
    }
  }

  async run(fetchImpl: typeof fetch): Promise<Answer> {
    const req = this.req;
    let response: Response;
    try {
      response = await fetchImpl(req.origin + req.path, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: this.controller.signal,
        redirect: "manual",
      });
    } catch (error) {
      throw this.failed(error);
    }
    const headers = headersOf(response.headers);
    const limits = this.settings.limits;
    if (!limits) return new Answer(response.status, headers, this.handedOver(response.body), false, undefined, this);
    try {
      const limit = response.status < 300 ? limits.okBytes : limits.errorBytes;
      const { text, truncated } = response.body ? await readText(response.body, limit) : NO_TEXT;
      return new Answer(response.status, headers, text, truncated);
    } catch (error) {
      // After the status, the body broke off: the answer says so, and its caller decides (an error body is optional).
      return new Answer(response.status, headers, "", false, this.failed(error));
    } finally {
      this.end();
    }
  }

  /** The time limit, the caller's signal or close() ends the exchange (close() calls this, lifecycle.ts). */
  abortWith(reason: unknown): void {
    if (this.over) return;
    this.endedBy ??= reason;
    this.controller.abort(ENDED);
    this.end();
  }

  /** A streamed body is handed to its reader: the time limit is over, the caller's signal still applies. */
  handOver(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The body for its reader: errors typed, and the exchange over when it ends or is cancelled. */
  private handedOver(body: BodyStream | null): BodyStream {
    const reader = body?.getReader();
    return new ReadableStream<Uint8Array>(
      {
        pull: async (stream) => {
          if (!reader) {
            this.end();
            stream.close();
            return;
          }
          try {
            const { done, value } = await reader.read();
            if (done) {
              this.end();
              stream.close();
            } else stream.enqueue(value);
          } catch (error) {
            const typed = this.failed(error);
            this.end();
            stream.error(typed);
          }
        },
        cancel: async () => {
          this.end();
          await reader?.cancel().catch(ignore);
        },
      },
      { highWaterMark: 0 },
    );
  }

  private failed(error: unknown): Error {
    const cause = this.endedBy ?? error;
    this.end();
    return transportError(cause, this.req, this.timedOut, this.settings.timeoutMs, this.lifecycle);
  }

  private end(): void {
    if (this.over) return;
    this.over = true;
    this.handOver();
    this.lifecycle.openExchanges.delete(this);
    if (this.onCallerAbort) this.req.signal?.removeEventListener("abort", this.onCallerAbort);
  }
}

/** Lower-case names; a header sent several times is one comma-joined value, as fetch gives it (set-cookie aside, which the API never sends). */
function headersOf(headers: Headers): ResponseHeaders {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  return result;
}

/** A response without a body (a 204, a HEAD) reads as empty text. */
const NO_TEXT: LimitedText = Object.freeze({ text: "", truncated: false });

function ignore(): void {
  // A body that fails while it is dropped has nothing more to say.
}
