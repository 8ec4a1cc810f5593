/**
 * An authorized call to the API: bearer token, one retry with a new token
 * after a 401, GET retries (retry.ts), and non-2xx answers turned into ApiErrors.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { FormData } from "undici";
import { raceSignal, sleep, type Operation } from "./abort.js";
import type { TokenCache } from "./auth.js";
import { BaseUrl, type RequestTarget } from "./base-url.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { apiErrorFor, InvalidResponseError, type ValidationIssue } from "./errors.js";
import { exchangeStream, type HttpResponse } from "./http.js";
import { positive } from "./option-numbers.js";
import type { Redactor } from "./redaction.js";
import { decideRetry, parseRetryAfter, type RetryDecision } from "./retry.js";
import { exchangeText, type TextAnswer, type TextLimits } from "./text-exchange.js";
import type { HttpRequest, Transport } from "./transport.js";
import { describeIssues } from "./validation-issues.js";

export interface ApiRequest {
  readonly method: "GET" | "POST";
  /** Appended to the client's baseUrl; starts with `/`, no query string. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON text (sent as application/json) or multipart form data (undici sets its content type). */
  readonly body?: { readonly json: string } | { readonly form: FormData };
  readonly signal?: AbortSignal;
  /** Per attempt; default the client's timeoutMs. */
  readonly timeoutMs?: number;
}

/** How a 2xx body is checked before it is returned (response-shapes.ts). */
export interface ResponseCheck {
  /** What is wrong with the parsed body; empty when it is what the service documents. */
  readonly issuesOf: (body: unknown) => readonly ValidationIssue[];
  /** For a POST: what the 2xx means was done (`The session WAS created`), said in the error so nobody retries blindly. */
  readonly tookEffect?: string;
}

const DEFAULT_TOOK_EFFECT = "The request WAS carried out (the service answered 2xx): sending it again would do it twice";

/** An error body is read up to this size for the error's `body`; a 2xx body that fails its check is kept up to it too. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** A JSON body larger than this is not kept whole in memory: it is cut, and so is not JSON. */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

/** What authorization, retries and errors need of an answer, whether its body was read whole or is a stream. */
interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  errorText(limitBytes: number): Promise<string>;
  discard(): Promise<void>;
}

/** One exchange of either kind: read whole (text-exchange.ts) or streamed (http.ts). */
type Exchange<A extends Answer> = (transport: Transport, req: HttpRequest) => Promise<A>;

const JSON_LIMITS: TextLimits = { okBytes: JSON_BODY_LIMIT, errorBytes: ERROR_BODY_LIMIT };
const readWhole: Exchange<TextAnswer> = (transport, req) => exchangeText(transport, req, JSON_LIMITS);

export class ApiCaller {
  private readonly baseUrl: BaseUrl;

  constructor(
    private readonly options: ResolvedClientOptions,
    private readonly transport: Transport,
    private readonly tokens: TokenCache,
    private readonly redactor: Redactor,
  ) {
    this.baseUrl = new BaseUrl(options.baseUrl);
  }

  /** The 2xx response, its body unread, as a stream (getFile). GETs are retried; requests with a body never are. */
  send(req: ApiRequest): Promise<HttpResponse> {
    try {
      checkCallOptionsOrThrow(req);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.exchange(req, this.baseUrl.resolve(req.path), exchangeStream);
  }

  private exchange<A extends Answer>(req: ApiRequest, target: RequestTarget, exchange: Exchange<A>): Promise<A> {
    return req.method === "GET" ? this.sendWithRetries(req, target, exchange) : this.sendAuthorized(req, target, exchange);
  }

  private async sendWithRetries<A extends Answer>(req: ApiRequest, target: RequestTarget, exchange: Exchange<A>): Promise<A> {
    for (let retriesDone = 0; ; retriesDone++) {
      try {
        return await this.sendAuthorized(req, target, exchange);
      } catch (error) {
        const decision: RetryDecision = decideRetry(error, retriesDone, this.options.retry);
        if (!decision.retry) throw error;
        const stop = { caller: req.signal, closing: this.transport.lifecycle.signal };
        await sleep(this.options.clock, decision.delayMs, stop, operationOf(req, target));
      }
    }
  }

  /**
   * The parsed JSON body of the 2xx response (undefined when it is empty),
   * after `check` found nothing wrong with it: a body that is not JSON, or not
   * the documented shape, is an InvalidResponseError and is never returned.
   */
  async json<T>(req: ApiRequest, check?: ResponseCheck): Promise<T> {
    try {
      checkCallOptionsOrThrow(req);
      const target = this.baseUrl.resolve(req.path);
      const token = req.method === "GET" ? undefined : this.tokens.cachedToken();
      let response: TextAnswer;
      if (token === undefined) response = await this.exchange(req, target, readWhole);
      else {
        // A request with a body and a cached token (createSession, the hot path) is sent from here: the steps of
        // sendAuthorized, with one async function fewer for every answer to pass through.
        const first = await this.sendWithToken(req, target, token, readWhole);
        response = isOk(first) ? first : await this.afterRefusal(req, target, token, first, readWhole);
      }
      // The body passed its check (or the caller asked for none): it is the T the caller named.
      return this.parsedOrThrow(req, response, check) as T;
    } catch (error) {
      // Scrubbed here, whoever calls: createSession returns this promise as it is (create-session.ts).
      throw this.redactor.error(error);
    }
  }

  private parsedOrThrow(req: ApiRequest, response: TextAnswer, check: ResponseCheck | undefined): unknown {
    // The body broke off after a 2xx (time limit, network, close()): that is the call's error.
    if (response.failure) throw response.failure;
    const text = response.text;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // Checked only here: an empty body is rare, and JSON.parse refuses it anyway.
      if (text.trim() !== "") throw this.invalidResponse(req, response.status, text, "the body is not JSON", check);
      body = undefined;
    }
    const issues = check?.issuesOf(body) ?? [];
    if (issues.length === 0) return body;
    const detail = body === undefined ? "the body is empty" : `the body is not what the service documents: ${describeIssues(issues)}`;
    throw this.invalidResponse(req, response.status, body, detail, check, issues);
  }

  /** The path errors name: with the baseUrl's prefix, without host or query. */
  displayPath(req: Pick<ApiRequest, "path">): string {
    return this.baseUrl.resolve(req.path).displayPath;
  }

  private async sendAuthorized<A extends Answer>(req: ApiRequest, target: RequestTarget, exchange: Exchange<A>): Promise<A> {
    // A cached token is used as is: no promise to wait for, nothing to race the signal against.
    const token = this.tokens.cachedToken() ?? (await raceSignal(this.tokens.getToken(), req.signal, operationOf(req, target)));
    const first = await this.sendWithToken(req, target, token, exchange);
    return isOk(first) ? first : this.afterRefusal(req, target, token, first, exchange);
  }

  /** After a non-2xx `first`: one more try with a new token after a 401, else the ApiError. */
  private async afterRefusal<A extends Answer>(req: ApiRequest, target: RequestTarget, token: string, first: A, exchange: Exchange<A>): Promise<A> {
    if (first.status !== 401) throw await this.errorOf(req, target, first);
    // A 401 proves the service did not act on the request, so sending it again is safe, even a POST.
    await first.discard();
    this.tokens.invalidate(token);
    const fresh = await raceSignal(this.tokens.getToken(), req.signal, operationOf(req, target));
    const second = await this.sendWithToken(req, target, fresh, exchange);
    if (isOk(second)) return second;
    throw await this.errorOf(req, target, second);
  }

  private sendWithToken<A extends Answer>(req: ApiRequest, target: RequestTarget, token: string, exchange: Exchange<A>): Promise<A> {
    const body = req.body;
    return exchange(this.transport, {
      method: req.method,
      origin: target.origin,
      path: target.path,
      displayPath: target.displayPath,
      headers: this.headersFor(req, token),
      body: body && ("json" in body ? body.json : body.form),
      signal: req.signal,
      timeoutMs: req.timeoutMs ?? this.options.timeoutMs,
    });
  }

  /** One object, User-Agent included, so nothing below copies it again. */
  private headersFor(req: ApiRequest, token: string): Record<string, string> {
    const authorization = `Bearer ${token}`;
    const userAgent = this.transport.userAgent;
    const isJson = req.body !== undefined && "json" in req.body;
    if (req.headers === undefined) {
      return isJson
        ? { accept: "application/json", authorization, "content-type": "application/json", "user-agent": userAgent }
        : { accept: "application/json", authorization, "user-agent": userAgent };
    }
    const headers: Record<string, string> = { accept: "application/json", ...req.headers, authorization };
    if (isJson) headers["content-type"] = "application/json";
    headers["user-agent"] = userAgent;
    return headers;
  }

  private invalidResponse(
    req: ApiRequest,
    status: number,
    body: unknown,
    detail: string,
    check: ResponseCheck | undefined,
    issues: readonly ValidationIssue[] = [{ path: "(root)", message: "is not JSON" }],
  ): InvalidResponseError {
    const method = req.method;
    const path = this.displayPath(req);
    const tookEffect = method !== "GET";
    const consequence = tookEffect ? ` ${check?.tookEffect ?? DEFAULT_TOOK_EFFECT}.` : "";
    // Cut text is scrubbed as cut: the start of a secret at its end goes too.
    const kept = typeof body === "string" ? this.redactor.text(body.slice(0, ERROR_BODY_LIMIT), { truncated: body.length > ERROR_BODY_LIMIT }) : this.redactor.value(body);
    return new InvalidResponseError(
      { method, path, status, body: kept, issues, tookEffect },
      `${method} ${path} answered ${String(status)}, but ${detail}.${consequence} error.body holds the body as received.`,
    );
  }

  /** The ApiError for a non-2xx response, its body read (up to ERROR_BODY_LIMIT) and scrubbed. */
  private async errorOf(req: ApiRequest, target: RequestTarget, response: Answer): Promise<Error> {
    const text = await response.errorText(ERROR_BODY_LIMIT);
    const body = parseErrorBody(text, response.headers["content-type"]);
    return apiErrorFor({
      status: response.status,
      method: req.method,
      path: target.displayPath,
      // Scrubbed before the message is cut from it (errors.ts keeps 300 characters); text at the limit as cut there.
      body: typeof body === "string" ? this.redactor.text(body, { truncated: mayBeCut(text) }) : this.redactor.value(body),
      retryAfterMs: parseRetryAfter(response.headers["retry-after"], this.options.clock.now()),
    });
  }
}

function isOk(response: Answer): boolean {
  return response.status >= 200 && response.status < 300;
}

function operationOf(req: ApiRequest, target: RequestTarget): Operation {
  return { method: req.method, path: target.displayPath };
}

/** Whether an error body may have been cut at ERROR_BODY_LIMIT bytes (a character cut through decodes to U+FFFD, a BOM is dropped). */
function mayBeCut(text: string): boolean {
  return Buffer.byteLength(text, "utf8") >= ERROR_BODY_LIMIT - 6;
}

function parseErrorBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === "") return undefined;
  if (contentType === undefined || /json/i.test(contentType)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  return text;
}

/** A call's own timeoutMs, checked before anything is sent (Infinity or NaN would reach setTimeout as 1 ms). */
function checkCallOptionsOrThrow(req: ApiRequest): void {
  if (req.timeoutMs !== undefined) positive(req.timeoutMs, req.timeoutMs, "the call's timeoutMs");
}
