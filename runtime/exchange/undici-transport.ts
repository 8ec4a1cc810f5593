/**
 * The network side on Node: one request through undici's dispatch handler,
 * the transport bench row 4 measures against a raw undici Pool
 * (bench/analysis.md, "Two transports"). An answer read whole keeps its
 * chunks as they come and decodes them once (every call but getFile: JSON
 * bodies, error bodies, the token); request() would wrap each answer in a
 * Readable, an AsyncResource and an abort listener, which body.text() then
 * drains again. A streamed answer (getFile) is handed over at its headers as
 * a Web ReadableStream fed from the same handler, undici paused while the
 * reader lags. The promises every transport keeps: transport.ts.
 */
import type { Dispatcher } from "undici";
import { concatBytes, utf8Text } from "../bytes.js";
import type { ClientLifecycle } from "../lifecycle.js";
import { OpenExchange } from "../open-exchanges.js";
import { Answer, type BodySource, type BodyStream } from "./answer.js";
import { refusalOf, transportError } from "./failures.js";
import type { ResponseHeaders } from "./messages.js";
import type { Transport, WireRequest, WireSettings } from "./transport.js";

export class UndiciTransport implements Transport {
  constructor(
    private readonly dispatcher: Dispatcher,
    /** Whether close() closes the dispatcher (only when the client made it). */
    private readonly owned: boolean,
    readonly secrets: readonly string[] = [],
  ) {}

  send(request: WireRequest, settings: WireSettings, lifecycle: ClientLifecycle): Promise<Answer> {
    const refusal = refusalOf(request, lifecycle);
    if (refusal) return Promise.reject(refusal);
    return new Promise((resolve, reject) => {
      new DispatchExchange(request, settings, lifecycle, resolve, reject).start(this.dispatcher);
    });
  }

  async close(): Promise<void> {
    if (this.owned) await this.dispatcher.destroy();
  }
}

/** Until the answer's own arrive: one shared object, not one per exchange. */
const NO_HEADERS: ResponseHeaders = Object.freeze({});

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
  private headers: ResponseHeaders = NO_HEADERS;
  private limit = 0;
  private size = 0;
  /** More arrived than the limit lets through: the text kept is the body's start. */
  private truncated = false;
  private readonly chunks: Uint8Array[] = [];
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
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
      // A Web FormData is sent as undici sends its own (it takes any FormData by its shape).
      dispatcher.dispatch(
        {
          origin: req.origin,
          path: req.path,
          method: req.method,
          headers: req.headers,
          body: req.body as Dispatcher.DispatchOptions["body"],
        },
        this,
      );
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

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: ResponseHeaders): void {
    if (status < 200 || this.over) return; // 1xx: informational, the answer follows
    this.status = status;
    this.headers = headers;
    const limits = this.settings.limits;
    if (limits) {
      this.limit = status < 300 ? limits.okBytes : limits.errorBytes;
      return;
    }
    const body: BodyStream = new ReadableStream<Uint8Array>(
      {
        start: (stream) => {
          this.stream = stream;
        },
        pull: () => {
          this.controller?.resume();
        },
        cancel: () => {
          // The reader let go of the body before its end: undici drops the connection.
          if (!this.over) {
            this.controller?.abort(ENDED);
            this.end();
          }
        },
      },
      { highWaterMark: 1 },
    );
    this.answered = true;
    this.resolve(new Answer(status, headers, body, false, undefined, this));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Uint8Array): void {
    // undici resumes a paused parser by running it on an empty buffer, which may arrive here as an empty
    // chunk: queued, it would fill the stream and pause undici again with nothing read, for ever.
    if (this.over || chunk.length === 0) return;
    if (this.stream) {
      this.stream.enqueue(chunk);
      if ((this.stream.desiredSize ?? 0) <= 0) controller.pause();
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
      this.stream.close();
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
      this.stream.error(typed);
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
    const text = failure ? "" : utf8Text(concatBytes(this.chunks, this.size));
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
