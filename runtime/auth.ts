/**
 * Access tokens (docs/service.md 5): client credentials grant against
 * `{authUrl}/oidc/token`, cached until shortly before expiry, one request in
 * flight at a time however many calls wait for it.
 */
import type { RequestTarget } from "./base-url.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { AuthError, FlowsmithError } from "./errors.js";
import { sendOnce, type Transport } from "./http.js";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "./service-limits.js";

/** A token error body is small; more is not read. */
const ERROR_BODY_LIMIT = 16 * 1024;

interface CachedToken {
  readonly value: string;
  /** Date.now() after which the token is renewed before use. */
  readonly renewAt: number;
}

export class TokenCache {
  private cached: CachedToken | undefined;
  private inFlight: Promise<string> | undefined;
  private readonly target: RequestTarget;

  constructor(
    private readonly options: ResolvedClientOptions,
    private readonly transport: Transport,
  ) {
    const url = new URL(options.tokenUrl);
    this.target = { origin: url.origin, path: url.pathname, displayPath: url.pathname };
  }

  /** The cached token while it is still valid, else undefined: the synchronous path of nearly every call. */
  cachedToken(): string | undefined {
    return this.cached && Date.now() < this.cached.renewAt ? this.cached.value : undefined;
  }

  /** A valid token: the cached one, the one being fetched, or a new one. */
  getToken(): Promise<string> {
    const cached = this.cachedToken();
    if (cached !== undefined) return Promise.resolve(cached);
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** The API refused `token`: forget it, unless a newer one has replaced it meanwhile. */
  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined;
  }

  private async fetchToken(): Promise<string> {
    const response = await sendOnce(this.transport, {
      method: "POST",
      ...this.target,
      headers: this.requestHeaders(),
      body: this.requestBody(),
      timeoutMs: this.options.timeoutMs,
    }).catch((error: unknown) => {
      throw this.authError(undefined, error instanceof FlowsmithError ? error.message : "the auth server could not be reached", error);
    });
    const text = await response.text(ERROR_BODY_LIMIT).catch((error: unknown) => {
      throw this.authError(response.status, "the response could not be read", error);
    });
    if (response.status < 200 || response.status >= 300) {
      throw this.authError(response.status, describeRefusal(text));
    }
    const token = this.parseTokenResponse(response.status, text);
    this.cached = token;
    return token.value;
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

  private parseTokenResponse(status: number, text: string): CachedToken {
    let body: { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw this.authError(status, "the response is not JSON");
    }
    if (typeof body?.access_token !== "string" || body.access_token === "") {
      throw this.authError(status, "the response has no access_token");
    }
    if (body.token_type !== undefined && String(body.token_type).toLowerCase() !== "bearer") {
      throw this.authError(status, `token_type ${JSON.stringify(body.token_type)} is not Bearer`);
    }
    const lifetimeMs =
      (typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : DEFAULT_TOKEN_LIFETIME_SECONDS) * 1000;
    // Short-lived tokens would otherwise be renewed on every call: the margin is at most a tenth of the lifetime.
    const skewMs = Math.min(this.options.tokenExpirySkewMs, lifetimeMs / 10);
    return { value: body.access_token, renewAt: Date.now() + lifetimeMs - skewMs };
  }

  private authError(status: number | undefined, detail: string, cause?: unknown): AuthError {
    const safeCause = cause instanceof FlowsmithError ? cause : undefined;
    return new AuthError(this.options.tokenUrl, status, this.withoutSecret(detail), { cause: safeCause });
  }

  /** An auth server might echo what it was sent; the secret must not travel on in an error. */
  private withoutSecret(text: string): string {
    return text.split(this.options.clientSecret).join("[redacted]");
  }
}

/** An OAuth error body names the reason in `error` / `error_description`. */
function describeRefusal(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown; message?: unknown };
    const parts = [body.error, body.error_description ?? body.message].filter((p) => typeof p === "string");
    if (parts.length > 0) return parts.join(": ").slice(0, 300);
  } catch {
    // Not JSON: fall through.
  }
  return "the auth server refused the request";
}
