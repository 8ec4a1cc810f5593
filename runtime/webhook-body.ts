/**
 * A delivery's body as the handler gets it: the exact bytes (which the
 * signature covers), read from the request under a size limit, or taken from
 * a framework that already read them (`req.rawBody`, or `req.body` as a
 * Buffer or string, as express.raw() and Fastify's buffer parser leave it).
 */
import type { IncomingMessage } from "node:http";
import type { ReadableStreamReadResult } from "node:stream/web";
import { WebhookError } from "./webhook-errors.js";

/** What node:http, Express and Fastify hand the handler: a request, perhaps with its body already read. */
export type WebhookRequest = IncomingMessage & { readonly body?: unknown; readonly rawBody?: unknown };

/** The exact text of the body, or (without a secret only) a body a framework had already parsed. */
export type DeliveryBody = { readonly kind: "text"; readonly text: string } | { readonly kind: "parsed"; readonly value: unknown };

export async function readDeliveryBodyOrThrow(req: WebhookRequest, maxBytes: number): Promise<DeliveryBody> {
  const ready = bytesOf(req.rawBody) ?? bytesOf(req.body);
  if (ready !== undefined) return { kind: "text", text: underLimitOrThrow(ready, maxBytes).toString("utf8") };
  if (!req.readableDidRead && !req.readableEnded) return { kind: "text", text: (await readStreamOrThrow(req, maxBytes)).toString("utf8") };
  if (typeof req.body === "object" && req.body !== null) return { kind: "parsed", value: req.body };
  throw new WebhookError(
    "WEBHOOK_BODY_UNAVAILABLE",
    "Webhook body unavailable: the request stream was consumed before the handler and no raw body was left on req.rawBody or req.body; " +
      "mount the handler before any body parser, or give it the raw bytes (express.raw(), Fastify's parseAs: \"buffer\")",
    500,
  );
}

function bytesOf(value: unknown): Buffer | undefined {
  if (typeof value === "string") return Buffer.from(value, "utf8");
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
}

function underLimitOrThrow(bytes: Buffer, maxBytes: number): Buffer {
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

/** Reads up to maxBytes; past it (or when Content-Length already says so) stops keeping bytes and rejects. */
function readStreamOrThrow(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
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
      resolve(Buffer.concat(chunks));
    });
    const broken = (cause?: unknown): void => {
      reject(new WebhookError("WEBHOOK_BODY_UNAVAILABLE", "Webhook body unavailable: the connection broke before the body ended", 400, { cause }));
    };
    req.once("error", broken);
    // An aborted request may close without an error event; settling twice is harmless.
    req.once("close", () => {
      if (!req.complete) broken();
    });
  });
}

function tooLarge(maxBytes: number): WebhookError {
  return new WebhookError("WEBHOOK_BODY_TOO_LARGE", `Webhook delivery refused: the body is larger than maxBodyBytes (${maxBytes} bytes)`, 413);
}

/** A Fetch-API request's body (Bun.serve, Deno.serve, Hono, Next.js route handlers), read up to maxBytes. */
export async function readFetchBodyOrThrow(request: Request, maxBytes: number): Promise<DeliveryBody> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (request.bodyUsed) {
    throw new WebhookError("WEBHOOK_BODY_UNAVAILABLE", "Webhook body unavailable: the request body was read before the handler; pass the request to the handler unread", 500);
  }
  if (request.body === null) return { kind: "text", text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      // Request's body is a byte stream; the global typings leave its chunks untyped.
      next = (await reader.read()) as ReadableStreamReadResult<Uint8Array>;
    } catch (cause) {
      throw new WebhookError("WEBHOOK_BODY_UNAVAILABLE", "Webhook body unavailable: the connection broke before the body ended", 400, { cause });
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(next.value);
  }
  return { kind: "text", text: Buffer.concat(chunks, size).toString("utf8") };
}
