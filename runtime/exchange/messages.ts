/**
 * What passes through the one exchange path: a request as middleware sees it
 * (ExchangeRequest), an answer as middleware gives it (ExchangeResponse), and
 * middleware itself. Public: createClient({ middleware }) takes these.
 */

/** One attempt of one call (every attempt: retries and the resend after a 401 each pass again). */
export interface ExchangeRequest {
  /** "token": the token request to `{authUrl}/oidc/token`; "api": every other call. */
  readonly kind: "api" | "token";
  /** The HTTP method. */
  readonly method: "GET" | "POST";
  /** Scheme, host and port (`https://api.example`). */
  readonly origin: string;
  /** The path as sent, with the baseUrl's prefix; no query. */
  readonly path: string;
  /** The path's template (`/api/v1/{environment}/sessions/{sessionId}`, with the baseUrl's prefix): what logs and spans name. */
  readonly route: string;
  /** Lower-case names; a fresh object per attempt, so a middleware may add to it (a request id). */
  readonly headers: Record<string, string>;
  /** JSON or form text, or multipart FormData; undefined for a GET. The token request's body carries the client secret. */
  readonly body: string | FormData | undefined;
  /** 1 for the first attempt of a call; a retry or the resend after a 401 counts on. */
  readonly attempt: number;
  /** The caller's signal, when it passed one. */
  readonly signal: AbortSignal | undefined;
}

/** Response headers: lower-case names. */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** An answer: from the network, or made by a middleware (a test answering without the network). */
export interface ExchangeResponse {
  /** The HTTP status, 200 to 599 (a middleware's answer outside it is INVALID_MIDDLEWARE_RESPONSE). */
  readonly status: number;
  /** Lower-case names. */
  readonly headers: ResponseHeaders;
  /**
   * From the network: the text, read whole (every call but getFile), or a
   * stream (getFile). From a middleware: any of text, bytes or a Web
   * ReadableStream of bytes; undefined is an empty body.
   */
  readonly body: string | Uint8Array | ReadableStream<Uint8Array> | undefined;
}

/** The rest of the path, as a middleware calls it: the next middleware, then the network. */
export type Next = (request: ExchangeRequest) => Promise<ExchangeResponse>;

/**
 * Runs on every attempt, inside retries, in the order given (the first is
 * outermost). Call `next` to go on (with the request or a changed copy), or
 * return a response of your own. What it throws is what the call rejects with.
 */
export type Middleware = (request: ExchangeRequest, next: Next) => Promise<ExchangeResponse>;
