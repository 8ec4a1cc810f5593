/**
 * Access tokens (docs/service.md 5): client credentials grant against
 * `{authUrl}/oidc/token`, cached until shortly before expiry, one request in
 * flight at a time however many calls wait for it, and one for every
 * process that shares the client's token store (shared-tokens.ts).
 */
import type { RequestTarget } from "./base-url.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { AuthError, ClientClosedError, FlowsmithError, type AuthErrorCode } from "./errors.js";
import { headerValueProblem } from "./header-value.js";
import type { Redactor } from "./redaction.js";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "./service-limits.js";
import { SharedTokens, type HeldToken } from "./shared-tokens.js";
import { exchangeText, type TextLimits } from "./text-exchange.js";
import type { Transport } from "./transport.js";

/** A token response, or an error from the auth server, is small; more is not read. */
const BODY_LIMIT = 16 * 1024;
const TOKEN_LIMITS: TextLimits = { okBytes: BODY_LIMIT, errorBytes: BODY_LIMIT };
/** Characters of the auth server's own words kept in an AuthError's message. */
const REFUSAL_CHARS = 300;

export class TokenCache {
  private cached: HeldToken | undefined;
  private inFlight: Promise<string> | undefined;
  private readonly target: RequestTarget;
  /** The token store's side (shared-tokens.ts): asked only when this process has no valid token. */
  private readonly shared: SharedTokens;

  constructor(
    private readonly options: ResolvedClientOptions,
    private readonly transport: Transport,
    private readonly redactor: Redactor,
  ) {
    const url = new URL(options.tokenUrl);
    this.target = { origin: url.origin, path: url.pathname, displayPath: url.pathname };
    this.shared = new SharedTokens(options.tokenStore, options, options.clock, transport.lifecycle.signal);
  }

  /** The cached token while it is still valid, else undefined: the synchronous path of nearly every call. */
  cachedToken(): string | undefined {
    return this.cached && this.options.clock.now() < this.cached.renewAt ? this.cached.value : undefined;
  }

  /** A valid token: the cached one, the one being fetched, or one from the token store (which fetches it if need be). */
  getToken(): Promise<string> {
    const cached = this.cachedToken();
    if (cached !== undefined) return Promise.resolve(cached);
    this.inFlight ??= this.shared
      .obtain(() => this.fetchToken(), { method: "POST", path: this.target.displayPath })
      .then((token) => {
        // From the store it was never seen here: scrubbed from every error from now on, as a fetched one is.
        this.redactor.rememberToken(token.value);
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
    this.shared.invalidate(token);
  }

  private async fetchToken(): Promise<HeldToken> {
    const response = await exchangeText(
      this.transport,
      { method: "POST", ...this.target, headers: this.requestHeaders(), body: this.requestBody(), timeoutMs: this.options.timeoutMs },
      TOKEN_LIMITS,
    ).catch((error: unknown) => {
      if (error instanceof ClientClosedError) throw error;
      throw this.authError(undefined, error instanceof FlowsmithError ? error.message : "the auth server could not be reached", error);
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
    };
    if (this.options.authMethod === "client_secret_basic") {
      const { clientId, clientSecret } = this.options;
      headers.authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`, "utf8").toString("base64")}`;
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
    if (unfit) throw this.invalidToken(status, `access_token ${unfit}, so it cannot be sent in an Authorization header`);
    if (body.token_type !== undefined && (typeof body.token_type !== "string" || body.token_type.toLowerCase() !== "bearer")) {
      throw this.invalidToken(status, "token_type is not Bearer");
    }
    const lifetimeMs = lifetimeSecondsOf(body.expires_in) * 1000;
    if (!(lifetimeMs > 0) || !Number.isFinite(lifetimeMs)) {
      throw this.invalidToken(status, "expires_in is not a positive number of seconds (a number, or a string of digits)");
    }
    // Short-lived tokens would otherwise be renewed on every call: the margin is at most a tenth of the lifetime.
    const skewMs = Math.min(this.options.tokenExpirySkewMs, lifetimeMs / 10);
    return { value, renewAt: this.options.clock.now() + lifetimeMs - skewMs };
  }

  private invalidToken(status: number, detail: string): AuthError {
    return this.authError(status, detail, undefined, "INVALID_TOKEN_RESPONSE");
  }

  private authError(status: number | undefined, detail: string, cause?: unknown, code?: AuthErrorCode): AuthError {
    const safeCause = cause instanceof FlowsmithError ? cause : undefined;
    return this.redactor.error(new AuthError(this.options.tokenUrl, status, detail, { cause: safeCause, code }));
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
