/**
 * createClient's options: what the user writes (ClientOptions) and what the
 * runtime works with (ResolvedClientOptions). Defaults live here and only here.
 */
import { platform } from "#platform";
import type { Dispatcher } from "undici";
import { systemClock, type Clock } from "./clock.js";
import { ConfigurationError } from "./errors.js";
import type { ProxyOption } from "./exchange/proxy-url.js";
import { loggerOrThrow, type Logger } from "./exchange/logging.js";
import type { Middleware } from "./exchange/messages.js";
import { middlewareOrThrow } from "./exchange/middleware.js";
import type { Transport } from "./exchange/transport.js";
import { nonNegative, nonNegativeInteger, positive } from "./option-numbers.js";
import { ENVIRONMENTS, RECOMMENDED_POLL_INTERVAL_MS, type Environment } from "./service-limits.js";
import { createMemoryTokenStore, tokenStoreProblem, type TokenStore } from "./token-store.js";

/** How the client credentials travel to the token endpoint: in the form body, or as `Authorization: Basic`. */
export type AuthMethod = "client_secret_post" | "client_secret_basic";

/** When and how often a GET is tried again (createClient's `retry`). A POST is never retried once its body may have arrived. */
export interface RetryOptions {
  /** Retries after the first attempt of a GET (429, 5xx, network errors). Default 2. */
  readonly maxRetries?: number;
  /** Backoff base: attempt n waits about baseDelayMs * 2^n, with full jitter. Default 250. */
  readonly baseDelayMs?: number;
  /** No wait is longer; a Retry-After above it ends the retries. Default 10000. */
  readonly maxDelayMs?: number;
}

/**
 * createClient's options. Numbers must be finite (and positive where a time
 * limit is meant): anything else is a ConfigurationError (`INVALID_OPTIONS`)
 * before anything is sent.
 */
export interface ClientOptions<E extends Environment = Environment> {
  /** {base_url}: API host, may carry a path prefix (`https://gw.example/verification`). */
  readonly baseUrl: string | URL;
  /** {auth_url}: token host; tokens are requested from `{authUrl}/oidc/token`. */
  readonly authUrl: string | URL;
  /** The environment the API client belongs to; flows of the other one are refused. */
  readonly environment: E;
  /** The API client's id, from the dashboard (one API client per environment). */
  readonly clientId: string;
  /** The API client's secret. It never appears in an error, log entry or span, whole or in any piece of 8 characters. */
  readonly clientSecret: string;
  /** How credentials travel to the token endpoint. Default "client_secret_post". */
  readonly authMethod?: AuthMethod;
  /** Sent on every request (the service's firewall refuses requests without one). Required. */
  readonly userAgent: string;
  /**
   * Per attempt: each attempt of a call (a retry, or the resend after a 401,
   * starts its own) must be answered, and its response read, within this
   * long (for getFile: until its headers arrive); past it the attempt fails
   * with a TimeoutError. One call's `{ timeoutMs }` overrides it. Default 30000.
   */
  readonly timeoutMs?: number;
  /** GET retry policy. */
  readonly retry?: RetryOptions;
  /** A token is renewed this long before it expires (at most a tenth of its lifetime). Default 60000. */
  readonly tokenExpirySkewMs?: number;
  /**
   * Time between polls of waitForStep and waitForOutcome (one wait's
   * `intervalMs` overrides it). Default 2500 (the service recommends 2 to 3 s).
   * The webhook handler polls at its own `outcomePollIntervalMs`.
   */
  readonly pollIntervalMs?: number;
  /**
   * waitForStep and waitForOutcome give up after this long, with a
   * TimeoutError (one wait's `timeoutMs` overrides it; each poll within it is
   * still bounded by `timeoutMs` per attempt). Default 600000 (10 minutes).
   */
  readonly waitTimeoutMs?: number;
  /**
   * Node only: an undici dispatcher (custom TLS, pools). Default: an Agent
   * owned by the client, closed by close(). Elsewhere requests go through the
   * platform's fetch, and this is a ConfigurationError.
   */
  readonly dispatcher?: Dispatcher;
  /**
   * Send through a proxy: "env" reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY
   * (on Node undici's EnvHttpProxyAgent; Deno's and Bun's fetch read them
   * themselves), a URL names the proxy (Node). For this client only; not
   * with `dispatcher`. Cloudflare Workers and Vercel Edge have no proxy: a
   * ConfigurationError. Default: no proxy.
   */
  readonly proxy?: ProxyOption;
  /** Run on every attempt (retries and token requests included), the first outermost. Default: none. */
  readonly middleware?: readonly Middleware[];
  /**
   * One entry per attempt (pino's shape; console works): method, route
   * template, status, duration, attempt, error code. Response bodies, scrubbed
   * and cut, at debug only. Never headers, request bodies, secrets or tokens.
   * Default: none.
   */
  readonly logger?: Logger;
  /**
   * The time token expiry, waitForStep's polling and retry backoff go by.
   * Default: the real clock (`Date.now()` and timers). Tests pass a virtual
   * one; per-request time limits (`timeoutMs`) always use real timers.
   */
  readonly clock?: Clock;
  /**
   * Where the access token is kept. Processes that share a store (`@flowsmith/redis`'s
   * createRedisTokenStore) share one token and one token request (docs/many-instances.md).
   * Default: a store in this client's memory.
   */
  readonly tokenStore?: TokenStore;
}

export interface ResolvedClientOptions<E extends Environment = Environment> {
  /** Without trailing slash; paths are appended to it. */
  readonly baseUrl: string;
  readonly tokenUrl: string;
  readonly environment: E;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authMethod: AuthMethod;
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly retry: Required<RetryOptions>;
  readonly tokenExpirySkewMs: number;
  readonly pollIntervalMs: number;
  readonly waitTimeoutMs: number;
  /** The network side: undici on Node, fetch elsewhere (platform/). */
  readonly transport: Transport;
  /** The proxy's password and Basic value: the client's Redactor scrubs them. */
  readonly proxySecrets: readonly string[];
  readonly middleware: readonly Middleware[];
  readonly logger: Logger | undefined;
  readonly clock: Clock;
  readonly tokenStore: TokenStore;
}

const DEFAULTS = {
  authMethod: "client_secret_post",
  timeoutMs: 30_000,
  retry: { maxRetries: 2, baseDelayMs: 250, maxDelayMs: 10_000 },
  tokenExpirySkewMs: 60_000,
  pollIntervalMs: RECOMMENDED_POLL_INTERVAL_MS,
  waitTimeoutMs: 600_000,
} as const;

export function resolveClientOptionsOrThrow<E extends Environment>(
  options: ClientOptions<E>,
): ResolvedClientOptions<E> {
  // The types say all this; a JavaScript caller gets the same checks as a message rather than a TypeError.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("createClient needs an options object");
  const userAgent = requireText(options.userAgent, "userAgent", "the service refuses requests without a User-Agent");
  if (/[\r\n]/.test(userAgent)) throw new ConfigurationError("userAgent must be a single line");
  if (!ENVIRONMENTS.includes(options.environment)) {
    throw new ConfigurationError(
      `environment must be one of ${ENVIRONMENTS.join(", ")}; got ${JSON.stringify(options.environment)}`,
    );
  }
  const authMethod = options.authMethod ?? DEFAULTS.authMethod;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a JavaScript caller's value
  if (authMethod !== "client_secret_post" && authMethod !== "client_secret_basic") {
    throw new ConfigurationError(`authMethod must be "client_secret_post" or "client_secret_basic"`);
  }
  const middleware = middlewareOrThrow(options.middleware);
  const logger = loggerOrThrow(options.logger);
  const resolved = {
    baseUrl: httpUrlOrThrow(options.baseUrl, "baseUrl"),
    tokenUrl: `${httpUrlOrThrow(options.authUrl, "authUrl")}/oidc/token`,
    environment: options.environment,
    clientId: requireText(options.clientId, "clientId", "it comes from the dashboard"),
    // Checked for presence only: the secret itself never appears in a message.
    clientSecret: requireText(options.clientSecret, "clientSecret", "it comes from the dashboard"),
    authMethod,
    userAgent,
    timeoutMs: positive(options.timeoutMs, DEFAULTS.timeoutMs, "timeoutMs"),
    retry: {
      maxRetries: nonNegativeInteger(options.retry?.maxRetries, DEFAULTS.retry.maxRetries, "retry.maxRetries"),
      baseDelayMs: nonNegative(options.retry?.baseDelayMs, DEFAULTS.retry.baseDelayMs, "retry.baseDelayMs"),
      maxDelayMs: nonNegative(options.retry?.maxDelayMs, DEFAULTS.retry.maxDelayMs, "retry.maxDelayMs"),
    },
    tokenExpirySkewMs: nonNegative(options.tokenExpirySkewMs, DEFAULTS.tokenExpirySkewMs, "tokenExpirySkewMs"),
    pollIntervalMs: nonNegative(options.pollIntervalMs, DEFAULTS.pollIntervalMs, "pollIntervalMs"),
    waitTimeoutMs: positive(options.waitTimeoutMs, DEFAULTS.waitTimeoutMs, "waitTimeoutMs"),
    clock: clockOrThrow(options.clock),
    middleware,
    logger,
    tokenStore: tokenStoreOrThrow(options.tokenStore),
  };
  // Last: an Agent (or proxy agent) is made only once every other option has been accepted.
  const transport = platform.transportOrThrow({ dispatcher: options.dispatcher, proxy: options.proxy });
  return { ...resolved, transport, proxySecrets: transport.secrets ?? [] };
}

function clockOrThrow(clock: Clock | undefined): Clock {
  if (clock === undefined) return systemClock;
  if (
    typeof clock !== "object" ||
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a JavaScript caller's value
    clock === null ||
    typeof clock.now !== "function" ||
    typeof clock.sleep !== "function"
  ) {
    throw new ConfigurationError("clock must have now() and sleep(ms, signal)");
  }
  return clock;
}

function tokenStoreOrThrow(store: TokenStore | undefined): TokenStore {
  if (store === undefined) return createMemoryTokenStore();
  const problem = tokenStoreProblem(store);
  if (problem !== undefined)
    throw new ConfigurationError(`tokenStore ${problem} (a TokenStore has get, set, setIfAbsent and deleteIf)`);
  return store;
}

function requireText(value: unknown, name: string, why: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new ConfigurationError(`${name} is required (${why})`);
  }
  return value;
}

/** An http(s) URL without trailing slash, query or fragment. */
function httpUrlOrThrow(value: string | URL | undefined, name: string): string {
  let url: URL;
  try {
    url = new URL(String(value ?? ""));
  } catch {
    throw new ConfigurationError(`${name} must be an absolute http(s) URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`${name} must be an http(s) URL; got ${url.protocol}`);
  }
  if (url.username || url.password) throw new ConfigurationError(`${name} must not carry credentials`);
  if (url.search || url.hash) throw new ConfigurationError(`${name} must not have a query or fragment`);
  return url.href.replace(/\/+$/, "");
}
