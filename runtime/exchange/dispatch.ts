/**
 * The network side of the exchange: one request through undici's dispatch
 * handler. An answer read whole keeps its chunks as they come and decodes
 * them once (every call but getFile: JSON bodies, error bodies, the token);
 * request() would wrap each answer in a Readable, an AsyncResource and an
 * abort listener, which body.text() then drains again (bench/analysis.md,
 * row 4). A streamed answer (getFile) is handed over at its headers as a
 * Readable fed from the same handler, undici paused while the reader lags.
 *
 * Either way: one time limit (read whole: from sending to the last byte;
 * streamed: until the body is handed over), the caller's signal for as long
 * as the body is open, close() aborting it (it sits in its client's open
 * exchanges until it ends), and each failure a typed error (failures.ts).
 */
import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import type { Dispatcher, FormData } from "undici";
import type { ClientLifecycle } from "../lifecycle.js";
import { OpenExchange } from "../open-exchanges.js";
import { Answer, decodeUtf8, type BodySource, type TextLimits } from "./answer.js";
import { refusalOf, transportError } from "./failures.js";

/** What goes on the wire, and how long it may take. */
export interface WireRequest {
  readonly method: "GET" | "POST";
  readonly origin: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | FormData | undefined;
  readonly signal: AbortSignal | undefined;
}

export interface WireSettings {
  readonly timeoutMs: number;
  /** Read whole within these limits; undefined: streamed. */
  readonly limits: TextLimits | undefined;
}

export function dispatchExchange(dispatcher: Dispatcher, lifecycle: ClientLifecycle, req: WireRequest, settings: WireSettings): Promise<Answer> {
  const refusal = refusalOf(req, lifecycle);
  if (refusal) return Promise.reject(refusal);
  return new Promise((resolve, reject) => {
    new DispatchExchange(req, settings, lifecycle, resolve, reject).start(dispatcher);
  });
}

/** Until the answer's own arrive: one shared object, not one per exchange. */
const NO_HEADERS: IncomingHttpHeaders = Object.freeze({});

/**
 * What undici is told to abort with. Never shown: the call's error says
 * what ended it (the time limit, the caller's signal, close()), failures.ts.
 */
const ENDED = new Error("flowsmith: the exchange was ended");

/**
 * undici's handler for one exchange, and the exchange's state. The promise
 * settles once (at the body's end when read whole, at the headers when
 * streamed, or at a failure); the exchange is over once its body is.
 */
class DispatchExchange extends OpenExchange implements Dispatcher.DispatchHandler, BodySource {
  private timedOut = false;
  private answered = false;
  private over = false;
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers: IncomingHttpHeaders = NO_HEADERS;
  private limit = 0;
  private size = 0;
  /** More arrived than the limit lets through: the text kept is the body's start. */
  private truncated = false;
  private readonly chunks: Buffer[] = [];
  private stream: Readable | undefined;
  private timer: NodeJS.Timeout | undefined;
  private onCallerAbort: (() => void) | undefined;

  constructor(
    private readonly req: WireRequest,
    private readonly settings: WireSettings,
    private readonly lifecycle: ClientLifecycle,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (error: Error) => void,
  ) {
    super();
    lifecycle.openExchanges.add(this);
    this.timer = setTimeout(expireExchange, settings.timeoutMs, this);
    const signal = req.signal;
    if (signal) {
      this.onCallerAbort = () => {
        this.abortWith(signal.reason);
      };
      signal.addEventListener("abort", this.onCallerAbort, { once: true });
    }
  }

  start(dispatcher: Dispatcher): void {
    const req = this.req;
    try {
      dispatcher.dispatch({ origin: req.origin, path: req.path, method: req.method, headers: req.headers, body: req.body }, this);
    } catch (error) {
      // undici reports its failures to onResponseError; another dispatcher may throw.
      this.fail(error);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Ended while it waited for a connection: nothing is sent.
    if (this.over) controller.abort(ENDED);
    else this.controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200 || this.over) return; // 1xx: informational, the answer follows
    this.status = status;
    this.headers = headers;
    const limits = this.settings.limits;
    if (limits) {
      this.limit = status < 300 ? limits.okBytes : limits.errorBytes;
      return;
    }
    this.stream = new Readable({
      read: () => this.controller?.resume(),
      destroy: (error, callback) => {
        // The reader let go of the body before its end: undici drops the connection.
        if (!this.over) {
          this.controller?.abort(ENDED);
          this.end();
        }
        callback(error);
      },
    });
    // A body nobody reads yet, ended by close() or the caller's signal, must not crash the process as an
    // unhandled 'error' event: its reader still gets the error (a for-await rejects, pipeline() fails).
    this.stream.on("error", ignore);
    this.answered = true;
    this.resolve(new Answer(status, headers, this.stream, false, undefined, this));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.over) return;
    if (this.stream) {
      if (!this.stream.push(chunk)) controller.pause();
      return;
    }
    const room = this.limit - this.size;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    // Over the limit: keep what fits and drop the connection rather than read what will not be kept.
    this.chunks.push(chunk.subarray(0, room));
    this.size += room;
    this.truncated = true;
    this.answerWhole(undefined);
    controller.abort(ENDED);
  }

  onResponseEnd(): void {
    if (this.over) return;
    if (this.stream) {
      this.end();
      this.stream.push(null);
    } else this.answerWhole(undefined);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** A streamed body is handed to its reader: the time limit is over, the caller's signal still applies. */
  handOver(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The time limit, the caller's signal or close() ends the exchange (close() calls this, lifecycle.ts). */
  abortWith(reason: unknown): void {
    if (this.over) return;
    // undici calls onResponseError at once; without a connection yet, fail() settles it here.
    this.controller?.abort(ENDED);
    this.fail(reason);
  }

  expire(): void {
    this.timedOut = true;
    this.abortWith(ENDED);
  }

  private fail(error: unknown): void {
    if (this.over) return;
    const req = this.req;
    const typed = transportError(error, req, this.timedOut, this.settings.timeoutMs, this.lifecycle);
    if (this.stream) {
      this.end();
      this.stream.destroy(typed);
    } else if (this.status !== 0) {
      // After the status, the body broke off: the answer says so, and its caller decides (an error body is optional).
      this.answerWhole(typed);
    } else {
      this.end();
      if (!this.answered) this.reject(typed);
    }
  }

  private answerWhole(failure: Error | undefined): void {
    this.end();
    this.answered = true;
    const text = failure ? "" : decodeUtf8(this.chunks, this.size);
    this.resolve(new Answer(this.status, this.headers, text, failure ? false : this.truncated, failure));
  }

  private end(): void {
    this.over = true;
    this.handOver();
    this.lifecycle.openExchanges.delete(this);
    if (this.onCallerAbort) this.req.signal?.removeEventListener("abort", this.onCallerAbort);
  }
}

/** A module-level callback: setTimeout then needs no closure per exchange. */
function expireExchange(exchange: DispatchExchange): void {
  exchange.expire();
}

function ignore(): void {
  // See onResponseStart.
}
