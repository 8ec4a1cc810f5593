/**
 * An authorized call to the API: bearer token, one resend with a new token
 * after a 401, GET retries (retry.ts), and non-2xx answers turned into
 * ApiErrors. Every attempt goes through the client's one exchange path
 * (exchange/exchange.ts).
 */
import { raceSignal, sleep, type Operation } from "./abort.js";
import type { TokenCache } from "./auth.js";
import { BaseUrl, type RequestTarget } from "./base-url.js";
import { callHeadersOrThrow } from "./call-headers.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { apiErrorFor, InvalidResponseError, type ValidationIssue } from "./errors.js";
import type { Answer, TextLimits } from "./exchange/answer.js";
import type { WireSettings } from "./exchange/transport.js";
import type { Exchange } from "./exchange/exchange.js";
import { positive } from "./option-numbers.js";
import type { Redactor } from "./secrets/redaction.js";
import { decideRetry, parseRetryAfter, type RetryDecision } from "./retry.js";
import { describeIssues } from "./validation/issues.js";

export interface ApiRequest {
  readonly method: "GET" | "POST";
  /** Appended to the client's baseUrl; starts with `/`, no query string. */
  readonly path: string;
  /** The path's template (paths.ts ROUTES), as logs and spans name the call. */
  readonly route: string;
  /** The caller's own headers (RequestOptions.headers), checked before anything is sent. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Headers this call sets itself (getFile's accept, submitAction's x-ticket-id). */
  readonly own?: Readonly<Record<string, string>>;
  /** JSON text (sent as application/json) or multipart form data (the transport sets its content type and boundary). */
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

const DEFAULT_TOOK_EFFECT =
  "The request WAS carried out (the service answered 2xx): sending it again would do it twice";

/** An error body is read up to this size for the error's `body`; a 2xx body that fails its check is kept up to it too. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** A JSON body larger than this is not kept whole in memory: it is cut, and so is not JSON. */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

const JSON_LIMITS: TextLimits = { okBytes: JSON_BODY_LIMIT, errorBytes: ERROR_BODY_LIMIT };

/** Attempts made by one call so far: retries and the resend after a 401 count on. */
interface Tally {
  attempts: number;
}

export class ApiCaller {
  private readonly baseUrl: BaseUrl;
  /** The settings of a JSON call without a timeoutMs of its own: one object for all of them. */
  private readonly jsonSettings: WireSettings;
  private readonly streamSettings: WireSettings;

  constructor(
    private readonly options: ResolvedClientOptions,
    private readonly exchange: Exchange,
    private readonly tokens: TokenCache,
    private readonly redactor: Redactor,
  ) {
    this.baseUrl = new BaseUrl(options.baseUrl);
    this.jsonSettings = { timeoutMs: options.timeoutMs, limits: JSON_LIMITS };
    this.streamSettings = { timeoutMs: options.timeoutMs, limits: undefined };
  }

  /** The 2xx answer, its body unread, as a stream (getFile). GETs are retried; requests with a body never are. */
  send(req: ApiRequest): Promise<Answer> {
    try {
      const checked = checkedOrThrow(req);
      return this.okAnswer(
        checked,
        this.baseUrl.resolve(req.path, req.route),
        this.settingsOf(checked, this.streamSettings),
        { attempts: 0 },
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The parsed JSON body of the 2xx response (undefined when it is empty),
   * after `check` found nothing wrong with it: a body that is not JSON, or not
   * the documented shape, is an InvalidResponseError and is never returned.
   */
  async json<T>(req: ApiRequest, check?: ResponseCheck): Promise<T> {
    try {
      const checked = checkedOrThrow(req);
      const target = this.baseUrl.resolve(req.path, req.route);
      const settings = this.settingsOf(checked, this.jsonSettings);
      const response = await this.okAnswer(checked, target, settings, { attempts: 0 });
      // The body passed its check (or the caller asked for none): it is the T the caller named.
      return this.parsedOrThrow(req, response, check) as T;
    } catch (error) {
      // Scrubbed here, whoever calls: createSession returns this promise as it is (create-session.ts).
      throw this.redactor.error(error);
    }
  }

  /** The path errors name: with the baseUrl's prefix, without host or query. */
  displayPath(path: string): string {
    return this.baseUrl.resolve(path, "").displayPath;
  }

  private settingsOf(req: ApiRequest, shared: WireSettings): WireSettings {
    return req.timeoutMs === undefined ? shared : { timeoutMs: req.timeoutMs, limits: shared.limits };
  }

  /** A 2xx answer: GETs retried, anything else sent once (and resent once after a 401). */
  private okAnswer(req: ApiRequest, target: RequestTarget, settings: WireSettings, tally: Tally): Promise<Answer> {
    return req.method === "GET"
      ? this.withRetries(req, target, settings, tally)
      : this.authorized(req, target, settings, tally);
  }

  private async withRetries(
    req: ApiRequest,
    target: RequestTarget,
    settings: WireSettings,
    tally: Tally,
  ): Promise<Answer> {
    for (let retriesDone = 0; ; retriesDone++) {
      try {
        return await this.authorized(req, target, settings, tally);
      } catch (error) {
        const decision: RetryDecision = decideRetry(error, retriesDone, this.options.retry);
        if (!decision.retry) throw error;
        const stop = { caller: req.signal, closing: this.exchange.lifecycle.signal };
        await sleep(this.options.clock, decision.delayMs, stop, operationOf(req, target));
      }
    }
  }

  /**
   * One authorized attempt, and the resend after a 401. Not an async
   * function: with a cached token (nearly every call) the attempt's own
   * promise is chained as it is, no token to wait for and no signal race.
   */
  private authorized(req: ApiRequest, target: RequestTarget, settings: WireSettings, tally: Tally): Promise<Answer> {
    const token = this.tokens.cachedToken();
    if (token !== undefined) return this.sendWith(req, target, token, settings, tally);
    return raceSignal(this.tokens.getToken(), req.signal, operationOf(req, target)).then((fresh) =>
      this.sendWith(req, target, fresh, settings, tally),
    );
  }

  private sendWith(
    req: ApiRequest,
    target: RequestTarget,
    token: string,
    settings: WireSettings,
    tally: Tally,
  ): Promise<Answer> {
    return this.attempt(req, target, token, settings, tally).then((first) =>
      isOk(first) ? first : this.afterRefusal(req, target, token, first, settings, tally),
    );
  }

  /** After a non-2xx `first`: one more try with a new token after a 401, else the ApiError. */
  private async afterRefusal(
    req: ApiRequest,
    target: RequestTarget,
    token: string,
    first: Answer,
    settings: WireSettings,
    tally: Tally,
  ): Promise<Answer> {
    if (first.status !== 401) throw await this.errorOf(req, target, first);
    // A 401 proves the service did not act on the request, so sending it again is safe, even a POST.
    await first.discard();
    this.tokens.invalidate(token);
    const fresh = await raceSignal(this.tokens.getToken(), req.signal, operationOf(req, target));
    const second = await this.attempt(req, target, fresh, settings, tally);
    if (isOk(second)) return second;
    throw await this.errorOf(req, target, second);
  }

  private attempt(
    req: ApiRequest,
    target: RequestTarget,
    token: string,
    settings: WireSettings,
    tally: Tally,
  ): Promise<Answer> {
    const body = req.body;
    return this.exchange.send(
      {
        kind: "api",
        method: req.method,
        origin: target.origin,
        path: target.path,
        route: target.route,
        headers: this.headersFor(req, token),
        body: body && ("json" in body ? body.json : body.form),
        attempt: ++tally.attempts,
        signal: req.signal,
      },
      settings,
    );
  }

  /** A fresh object per attempt (middleware and tracing may add to it), User-Agent included. */
  private headersFor(req: ApiRequest, token: string): Record<string, string> {
    const authorization = `Bearer ${token}`;
    const userAgent = this.options.userAgent;
    const isJson = req.body !== undefined && "json" in req.body;
    if (req.headers === undefined && req.own === undefined) {
      return isJson
        ? { accept: "application/json", authorization, "content-type": "application/json", "user-agent": userAgent }
        : { accept: "application/json", authorization, "user-agent": userAgent };
    }
    const headers: Record<string, string> = { accept: "application/json", ...req.headers, ...req.own, authorization };
    if (isJson) headers["content-type"] = "application/json";
    headers["user-agent"] = userAgent;
    return headers;
  }

  private parsedOrThrow(req: ApiRequest, response: Answer, check: ResponseCheck | undefined): unknown {
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
    const detail =
      body === undefined
        ? "the body is empty"
        : `the body is not what the service documents: ${describeIssues(issues)}`;
    throw this.invalidResponse(req, response.status, body, detail, check, issues);
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
    const path = this.displayPath(req.path);
    const tookEffect = method !== "GET";
    const consequence = tookEffect ? ` ${check?.tookEffect ?? DEFAULT_TOOK_EFFECT}.` : "";
    // Cut text is scrubbed as cut: the start of a secret at its end goes too.
    const kept =
      typeof body === "string"
        ? this.redactor.text(body.slice(0, ERROR_BODY_LIMIT), { truncated: body.length > ERROR_BODY_LIMIT })
        : this.redactor.value(body);
    return new InvalidResponseError(
      { method, path, status, body: kept, issues, tookEffect },
      `${method} ${path} answered ${String(status)}, but ${detail}.${consequence} error.body holds the body as received.`,
    );
  }

  /** The ApiError for a non-2xx response, its body read (up to ERROR_BODY_LIMIT) and scrubbed. */
  private async errorOf(req: ApiRequest, target: RequestTarget, response: Answer): Promise<Error> {
    const { text, truncated } = await response.errorText(ERROR_BODY_LIMIT);
    const contentType = response.headers["content-type"];
    const body = parseErrorBody(text, typeof contentType === "string" ? contentType : undefined);
    return apiErrorFor({
      status: response.status,
      method: req.method,
      path: target.displayPath,
      // Scrubbed before the message is cut from it (errors.ts keeps 300 characters); a body cut at the limit is scrubbed as cut.
      body: typeof body === "string" ? this.redactor.text(body, { truncated }) : this.redactor.value(body),
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

/**
 * A call's own options, checked before anything is sent: timeoutMs (Infinity
 * or NaN would reach setTimeout as 1 ms) and headers (call-headers.ts).
 */
function checkedOrThrow(req: ApiRequest): ApiRequest {
  if (req.timeoutMs !== undefined) positive(req.timeoutMs, req.timeoutMs, "the call's timeoutMs");
  return req.headers === undefined ? req : { ...req, headers: callHeadersOrThrow(req.headers) };
}
