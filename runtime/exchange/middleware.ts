/**
 * Middleware around the network side: checked once at createClient, chained
 * once per attempt, and a middleware's own response turned into an Answer
 * the calls above can use (read whole, or streamed for getFile).
 */
import { utf8Bytes, utf8Text } from "../bytes.js";
import { ConfigurationError, FlowsmithError } from "../errors.js";
import { Answer, readText, streamOf, type LimitedText, type TextLimits } from "./answer.js";
import type { ExchangeRequest, ExchangeResponse, Middleware, Next } from "./messages.js";

export function middlewareOrThrow(value: unknown): readonly Middleware[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new ConfigurationError("middleware must be an array of functions (request, next) => Promise<response>");
  value.forEach((item: unknown, index) => {
    if (typeof item !== "function")
      throw new ConfigurationError(
        `middleware[${String(index)}] must be a function (request, next) => Promise<response>; got ${typeof item}`,
      );
  });
  return Object.freeze([...(value as Middleware[])]);
}

/** `last` behind every middleware, the first outermost. */
export function chain(middleware: readonly Middleware[], last: Next): Next {
  return middleware.reduceRight<Next>((next, layer) => (request) => layer(request, next), last);
}

/** What the chain answered, as an Answer: ours as it is, a middleware's own read (or wrapped) for the call's kind. */
export async function answerOf(
  response: ExchangeResponse,
  request: ExchangeRequest,
  limits: TextLimits | undefined,
): Promise<Answer> {
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
  const stream = body instanceof ReadableStream ? (body as ReadableStream<Uint8Array>) : undefined;
  if (!(body === undefined || typeof body === "string" || body instanceof Uint8Array || stream)) {
    throw new FlowsmithError(
      "INVALID_MIDDLEWARE_RESPONSE",
      `${request.method} ${request.path}: a middleware answered a body of another kind; give text, bytes (a Uint8Array) or a ReadableStream of bytes`,
    );
  }
  if (limits === undefined)
    return new Answer(status, headers, stream ?? streamOf(bytesOf(body as string | Uint8Array | undefined)), false);
  const limit = status < 300 ? limits.okBytes : limits.errorBytes;
  const { text, truncated } = stream
    ? await readText(stream, limit)
    : cutText(bytesOf(body as string | Uint8Array | undefined), limit);
  return new Answer(status, headers, text, truncated);
}

/** Bytes as text, cut at `limit` as the network side cuts a body. */
function cutText(bytes: Uint8Array, limit: number): LimitedText {
  return { text: utf8Text(bytes.subarray(0, limit)), truncated: bytes.length > limit };
}

function bytesOf(body: string | Uint8Array | undefined): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  return typeof body === "string" ? utf8Bytes(body) : body;
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
