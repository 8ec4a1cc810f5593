/**
 * One HTTP exchange whose answer is read whole, as text: every call but
 * getFile (JSON bodies, error bodies, the token). It goes through undici's
 * dispatch handler rather than `request()`: request() wraps each answer in a
 * Readable stream, an AsyncResource and an abort listener, which body.text()
 * then drains again, while here the answer is wanted as one string anyway.
 * The handler keeps the chunks as they come and decodes them once; measured,
 * that is about a sixth of a request's client CPU (bench/analysis.md, row 4).
 *
 * The exchange has the guarantees of the streaming one (http.ts): one time
 * limit from sending to the last byte, the caller's signal, close() aborting
 * it (it sits in its client's open exchanges until it ends), and each failure
 * a typed error (transport.ts).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { ClientLifecycle } from "./lifecycle.js";
import { OpenExchange } from "./open-exchanges.js";
import { refusalOf, transportError, withUserAgent, type ExchangeState, type HttpRequest, type Transport } from "./transport.js";

/** How much of a body is kept, by status: a longer body is cut there and the rest is not read. */
export interface TextLimits {
  /** A 2xx body. */
  readonly okBytes: number;
  /** Any other (an error body). */
  readonly errorBytes: number;
}

/** The answer, its body read. */
export class TextAnswer {
  constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    /** UTF-8 (a byte order mark dropped), at most the limit for the status. "" when the body broke off. */
    readonly text: string,
    /**
     * Set when the body broke off after the status arrived (time limit,
     * network, close(), the caller's signal): the typed error. For a 2xx that
     * is the call's error; for an error status the status is the news.
     */
    readonly failure: Error | undefined,
  ) {}

  /** An error body, as the streaming answer gives it (http.ts): already read. */
  errorText(): Promise<string> {
    return Promise.resolve(this.text);
  }

  /** Nothing to drop: the body was read (or cut) with the answer. */
  discard(): Promise<void> {
    return Promise.resolve();
  }
}

export function exchangeText(transport: Transport, req: HttpRequest, limits: TextLimits): Promise<TextAnswer> {
  const refusal = refusalOf(req, transport.lifecycle);
  if (refusal) return Promise.reject(refusal);
  return new Promise((resolve, reject) => {
    new TextExchange(req, transport.lifecycle, limits, resolve, reject).start(transport);
  });
}

/** Until the answer's own arrive: one shared object, not one per exchange. */
const NO_HEADERS: IncomingHttpHeaders = Object.freeze({});

/**
 * What undici is told to abort with. Never shown: the call's error says
 * what ended it (the time limit, the caller's signal, close()), transport.ts.
 */
const ENDED = new Error("flowsmith: the exchange was ended");

/**
 * undici's handler for one exchange, and the exchange's state. Settles once:
 * at the body's end, at a failure, or when the time limit, the caller's
 * signal or close() ends it (at once, even while the request still waits for
 * a connection; undici is told to drop it when it gets one).
 */
class TextExchange extends OpenExchange implements Dispatcher.DispatchHandler, ExchangeState {
  timedOut = false;
  private settled = false;
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers: IncomingHttpHeaders = NO_HEADERS;
  private limit = 0;
  private size = 0;
  private readonly chunks: Buffer[] = [];
  private readonly timer: NodeJS.Timeout;
  private onCallerAbort: (() => void) | undefined;

  constructor(
    private readonly req: HttpRequest,
    private readonly lifecycle: ClientLifecycle,
    private readonly limits: TextLimits,
    private readonly resolve: (answer: TextAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {
    super();
    lifecycle.openExchanges.add(this);
    this.timer = setTimeout(expireExchange, req.timeoutMs, this);
    const signal = req.signal;
    if (signal) {
      this.onCallerAbort = () => {
        this.abortWith(signal.reason);
      };
      signal.addEventListener("abort", this.onCallerAbort, { once: true });
    }
  }

  start(transport: Transport): void {
    const req = this.req;
    try {
      transport.dispatcher.dispatch(
        { origin: req.origin, path: req.path, method: req.method, headers: withUserAgent(req.headers, transport.userAgent), body: req.body },
        this,
      );
    } catch (error) {
      // undici reports its failures to onResponseError; another dispatcher may throw.
      this.fail(error);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Ended while it waited for a connection: nothing is sent.
    if (this.settled) controller.abort(ENDED);
    else this.controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200) return; // 1xx: informational, the answer follows
    this.status = status;
    this.headers = headers;
    this.limit = status < 300 ? this.limits.okBytes : this.limits.errorBytes;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    const room = this.limit - this.size;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    // Over the limit: keep what fits and drop the connection rather than read what will not be kept.
    this.chunks.push(chunk.subarray(0, room));
    this.size += room;
    this.answer(undefined);
    controller.abort(ENDED);
  }

  onResponseEnd(): void {
    if (!this.settled) this.answer(undefined);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** The time limit, the caller's signal or close() ends the exchange (close() calls this, lifecycle.ts). */
  abortWith(reason: unknown): void {
    if (this.settled) return;
    // undici calls onResponseError at once; without a connection yet, fail() settles it here.
    this.controller?.abort(ENDED);
    this.fail(reason);
  }

  expire(): void {
    this.timedOut = true;
    this.abortWith(ENDED);
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    const typed = transportError(error, this.req, this, this.lifecycle);
    // After the status, the body broke off: the answer says so, and its caller decides (an error body is optional).
    if (this.status !== 0) this.answer(typed);
    else {
      this.finish();
      this.reject(typed);
    }
  }

  private answer(failure: Error | undefined): void {
    this.finish();
    this.resolve(new TextAnswer(this.status, this.headers, failure ? "" : this.decoded(), failure));
  }

  private decoded(): string {
    const chunks = this.chunks;
    const text = chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks, this.size).toString("utf8");
    // As undici's body.text(): a UTF-8 byte order mark is not part of the text.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  private finish(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.lifecycle.openExchanges.delete(this);
    if (this.onCallerAbort) this.req.signal?.removeEventListener("abort", this.onCallerAbort);
  }
}

/** A module-level callback: setTimeout then needs no closure per exchange. */
function expireExchange(exchange: TextExchange): void {
  exchange.expire();
}
