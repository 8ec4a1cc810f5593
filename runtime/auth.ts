/**
 * Access tokens (docs/service.md 5): client credentials grant against
 * `{authUrl}/oidc/token`, cached until shortly before expiry, one request in
 * flight at a time however many calls wait for it, and one for every
 * process that shares the client's token store (shared-tokens.ts).
 *
 * Three parts: TokenCache keeps this process's token and its single flight;
 * TokenRequest asks the auth server (through the client's exchange path, as
 * every call, so it has its own log entry and span); between the two, the
 * token store's side (storedTokens, shared-tokens.ts) hands out the fleet's
 * token and lets only the lease holder's TokenRequest run.
 */
import type { Operation } from "./abort.js";
import { base64Of, utf8Bytes } from "./bytes.js";
import type { Clock } from "./clock.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { AuthError, ClientClosedError, FlowsmithError, type AuthErrorCode } from "./errors.js";
import type { TextLimits } from "./exchange/answer.js";
import type { WireSettings } from "./exchange/transport.js";
import type { Exchange } from "./exchange/exchange.js";
import { headerValueProblem } from "./header-value.js";
import type { Redactor } from "./secrets/redaction.js";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "./service-limits.js";
import { SharedTokens, type HeldToken } from "./shared-tokens.js";

/** A token response, or an error from the auth server, is small; more is not read. */
const BODY_LIMIT = 16 * 1024;
const TOKEN_LIMITS: TextLimits = { okBytes: BODY_LIMIT, errorBytes: BODY_LIMIT };
/** Characters of the auth server's own words kept in an AuthError's message. */
const REFUSAL_CHARS = 300;

/** Where TokenCache gets a new token, and whom it tells that the API refused one. */
export interface TokenSource {
  /** A valid token: fetched, or another process's from the token store. */
  issue(): Promise<HeldToken>;
  /** The API refused `token` (a 401). */
  refused(token: string): void;
}

/** The token in use in this process, and the one request in flight for a new one. */
export class TokenCache {
  private cached: HeldToken | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly source: TokenSource,
  ) {}

  /** The cached token while it is still valid, else undefined: the synchronous path of nearly every call. */
  cachedToken(): string | undefined {
    return this.cached && this.clock.now() < this.cached.renewAt ? this.cached.value : undefined;
  }

  /** A valid token: the cached one, the one being fetched, or a new one from the source. */
  getToken(): Promise<string> {
    const cached = this.cachedToken();
    if (cached !== undefined) return Promise.resolve(cached);
    this.inFlight ??= this.source
      .issue()
      .then((token) => {
        this.cached = token;
        return token.value;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  /** The API refused `token`: forget it (here and in the store), unless a newer one has replaced it meanwhile. */
  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined;
    this.source.refused(token);
  }
}

/**
 * Tokens through the client's token store (its own memory by default): the
 * stored one while it is valid, else `request` fetches one under the store's
 * lease while other processes wait for it. Only a fetch here goes on the
 * wire, so a token request has its own log entry and span even when it is
 * made on the fleet's behalf.
 */
export function storedTokens(
  options: ResolvedClientOptions,
  closing: AbortSignal,
  request: TokenRequest,
  redactor: Redactor,
): TokenSource {
  const shared = new SharedTokens(options.tokenStore, options, options.clock, closing);
  return {
    issue: async () => {
      const token = await shared.obtain(() => request.fetch(), request.operation);
      // From the store it was never seen here: scrubbed from every error from now on, as a fetched one is.
      redactor.rememberToken(token.value);
      return token;
    },
    refused: (token) => {
      shared.invalidate(token);
    },
  };
}

/** The token request itself (docs/service.md 5.2-5.4). */
export class TokenRequest {
  /** What a wait for the token names (shared-tokens.ts): POST and the token URL's path. */
  readonly operation: Operation;
  private readonly origin: string;
  private readonly path: string;
  private readonly settings: WireSettings;

  constructor(
    private readonly options: ResolvedClientOptions,
    private readonly exchange: Exchange,
    private readonly redactor: Redactor,
  ) {
    const url = new URL(options.tokenUrl);
    this.origin = url.origin;
    this.path = url.pathname;
    this.operation = { method: "POST", path: url.pathname };
    this.settings = { timeoutMs: options.timeoutMs, limits: TOKEN_LIMITS };
  }

  /** A new token from the auth server; an AuthError (scrubbed) when there is none to be had. */
  async fetch(): Promise<HeldToken> {
    const request = {
      kind: "token" as const,
      method: "POST" as const,
      origin: this.origin,
      path: this.path,
      route: this.path,
      headers: this.requestHeaders(),
      body: this.requestBody(),
      attempt: 1,
      signal: undefined,
    };
    const response = await this.exchange.send(request, this.settings).catch((error: unknown) => {
      if (error instanceof ClientClosedError) throw error;
      throw this.authError(
        undefined,
        error instanceof FlowsmithError ? error.message : "no answer came (a middleware failed: see the cause)",
        error,
      );
    });
    if (response.failure) {
      if (response.failure instanceof ClientClosedError) throw response.failure;
      throw this.authError(response.status, "the response could not be read", response.failure);
    }
    const text = response.text;
    if (response.status < 200 || response.status >= 300) {
      // The server's words decoded, scrubbed, then cut: a secret cut in half would no longer match.
      throw this.authError(response.status, this.redactor.excerpt(describeRefusal(text), REFUSAL_CHARS));
    }
    return this.tokenOrThrow(response.status, text);
  }

  private requestHeaders(): Record<string, string> {
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      "user-agent": this.options.userAgent,
    };
    if (this.options.authMethod === "client_secret_basic") {
      const { clientId, clientSecret } = this.options;
      headers.authorization = `Basic ${base64Of(utf8Bytes(`${clientId}:${clientSecret}`))}`;
    }
    return headers;
  }

  private requestBody(): string {
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (this.options.authMethod === "client_secret_post") {
      form.set("client_id", this.options.clientId);
      form.set("client_secret", this.options.clientSecret);
    }
    return form.toString();
  }

  /** docs/service.md 5.4: `access_token`, `expires_in` (seconds), `token_type` Bearer. Nothing is cached unless all hold. */
  private tokenOrThrow(status: number, text: string): HeldToken {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw this.invalidToken(status, "the response is not JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw this.invalidToken(status, "the response is not a JSON object");
    }
    const body = parsed as { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
    const value = body.access_token;
    if (typeof value !== "string" || value === "") throw this.invalidToken(status, "the response has no access_token");
    // Known from here on, whatever happens next: it must not appear in any error.
    this.redactor.rememberToken(value);
    const unfit = headerValueProblem(value);
    if (unfit)
      throw this.invalidToken(status, `access_token ${unfit}, so it cannot be sent in an Authorization header`);
    if (
      body.token_type !== undefined &&
      (typeof body.token_type !== "string" || body.token_type.toLowerCase() !== "bearer")
    ) {
      throw this.invalidToken(status, "token_type is not Bearer");
    }
    const lifetimeMs = lifetimeSecondsOf(body.expires_in) * 1000;
    if (!(lifetimeMs > 0) || !Number.isFinite(lifetimeMs)) {
      throw this.invalidToken(
        status,
        "expires_in is not a positive number of seconds (a number, or a string of digits)",
      );
    }
    // Short-lived tokens would otherwise be renewed on every call: the margin is at most a tenth of the lifetime.
    const skewMs = Math.min(this.options.tokenExpirySkewMs, lifetimeMs / 10);
    return { value, renewAt: this.options.clock.now() + lifetimeMs - skewMs };
  }

  private invalidToken(status: number, detail: string): AuthError {
    return this.authError(status, detail, undefined, "INVALID_TOKEN_RESPONSE");
  }

  private authError(status: number | undefined, detail: string, cause?: unknown, code?: AuthErrorCode): AuthError {
    // Failures on the wire arrive typed (exchange/failures.ts); anything else is a middleware's own error.
    // Either way the Redactor scrubs the cause chain (a foreign error is replaced by a scrubbed copy).
    return this.redactor.error(new AuthError(this.options.tokenUrl, status, detail, { cause, code }));
  }
}

/**
 * expires_in in seconds: a number or a numeric string ("3600"); absent (or
 * null) means the service's default of docs/service.md 5.4. NaN for anything
 * else, which the caller refuses.
 */
function lifetimeSecondsOf(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_TOKEN_LIFETIME_SECONDS;
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\s*\d+(?:\.\d+)?\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

/** An OAuth error body names the reason in `error` / `error_description`. */
function describeRefusal(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown; message?: unknown };
    const parts = [body.error, body.error_description ?? body.message].filter((p) => typeof p === "string");
    if (parts.length > 0) return parts.join(": ");
  } catch {
    // Not JSON: fall through.
  }
  return "the auth server refused the request";
}
