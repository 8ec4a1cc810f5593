/**
 * createClient({ logger }): one entry per attempt (token requests and
 * retries included) with what was asked and what came of it, redacted by
 * construction: an entry is built from fields that hold no header value,
 * secret, token, request body or metadata value. A response body is written
 * only at debug, as its own entry, scrubbed (the client's Redactor, metadata
 * values, the player URL's token, and anything the request sent) before it
 * is cut.
 */
import { apiErrorFor, ConfigurationError, FlowsmithError } from "../errors.js";
import { excerptOf, REDACTED } from "../secrets/excerpt.js";
import { isRecord } from "../json.js";
import type { Redactor } from "../secrets/redaction.js";
import type { Answer } from "./answer.js";
import type { ExchangeRequest } from "./messages.js";
import type { AttemptObserver, AttemptRecord } from "./observer.js";

/** pino's shape (console fits): `(fields, message)`. */
export interface Logger {
  /** A response body (scrubbed and cut), as an entry of its own. */
  debug(fields: object, message?: string): void;
  /** An attempt answered below 400, or ended by the caller (ABORTED, CLIENT_CLOSED). */
  info(fields: object, message?: string): void;
  /** An attempt answered 4xx; a pattern left to the service. */
  warn(fields: object, message?: string): void;
  /** An attempt answered 5xx, or with no answer (TIMEOUT, NETWORK_ERROR). */
  error(fields: object, message?: string): void;
  /** pino's: when present and false for "debug", response bodies are not prepared at all. */
  isLevelEnabled?(level: string): boolean;
}

/** What one entry holds. */
export interface AttemptLogEntry {
  /** "token" for the token request. */
  readonly kind: "api" | "token";
  /** The HTTP method. */
  readonly method: string;
  /** The path's template (`/api/v1/{environment}/sessions/{sessionId}`), never the path with its values. */
  readonly route: string;
  /** 1 for a call's first attempt; retries and the resend after a 401 count on. */
  readonly attempt: number;
  /** How long the attempt took, in milliseconds. */
  readonly durationMs: number;
  /** Absent when no answer came. */
  readonly status?: number;
  /** The error code the attempt ends with (`NOT_FOUND`, `TIMEOUT`, `AUTH_FAILED`); absent on success. */
  readonly errorCode?: string;
}

const LEVELS = ["debug", "info", "warn", "error"] as const;

/** A body is kept in a debug entry up to this many characters, after scrubbing. */
const BODY_CHARS = 2048;
/** Request values shorter than this are not searched for (a locale "en" would blank every word it occurs in). */
const MIN_VALUE_LENGTH = 4;

export function loggerOrThrow(value: unknown): Logger | undefined {
  if (value === undefined) return undefined;
  const missing = LEVELS.filter((level) => typeof (value as Record<string, unknown> | null)?.[level] !== "function");
  if (missing.length > 0)
    throw new ConfigurationError(
      `logger must have debug, info, warn and error methods (pino's shape; console works); missing: ${missing.join(", ")}`,
    );
  return value as Logger;
}

export class AttemptLogger implements AttemptObserver {
  constructor(
    private readonly logger: Logger,
    private readonly redactor: Redactor,
  ) {}

  start(request: ExchangeRequest): AttemptRecord {
    const started = performance.now();
    const entry = (fields: Partial<AttemptLogEntry>): AttemptLogEntry => ({
      kind: request.kind,
      method: request.method,
      route: request.route,
      attempt: request.attempt,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...fields,
    });
    return {
      answered: (answer) => {
        const ok = answer.status < 400;
        const errorCode = ok
          ? undefined
          : request.kind === "token"
            ? "AUTH_FAILED"
            : apiErrorFor({ status: answer.status, method: "", path: "", body: undefined }).code;
        const fields = entry(ok ? { status: answer.status } : { status: answer.status, errorCode });
        this.write(ok ? "info" : answer.status >= 500 ? "error" : "warn", fields);
        if (request.kind === "api" && typeof answer.body === "string" && this.debugEnabled()) {
          this.logger.debug(
            { ...fields, body: loggableBody(answer, request, this.redactor) },
            `${messageOf(fields)}: response body`,
          );
        }
      },
      failed: (error) => {
        const errorCode = error instanceof FlowsmithError ? error.code : "MIDDLEWARE_FAILED";
        // The caller's own doing (its signal, close()) is not a failure of the service.
        const level = errorCode === "ABORTED" || errorCode === "CLIENT_CLOSED" ? "info" : "error";
        this.write(level, entry({ errorCode }));
      },
    };
  }

  private write(level: (typeof LEVELS)[number], fields: AttemptLogEntry): void {
    try {
      this.logger[level](fields, messageOf(fields));
    } catch {
      // A logger that throws must not fail the call it reports on.
    }
  }

  private debugEnabled(): boolean {
    try {
      return this.logger.isLevelEnabled?.("debug") ?? true;
    } catch {
      return false;
    }
  }
}

function messageOf(fields: AttemptLogEntry): string {
  const outcome = fields.status !== undefined ? String(fields.status) : (fields.errorCode ?? "");
  return `flowsmith ${fields.method} ${fields.route} ${outcome} (attempt ${String(fields.attempt)}, ${String(fields.durationMs)} ms)`;
}

/**
 * A response body for a debug entry: metadata values and the player URL's
 * query out (the service echoes metadata; playerUrl carries a token), then
 * the client's Redactor, then every value the request sent (an echoing server
 * returns the request), then cut: scrubbed whole first, so nothing is cut in
 * half before it could be found.
 */
function loggableBody(answer: Answer, request: ExchangeRequest, redactor: Redactor): string {
  let shown: string;
  try {
    shown = redactor.text(JSON.stringify(withoutPrivateFields(JSON.parse(answer.text) as unknown, 0)));
  } catch {
    // Not JSON: scrubbed as text, as cut when it was read only up to its limit.
    shown = redactor.text(answer.text, { truncated: answer.truncated });
  }
  for (const value of requestValues(request)) shown = shown.split(value).join(REDACTED);
  return excerptOf(shown, BODY_CHARS);
}

function withoutPrivateFields(value: unknown, depth: number): unknown {
  if (depth > 50) return REDACTED;
  if (Array.isArray(value)) return value.map((item: unknown) => withoutPrivateFields(item, depth + 1));
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "metadata" && isRecord(item))
      copy[key] = Object.fromEntries(Object.keys(item).map((name) => [name, REDACTED]));
    else if (key === "playerUrl" && typeof item === "string") copy[key] = item.replace(/[?#].*$/s, `?${REDACTED}`);
    else copy[key] = withoutPrivateFields(item, depth + 1);
  }
  return copy;
}

/** The strings the request sent (header values, JSON leaves, form fields), longest first, each also as JSON writes it. */
function requestValues(request: ExchangeRequest): string[] {
  const values = new Set<string>();
  const add = (value: string) => {
    if (value.length < MIN_VALUE_LENGTH) return;
    values.add(value);
    values.add(JSON.stringify(value).slice(1, -1));
  };
  for (const value of Object.values(request.headers)) add(value);
  const body = request.body;
  if (typeof body === "string") {
    try {
      collectStrings(JSON.parse(body) as unknown, add, 0);
    } catch {
      add(body);
    }
  } else if (body !== undefined) {
    for (const [, value] of body) if (typeof value === "string") add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

function collectStrings(value: unknown, add: (value: string) => void, depth: number): void {
  if (typeof value === "string") add(value);
  else if (depth < 50 && typeof value === "object" && value !== null)
    for (const item of Object.values(value)) collectStrings(item, add, depth + 1);
}
