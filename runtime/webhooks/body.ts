/**
 * A delivery's body as the handler gets it: the exact bytes (which the
 * signature covers), read from the request under a size limit, or taken from
 * a framework that already read them (`req.rawBody`, or `req.body` as a
 * Buffer or string, as express.raw() and Fastify's buffer parser leave it).
 */
import { concatBytes, utf8Bytes, utf8Text } from "../bytes.js";
import { WebhookError } from "./errors.js";

/**
 * What node:http, Express and Fastify hand the handler: a request (node:http's
 * IncomingMessage fits), perhaps with its body already read. Described by
 * what the handler uses, so these types need no Node typings.
 */
export interface WebhookRequest {
  /** The request's method; anything but POST is answered 405. */
  readonly method?: string | undefined;
  /** The request's headers, names in lower case (the `webhook-*` headers are read from them). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Whether something already read from the stream (then the body must be on `rawBody` or `body`). */
  readonly readableDidRead?: boolean;
  /** Whether the stream has ended. */
  readonly readableEnded?: boolean;
  /** Whether the whole request arrived (node:http's IncomingMessage). */
  readonly complete?: boolean;
  /** The connection, closed after a 413 once the answer had time to leave. */
  readonly socket?: {
    /** Closes the connection. */
    destroy(): void;
  } | null;
  /** A body a framework left: a Buffer or string is verified as is; an object already parsed cannot be. */
  readonly body?: unknown;
  /** The raw body a raw-body plugin left (a Buffer or string); read before `body`. */
  readonly rawBody?: unknown;
  /** The stream's chunks, read while nothing else read them. */
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  /** The stream's end, error or close. */
  on(event: "error" | "end" | "close", listener: (error?: unknown) => void): unknown;
  /** The stream's end, error or close, once. */
  once(event: "error" | "end" | "close", listener: (error?: unknown) => void): unknown;
  /** Stops listening for chunks (a body over the limit). */
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  /** Lets the rest of a refused body drain. */
  resume(): unknown;
}

/** The exact text of the body, or (without a secret only) a body a framework had already parsed. */
export type DeliveryBody =
  { readonly kind: "text"; readonly text: string } | { readonly kind: "parsed"; readonly value: unknown };

export async function readDeliveryBodyOrThrow(req: WebhookRequest, maxBytes: number): Promise<DeliveryBody> {
  const ready = bytesOf(req.rawBody) ?? bytesOf(req.body);
  if (ready !== undefined) return { kind: "text", text: utf8Text(underLimitOrThrow(ready, maxBytes)) };
  if (!req.readableDidRead && !req.readableEnded)
    return { kind: "text", text: utf8Text(await readStreamOrThrow(req, maxBytes)) };
  if (typeof req.body === "object" && req.body !== null) return { kind: "parsed", value: req.body };
  throw new WebhookError(
    "WEBHOOK_BODY_UNAVAILABLE",
    "Webhook body unavailable: the request stream was consumed before the handler and no raw body was left on req.rawBody or req.body; " +
      'mount the handler before any body parser, or give it the raw bytes (express.raw(), Fastify\'s parseAs: "buffer")',
    500,
  );
}

function bytesOf(value: unknown): Uint8Array | undefined {
  if (typeof value === "string") return utf8Bytes(value);
  if (value instanceof Uint8Array) return value;
  return undefined;
}

function underLimitOrThrow(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

/** Reads up to maxBytes; past it (or when Content-Length already says so) stops keeping bytes and rejects. */
function readStreamOrThrow(req: WebhookRequest, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const onData = (chunk: Uint8Array): void => {
      size += chunk.byteLength;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      // Discard the rest unread; the handler answers 413 and closes the connection.
      req.off("data", onData);
      req.resume();
      chunks.length = 0;
      reject(tooLarge(maxBytes));
    };
    req.on("data", onData);
    req.once("end", () => {
      resolve(concatBytes(chunks));
    });
    const broken = (cause?: unknown): void => {
      reject(
        new WebhookError(
          "WEBHOOK_BODY_UNAVAILABLE",
          "Webhook body unavailable: the connection broke before the body ended",
          400,
          { cause },
        ),
      );
    };
    req.once("error", broken);
    // An aborted request may close without an error event; settling twice is harmless.
    req.once("close", () => {
      if (!req.complete) broken();
    });
  });
}

function tooLarge(maxBytes: number): WebhookError {
  return new WebhookError(
    "WEBHOOK_BODY_TOO_LARGE",
    `Webhook delivery refused: the body is larger than maxBodyBytes (${maxBytes} bytes)`,
    413,
  );
}

/** A Fetch-API request's body (Bun.serve, Deno.serve, Hono, Next.js route handlers), read up to maxBytes. */
export async function readFetchBodyOrThrow(request: Request, maxBytes: number): Promise<DeliveryBody> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (request.bodyUsed) {
    throw new WebhookError(
      "WEBHOOK_BODY_UNAVAILABLE",
      "Webhook body unavailable: the request body was read before the handler; pass the request to the handler unread",
      500,
    );
  }
  if (request.body === null) return { kind: "text", text: "" };
  const reader: ReadableStreamDefaultReader<Uint8Array> = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read().catch((cause: unknown) => {
      throw new WebhookError(
        "WEBHOOK_BODY_UNAVAILABLE",
        "Webhook body unavailable: the connection broke before the body ended",
        400,
        { cause },
      );
    });
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(next.value);
  }
  return { kind: "text", text: utf8Text(concatBytes(chunks, size)) };
}
