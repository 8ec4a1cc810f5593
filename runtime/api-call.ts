/**
 * An authorized call to the API: bearer token, one retry with a new token
 * after a 401, GET retries (retry.ts), and non-2xx answers turned into ApiErrors.
 */
import type { FormData } from "undici";
import { raceSignal, sleep, type Operation } from "./abort.js";
import type { TokenCache } from "./auth.js";
import { BaseUrl, type RequestTarget } from "./base-url.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { apiErrorFor, InvalidResponseError } from "./errors.js";
import { sendOnce, type HttpResponse, type Transport } from "./http.js";
import { decideRetry, parseRetryAfter, type RetryDecision } from "./retry.js";

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

/** An error body is read up to this size for the error's `body`. */
const ERROR_BODY_LIMIT = 64 * 1024;

export class ApiCaller {
  private readonly baseUrl: BaseUrl;

  constructor(
    private readonly options: ResolvedClientOptions,
    private readonly transport: Transport,
    private readonly tokens: TokenCache,
  ) {
    this.baseUrl = new BaseUrl(options.baseUrl);
  }

  /** The 2xx response, its body unread. GETs are retried; requests with a body never are. */
  async send(req: ApiRequest): Promise<HttpResponse> {
    const target = this.baseUrl.resolve(req.path);
    if (req.method !== "GET") return this.sendAuthorized(req, target);
    for (let retriesDone = 0; ; retriesDone++) {
      try {
        return await this.sendAuthorized(req, target);
      } catch (error) {
        const decision: RetryDecision = decideRetry(error, retriesDone, this.options.retry);
        if (!decision.retry) throw error;
        await sleep(decision.delayMs, req.signal, operationOf(req, target));
      }
    }
  }

  /** The parsed JSON body of the 2xx response; undefined when it is empty. */
  async json<T>(req: ApiRequest): Promise<T> {
    const response = await this.send(req);
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      // Checked only here: an empty body is rare, and JSON.parse refuses it anyway.
      if (text.trim() === "") return undefined as T;
      throw new InvalidResponseError(req.method, this.displayPath(req), `status ${response.status} with a body that is not JSON`);
    }
  }

  /** The path errors name: with the baseUrl's prefix, without host or query. */
  displayPath(req: Pick<ApiRequest, "path">): string {
    return this.baseUrl.resolve(req.path).displayPath;
  }

  private async sendAuthorized(req: ApiRequest, target: RequestTarget): Promise<HttpResponse> {
    // A cached token is used as is: no promise to wait for, nothing to race the signal against.
    const token = this.tokens.cachedToken() ?? (await raceSignal(this.tokens.getToken(), req.signal, operationOf(req, target)));
    const first = await this.sendWithToken(req, target, token);
    if (first.status !== 401) return this.okOrThrow(req, target, first);
    // A 401 proves the service did not act on the request, so sending it again is safe, even a POST.
    await first.discard();
    this.tokens.invalidate(token);
    const fresh = await raceSignal(this.tokens.getToken(), req.signal, operationOf(req, target));
    return this.okOrThrow(req, target, await this.sendWithToken(req, target, fresh));
  }

  private sendWithToken(req: ApiRequest, target: RequestTarget, token: string): Promise<HttpResponse> {
    const body = req.body;
    return sendOnce(this.transport, {
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

  private async okOrThrow(req: ApiRequest, target: RequestTarget, response: HttpResponse): Promise<HttpResponse> {
    if (response.status >= 200 && response.status < 300) return response;
    const text = await response.text(ERROR_BODY_LIMIT).catch(() => "");
    throw apiErrorFor({
      status: response.status,
      method: req.method,
      path: target.displayPath,
      body: parseErrorBody(text, response.headers["content-type"]),
      retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
    });
  }
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
