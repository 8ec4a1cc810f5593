/**
 * Middleware around the network side: checked once at createClient, chained
 * once per attempt, and a middleware's own response turned into an Answer
 * the calls above can use (read whole, or streamed for getFile).
 */
import { Readable } from "node:stream";
import { ConfigurationError, FlowsmithError } from "../errors.js";
import { Answer, readText, type LimitedText, type TextLimits } from "./answer.js";
import type { ExchangeRequest, ExchangeResponse, Middleware, Next } from "./messages.js";

export function middlewareOrThrow(value: unknown): readonly Middleware[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigurationError("middleware must be an array of functions (request, next) => Promise<response>");
  value.forEach((item: unknown, index) => {
    if (typeof item !== "function") throw new ConfigurationError(`middleware[${String(index)}] must be a function (request, next) => Promise<response>; got ${typeof item}`);
  });
  return Object.freeze([...(value as Middleware[])]);
}

/** `last` behind every middleware, the first outermost. */
export function chain(middleware: readonly Middleware[], last: Next): Next {
  return middleware.reduceRight<Next>((next, layer) => (request) => layer(request, next), last);
}

/** What the chain answered, as an Answer: ours as it is, a middleware's own read (or wrapped) for the call's kind. */
export async function answerOf(response: ExchangeResponse, request: ExchangeRequest, limits: TextLimits | undefined): Promise<Answer> {
  if (response instanceof Answer) return response;
  const status = (response as Partial<ExchangeResponse> | undefined)?.status;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599) {
    throw new FlowsmithError(
      "INVALID_MIDDLEWARE_RESPONSE",
      `${request.method} ${request.path}: a middleware answered ${describe(response)}; a response needs a status from 200 to 599, headers and a body`,
    );
  }
  const headers = lowerCased(response.headers);
  const body: unknown = response.body;
  if (!(body === undefined || typeof body === "string" || body instanceof Uint8Array || body instanceof Readable)) {
    throw new FlowsmithError(
      "INVALID_MIDDLEWARE_RESPONSE",
      `${request.method} ${request.path}: a middleware answered a body of another kind; give text, bytes (a Uint8Array) or a node:stream Readable`,
    );
  }
  if (limits === undefined) return new Answer(status, headers, body instanceof Readable ? body : Readable.from([bytesOf(body)]), false);
  const limit = status < 300 ? limits.okBytes : limits.errorBytes;
  const { text, truncated } = body instanceof Readable ? await readText(body, limit) : cutText(bytesOf(body), limit);
  return new Answer(status, headers, text, truncated);
}

/** Bytes as text, cut at `limit` as the network side cuts a body. */
function cutText(bytes: Buffer, limit: number): LimitedText {
  return { text: bytes.subarray(0, limit).toString("utf8"), truncated: bytes.length > limit };
}

function bytesOf(body: string | Uint8Array | undefined): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  return typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function lowerCased(headers: ExchangeResponse["headers"] | undefined): Record<string, string | string[] | undefined> {
  const result: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) result[name.toLowerCase()] = value;
  return result;
}

function describe(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value);
  const status = (value as { status?: unknown }).status;
  return `an object with status ${typeof status === "number" ? String(status) : typeof status}`;
}
