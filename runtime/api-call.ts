/**
 * An authorized call to the API: bearer token, one retry with a new token
 * after a 401, GET retries (retry.ts), and non-2xx answers turned into ApiErrors.
 */
import type { FormData } from "undici";
import { raceSignal, sleep } from "./abort.js";
import type { TokenCache } from "./auth.js";
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
  constructor(
    private readonly options: ResolvedClientOptions,
    private readonly transport: Transport,
    private readonly tokens: TokenCache,
  ) {}

  /** The 2xx response, its body unread. GETs are retried; requests with a body never are. */
  async send(req: ApiRequest): Promise<HttpResponse> {
    for (let retriesDone = 0; ; retriesDone++) {
      try {
        return await this.sendAuthorized(req);
      } catch (error) {
        const decision: RetryDecision =
          req.method === "GET" ? decideRetry(error, retriesDone, this.options.retry) : { retry: false };
        if (!decision.retry) throw error;
        await sleep(decision.delayMs, req.signal, { method: req.method, path: this.displayPath(req) });
      }
    }
  }

  /** The parsed JSON body of the 2xx response; undefined when it is empty. */
  async json<T>(req: ApiRequest): Promise<T> {
    const response = await this.send(req);
    const text = await response.text();
    if (text.trim() === "") return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new InvalidResponseError(req.method, this.displayPath(req), `status ${response.status} with a body that is not JSON`);
    }
  }

  /** The path errors name: with the baseUrl's prefix, without host or query. */
  displayPath(req: Pick<ApiRequest, "path">): string {
    return new URL(this.options.baseUrl + req.path).pathname;
  }

  private async sendAuthorized(req: ApiRequest): Promise<HttpResponse> {
    const operation = { method: req.method, path: this.displayPath(req) };
    const token = await raceSignal(this.tokens.getToken(), req.signal, operation);
    const first = await this.sendWithToken(req, token);
    if (first.status !== 401) return this.okOrThrow(req, first);
    // A 401 proves the service did not act on the request, so sending it again is safe, even a POST.
    await first.discard();
    this.tokens.invalidate(token);
    const fresh = await raceSignal(this.tokens.getToken(), req.signal, operation);
    return this.okOrThrow(req, await this.sendWithToken(req, fresh));
  }

  private sendWithToken(req: ApiRequest, token: string): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: "application/json", ...req.headers, authorization: `Bearer ${token}` };
    if (req.body && "json" in req.body) headers["content-type"] = "application/json";
    return sendOnce(this.transport, {
      method: req.method,
      url: this.options.baseUrl + req.path,
      path: this.displayPath(req),
      headers,
      body: req.body && ("json" in req.body ? req.body.json : req.body.form),
      signal: req.signal,
      timeoutMs: req.timeoutMs ?? this.options.timeoutMs,
    });
  }

  private async okOrThrow(req: ApiRequest, response: HttpResponse): Promise<HttpResponse> {
    if (response.status >= 200 && response.status < 300) return response;
    const text = await response.text(ERROR_BODY_LIMIT).catch(() => "");
    throw apiErrorFor({
      status: response.status,
      method: req.method,
      path: this.displayPath(req),
      body: parseErrorBody(text, response.headers["content-type"]),
      retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
    });
  }
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
