/**
 * What callers of startEmulator may pass, and the resolved form the servers
 * use. Defaults live here and nowhere else.
 */
import { webhookSecretProblem, type Environment } from "@flowsmith/runtime";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "@flowsmith/runtime/service-limits";
import type { FlowModel } from "../generator/index.js";
import { systemClock, type EmulatorClock } from "./clock.js";
import { controlAccessOrThrow } from "./control-access.js";
import { LOOPBACK_ENTRY, parseRedirectAllowlistOrThrow, type RedirectAllowlist } from "./redirect-allowlist.js";
import { printWebhookFailure, type WebhookFailure } from "./webhook-failure.js";

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** A flow with the parsed description it came from (served by GET .../openapi). */
export interface EmulatedFlow {
  readonly model: FlowModel;
  /** The parsed OpenAPI document; without it the openapi endpoint answers 404 for this flow. */
  readonly document?: unknown;
}

export interface EmulatorOptions {
  /** Flows to serve. When absent, flows are read from `configPath`. */
  readonly flows?: readonly (FlowModel | EmulatedFlow)[];
  /** Codegen config to read flows from. Default: the nearest codegen.config.json in the working directory or above it. */
  readonly configPath?: string;
  /** Default "127.0.0.1": loopback only unless told otherwise. */
  readonly host?: string;
  /** Port of {base_url}. Default 0 (any free port). */
  readonly apiPort?: number;
  /** Port of {auth_url}. Default 0 (any free port). */
  readonly authPort?: number;
  /** How long a new session stays CREATED. Default 300. */
  readonly createdMs?: number;
  /** How long each waiting step (START, OTP without ticket) lasts. Default 300. */
  readonly stepMs?: number;
  /** Access token lifetime in seconds (fractions allowed, for tests). Default 86400. */
  readonly tokenTtlSeconds?: number;
  /** API clients per environment. Default staging-client/staging-secret and live-client/live-secret. */
  readonly clients?: { readonly staging?: Credentials; readonly live?: Credentials };
  /** Where session-ended notifications are POSTed: one URL, or several that events take in turn (a retry or second copy goes to the next). Default: none sent. */
  readonly webhookUrl?: string | readonly string[];
  /** Delays before each webhook retry. Default [200, 1000, 5000] (so 4 attempts in all). */
  readonly webhookRetryDelaysMs?: readonly number[];
  /** How long after its session ended the webhook of a `test_webhook_late…` subject goes out. Default 5000. */
  readonly lateWebhookMs?: number;
  /** Signing secret of webhook deliveries (`whsec_` + base64 of at least 32 random bytes, Standard Webhooks). Default: none, deliveries are unsigned. */
  readonly webhookSecret?: string;
  /**
   * Told about each failed webhook attempt: its status or network error, what it means, and
   * whether a retry follows. Default: a line on stderr per failed delivery (after its last
   * attempt) and a shorter one per attempt that is retried.
   */
  readonly onWebhookFailure?: (failure: WebhookFailure) => void;
  /** Sessions kept at most; past it the oldest ended session is evicted (else the oldest). Default 10 000. */
  readonly maxSessions?: number;
  /** Unexpired access tokens kept at most; past it the oldest is dropped. Default 10 000. */
  readonly maxTokens?: number;
  /** Time for session phases, token expiry and webhook retries. Default: the system clock. */
  readonly clock?: EmulatorClock;
  /**
   * Where a session's redirectUrl may point: origins (`https://app.example.test`)
   * or URL prefixes (`https://app.example.test/return/`), or "loopback".
   * Default ["loopback"]: http(s) on 127.0.0.1, [::1] or localhost, any port.
   */
  readonly redirectAllowlist?: readonly string[];
  /** Serve the control API (`/__emulator/…` on the API host). Default true; its methods on the handle work either way. */
  readonly control?: boolean;
  /**
   * Required on every control call (`Authorization: Bearer <token>`) when set; at least 16 characters.
   * Required at start when `host` is not a loopback address and the control API is on. Default: none.
   */
  readonly controlToken?: string;
  /** Reload the config and its descriptions when they change (only with flows from `configPath`). Default false. */
  readonly watch?: boolean;
  /** Told about each reload of `watch`: what changed, or why the new set was refused; and about the watcher failing. */
  readonly onReload?: (reload: Reload) => void;
}

/**
 * One reload of `watch`, or its watcher failing. `failed: "reload"`: the
 * new set did not load, and the flows served before are served still.
 * `failed: "watch"`: no reload was tried; a folder could not be watched (no
 * permission to list it, the system's limit of watches), so changes there go
 * unseen, while the flows served stay and the files still watched reload as
 * before.
 */
export type Reload =
  | { readonly ok: true; readonly changes: readonly FlowChange[] }
  | { readonly ok: false; readonly failed: "reload" | "watch"; readonly error: Error };

/** A flow of the config after a reload: published (new or a changed description), withdrawn, or unchanged. */
export interface FlowChange {
  readonly flowId: string;
  readonly environment: Environment;
  readonly version: number;
  readonly change: "added" | "changed" | "removed" | "unchanged";
}

export interface ResolvedOptions {
  readonly host: string;
  readonly apiPort: number;
  readonly authPort: number;
  readonly createdMs: number;
  readonly stepMs: number;
  readonly tokenTtlSeconds: number;
  readonly clients: Readonly<Record<Environment, Credentials>>;
  readonly webhookUrls: readonly string[];
  readonly webhookRetryDelaysMs: readonly number[];
  readonly lateWebhookMs: number;
  readonly webhookSecret: string | undefined;
  readonly onWebhookFailure: (failure: WebhookFailure) => void;
  readonly maxSessions: number;
  readonly maxTokens: number;
  readonly clock: EmulatorClock;
  readonly redirectAllowlist: RedirectAllowlist;
  readonly control: boolean;
  readonly controlToken: string | undefined;
}

export const EMULATOR_DEFAULTS = {
  host: "127.0.0.1",
  apiPort: 0,
  authPort: 0,
  createdMs: 300,
  stepMs: 300,
  tokenTtlSeconds: DEFAULT_TOKEN_LIFETIME_SECONDS,
  clients: {
    staging: { clientId: "staging-client", clientSecret: "staging-secret" },
    live: { clientId: "live-client", clientSecret: "live-secret" },
  },
  webhookRetryDelaysMs: [200, 1000, 5000],
  lateWebhookMs: 5000,
  maxSessions: 10_000,
  maxTokens: 10_000,
  redirectAllowlist: [LOOPBACK_ENTRY],
} as const;

export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  return {
    host: options.host ?? EMULATOR_DEFAULTS.host,
    apiPort: nonNegativeOrThrow("apiPort", options.apiPort ?? EMULATOR_DEFAULTS.apiPort),
    authPort: nonNegativeOrThrow("authPort", options.authPort ?? EMULATOR_DEFAULTS.authPort),
    createdMs: nonNegativeOrThrow("createdMs", options.createdMs ?? EMULATOR_DEFAULTS.createdMs),
    stepMs: nonNegativeOrThrow("stepMs", options.stepMs ?? EMULATOR_DEFAULTS.stepMs),
    tokenTtlSeconds: positiveOrThrow("tokenTtlSeconds", options.tokenTtlSeconds ?? EMULATOR_DEFAULTS.tokenTtlSeconds),
    clients: {
      staging: options.clients?.staging ?? EMULATOR_DEFAULTS.clients.staging,
      live: options.clients?.live ?? EMULATOR_DEFAULTS.clients.live,
    },
    webhookUrls: (typeof options.webhookUrl === "string" ? [options.webhookUrl] : (options.webhookUrl ?? [])).map(
      urlOrThrow,
    ),
    webhookRetryDelaysMs: (options.webhookRetryDelaysMs ?? EMULATOR_DEFAULTS.webhookRetryDelaysMs).map((delay) =>
      nonNegativeOrThrow("webhookRetryDelaysMs", delay),
    ),
    lateWebhookMs: nonNegativeOrThrow("lateWebhookMs", options.lateWebhookMs ?? EMULATOR_DEFAULTS.lateWebhookMs),
    webhookSecret: options.webhookSecret === undefined ? undefined : webhookSecretOrThrow(options.webhookSecret),
    onWebhookFailure: options.onWebhookFailure ?? printWebhookFailure,
    maxSessions: countOrThrow("maxSessions", options.maxSessions ?? EMULATOR_DEFAULTS.maxSessions),
    maxTokens: countOrThrow("maxTokens", options.maxTokens ?? EMULATOR_DEFAULTS.maxTokens),
    clock: options.clock ?? systemClock,
    redirectAllowlist: parseRedirectAllowlistOrThrow(options.redirectAllowlist ?? EMULATOR_DEFAULTS.redirectAllowlist),
    ...controlAccessOrThrow(options),
  };
}

function nonNegativeOrThrow(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`emulator option ${name} must be a number >= 0, got ${String(value)}`);
  return value;
}

function positiveOrThrow(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`emulator option ${name} must be a number > 0, got ${String(value)}`);
  return value;
}

function countOrThrow(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`emulator option ${name} must be a whole number >= 1, got ${String(value)}`);
  return value;
}

/** The runtime's rule (at least 32 bytes of HMAC key); the secret itself never appears in the message, `source` names where it came from. */
export function webhookSecretOrThrow(
  secret: string,
  source = "emulator option webhookSecret (--webhook-secret)",
): string {
  const problem = webhookSecretProblem(secret);
  if (problem !== undefined) throw new RangeError(`${source} ${problem}`);
  return secret;
}

function urlOrThrow(value: string): string {
  // Notifications are POSTed over HTTP: another scheme would start, then fail every delivery.
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== "http:" && protocol !== "https:")
    throw new RangeError(`emulator option webhookUrl must be an absolute http(s) URL, got "${value}"`);
  return value;
}
