/**
 * Writing answers on node:http, shared by both listeners. Every answer is
 * JSON except files; an error that escapes a handler becomes a 500 body, so a
 * bad request can never take the process down.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_REQUEST_BYTES } from "@flowsmith/runtime/service-limits";
import { ApiError } from "./errors.js";

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: ApiError, options: { readonly closeConnection?: boolean } = {}): void {
  sendJson(res, error.status, error.toBody(), {
    ...error.extra.headers,
    ...(options.closeConnection ? { connection: "close" } : {}),
  });
}

/** Wraps a handler so that nothing it throws or rejects escapes the server. */
export function guarded(handler: Handler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handler(req, res).catch((error: unknown) => {
      if (error instanceof ApiError) {
        sendError(res, error);
        return;
      }
      if (!res.headersSent) {
        sendError(res, new ApiError(500, "INTERNAL_ERROR", `the emulator failed on ${req.method} ${pathOf(req)}`));
      } else {
        res.destroy();
      }
    });
  };
}

/** Rejects requests without User-Agent: the service's firewall does this before anything else. */
export function requireUserAgentOrThrow(req: IncomingMessage): void {
  const agent = req.headers["user-agent"];
  if (agent === undefined || agent.trim() === "") {
    throw new ApiError(
      403,
      "USER_AGENT_REQUIRED",
      "request rejected: the User-Agent header is required on every request",
    );
  }
}

/** The request path without its query string (which may carry tokens). */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

export function mediaTypeOf(req: IncomingMessage): string {
  const [mediaType = ""] = (req.headers["content-type"] ?? "").split(";", 1);
  return mediaType.trim().toLowerCase();
}

/** Reads a small body whole, refusing more than `maxBytes` while reading. */
export function readSmallBodyOrThrow(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      req.off("data", onData);
      reject(new ApiError(413, "REQUEST_TOO_LARGE", `request body is larger than ${maxBytes} bytes`));
    };
    req.on("data", onData);
    req.once("end", () => {
      resolve(Buffer.concat(chunks));
    });
    req.once("error", () => {
      reject(new ApiError(400, "MALFORMED_BODY", "the request body was aborted before it ended"));
    });
  });
}

/**
 * Answers an upload that broke a rule before its body was read to the end.
 * The rest of the body is read and discarded (never stored), the answer goes
 * out once the body has ended, and the connection is then closed. Answering
 * first would not do: node closes a `Connection: close` socket as soon as the
 * answer is written, and closing with the client's bytes still arriving makes
 * the kernel reset the connection, so a client still sending would get
 * EPIPE or ECONNRESET instead of the status. Past DISCARD_LIMIT_BYTES the
 * answer goes out anyway and the connection is closed (a client sending that
 * much more may then see a reset).
 */
export function rejectUpload(req: IncomingMessage, res: ServerResponse, error: ApiError): void {
  if (req.complete) {
    sendError(res, error);
    return;
  }
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  discardBodyThen(req, () => {
    sendError(res, error, { closeConnection: true });
  });
}

/** Reads the rest of the request body and throws it away (never stored), then calls `then`: at its end, or past DISCARD_LIMIT_BYTES. */
export function discardBodyThen(req: IncomingMessage, then: () => void): void {
  let discarded = 0;
  const answer = (): void => {
    req.off("data", discard);
    req.off("end", answer);
    then();
  };
  const discard = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT_BYTES) answer();
  };
  req.unpipe();
  req.on("data", discard);
  req.once("end", answer);
  req.resume();
}

/** How much of a refused body is read and thrown away before answering regardless: twice the 50 MB limit. */
const DISCARD_LIMIT_BYTES = 2 * MAX_REQUEST_BYTES;
