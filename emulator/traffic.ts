/**
 * What stands in front of both hosts' endpoints: every request is written to
 * the journal when its exchange ends, and the first fault matching it (if
 * any) is applied: wait `delayMs`, then answer the fault's status, or drop
 * the connection before processing the request, or process it and drop the
 * connection instead of answering (`reset: "after"`: the request took
 * effect, the client never hears). The control API is not behind it.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorClock } from "./clock.js";
import { FaultStore, type Fault, type HostName } from "./faults.js";
import { discardBodyThen, pathOf, sendJson } from "./http-exchange.js";
import { RequestJournal } from "./journal.js";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A journaled path is cut here: node admits 16 KB of headers, the journal need not keep them. */
const MAX_JOURNALED_PATH = 2048;

/** What the journal says of an exchange a fault ended. */
interface Dropped {
  /** The status the emulator produced but never sent (`reset: "after"`). */
  status: number | null;
}

export class Traffic {
  readonly journal = new RequestJournal();
  readonly faults = new FaultStore();
  /** Requests waiting out a fault's delayMs, each with what ends the wait early. */
  private readonly waiting = new Set<() => void>();

  constructor(private readonly clock: EmulatorClock) {}

  /** The host's listener behind the journal and the faults. */
  observe(host: HostName, listener: Listener): Listener {
    return (req, res) => {
      const at = new Date(this.clock.now()).toISOString();
      const method = req.method ?? "";
      const path = pathOf(req);
      const requestId = requestIdOf(req);
      res.setHeader("x-request-id", requestId);
      const fault = this.faults.take(host, method, path);
      const dropped: { value?: Dropped } = {};
      res.once("close", () => {
        const answered = dropped.value === undefined && res.writableFinished;
        this.journal.add({
          at,
          host,
          method,
          path: path.length > MAX_JOURNALED_PATH ? `${path.slice(0, MAX_JOURNALED_PATH)}…` : path,
          status: dropped.value ? dropped.value.status : answered || res.headersSent ? res.statusCode : null,
          requestId,
          fault: fault?.id ?? null,
          dropped: !answered,
        });
      });
      if (!fault) {
        listener(req, res);
        return;
      }
      this.apply(fault, req, res, listener, dropped).catch(() => {
        // Whatever a fault does is answered: 500 naming it, or the connection closed once an answer had started.
        if (res.headersSent) res.destroy();
        else
          sendJson(res, 500, {
            status: 500,
            code: "INTERNAL_ERROR",
            message: `the emulator failed applying ${fault.id} (POST /__emulator/faults)`,
          });
      });
    };
  }

  /** Ends every fault delay now (the requests go on): at reset and close. */
  endDelays(): void {
    for (const end of [...this.waiting]) end();
  }

  private async apply(
    fault: Fault,
    req: IncomingMessage,
    res: ServerResponse,
    listener: Listener,
    dropped: { value?: Dropped },
  ): Promise<void> {
    if (fault.delayMs > 0) await this.delay(fault.delayMs);
    if (res.closed) return;
    if (fault.reset === "before") {
      dropped.value = { status: null };
      req.socket.resetAndDestroy();
      return;
    }
    if (fault.status !== undefined) {
      const status = fault.status;
      const answer = (): void => {
        answerFault(res, fault, status);
      };
      if (req.complete) answer();
      else discardBodyThen(req, answer);
      return;
    }
    if (fault.reset === "after") {
      dropped.value = { status: null };
      dropInsteadOfAnswering(req, res, dropped.value);
    }
    listener(req, res);
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = (): void => {
        this.waiting.delete(end);
        this.clock.clearTimeout(timer);
        resolve();
      };
      const timer = this.clock.setTimeout(end, ms);
      this.waiting.add(end);
    });
  }
}

/**
 * The endpoint runs as usual; the moment it starts its answer (writeHead,
 * which every answer goes through, errors and implicit headers included),
 * the connection is reset instead, and the status it chose is kept for the journal.
 */
function dropInsteadOfAnswering(req: IncomingMessage, res: ServerResponse, dropped: Dropped): void {
  res.writeHead = function (this: ServerResponse, statusCode: number) {
    dropped.status ??= statusCode;
    if (!req.socket.destroyed) req.socket.resetAndDestroy();
    return this;
  };
}

/**
 * The fault's answer. It runs from the request's `end` event too, outside any promise a
 * caller could catch, so whatever writing it throws (fault-input.ts refuses the headers node
 * would; this is the net under that) is answered here: 500 naming the fault, or the
 * connection closed when the answer had started.
 */
function answerFault(res: ServerResponse, fault: Fault, status: number): void {
  if (res.headersSent || res.closed) return;
  try {
    // Only an absent body gets the default: `null` is a JSON body a test may want answered.
    const body =
      fault.body === undefined
        ? { status, code: "INJECTED_FAULT", message: `answered by ${fault.id} (POST /__emulator/faults)` }
        : fault.body;
    const text = typeof body === "string" ? body : JSON.stringify(body);
    const type = typeof body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
    // 204 and 304 have no body by definition.
    const bodiless = status === 204 || status === 304;
    res.writeHead(status, {
      "content-type": type,
      ...fault.headers,
      ...(bodiless ? {} : { "content-length": String(Buffer.byteLength(text)) }),
    });
    res.end(bodiless ? undefined : text);
  } catch {
    answerUnwritableFault(res, fault);
  }
}

function answerUnwritableFault(res: ServerResponse, fault: Fault): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // writeHead may have kept some of the fault's headers before it threw.
  for (const name of res.getHeaderNames()) if (name !== "x-request-id") res.removeHeader(name);
  sendJson(res, 500, {
    status: 500,
    code: "INTERNAL_ERROR",
    message: `${fault.id} could not be answered as given (POST /__emulator/faults): node refused its status, headers or body`,
  });
}

/** The client's own `x-request-id` when it is a short printable token, else a new one. */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && /^[\x21-\x7e]{1,128}$/.test(given) ? given : `req_${randomUUID()}`;
}
