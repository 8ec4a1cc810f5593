/**
 * Secrets out of everything the runtime hands back: the client secret and
 * every access token the client has held (docs/service.md 5), in each form
 * they travel in (raw, form-encoded as URLSearchParams writes it,
 * percent-encoded, inside the Basic value, JSON-escaped), and any
 * Authorization value or credential field a server echoes.
 *
 * A server that echoes its request puts these into error bodies and
 * messages, and undici's errors can carry raw response bytes. So every error
 * a client's call rejects with passes through `Redactor.error` (client.ts,
 * create-session.ts), and bodies are scrubbed before a message is cut from
 * them (a secret cut in half would no longer match).
 */
import { FlowsmithError } from "./errors.js";

const REDACTED = "[redacted]";

/** Tokens remembered at most, newest kept: a token is renewed about daily, this bounds a misbehaving auth server. */
const MAX_TOKENS = 100;

/**
 * A shorter value cannot be told apart from ordinary text (a one-letter
 * secret would blank every word it occurs in), so it is not searched for.
 */
const MIN_SECRET_LENGTH = 4;

/** Nesting scrubbed at most in a body; deeper values are dropped, not passed on unread. */
const MAX_DEPTH = 100;

/** Keys whose value is a credential whatever it looks like. */
const CREDENTIAL_KEY = /^(?:client_secret|access_token|refresh_token|id_token|authorization|proxy-authorization|password)$/i;

/**
 * Credentials the runtime does not know by value, in text: a header echo
 * (`authorization: …`), a credential field in a form or JSON text, a long
 * Bearer value. The Basic case is decided by decoding (see basicCredential).
 */
const ECHO_PATTERNS: readonly [RegExp, string][] = [
  [/\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\s"',;}][^"'\r\n,;}]*/gi, `$1${REDACTED}`],
  [/\b((?:client_secret|access_token|refresh_token|id_token)["']?\s*[:=]\s*["']?)[^"'&\s,;}]+/gi, `$1${REDACTED}`],
  [/\b(Bearer\s+)[A-Za-z0-9\-._~+/]{12,}=*/gi, `$1${REDACTED}`],
];
const BASIC = /\b(Basic\s+)([A-Za-z0-9+/]{4,}={0,2})/gi;

export class Redactor {
  private readonly fixed: readonly string[];
  private readonly tokens = new Set<string>();
  private pattern: RegExp | undefined;

  /** Without credentials (no client at hand), only the echo patterns apply. */
  constructor(credentials?: { readonly clientId: string; readonly clientSecret: string }) {
    this.fixed = credentials
      ? [credentials.clientSecret, Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`, "utf8").toString("base64")]
      : [];
  }

  /** A token the client received: scrubbed from every error from now on. */
  rememberToken(token: string): void {
    if (token === "" || this.tokens.has(token)) return;
    this.tokens.add(token);
    if (this.tokens.size > MAX_TOKENS) this.tokens.delete(this.tokens.values().next().value as string);
    this.pattern = undefined;
  }

  text(text: string): string {
    let scrubbed = text.replace(this.knownPattern(), REDACTED);
    for (const [pattern, replacement] of ECHO_PATTERNS) scrubbed = scrubbed.replace(pattern, replacement);
    return scrubbed.replace(BASIC, basicCredential);
  }

  /**
   * Whether text holds the client secret or a token this client was given, in
   * any of their forms. Only known values count: a successful body (a flow
   * description) may say "Authorization" or "Bearer" in prose.
   */
  holdsKnown(text: string): boolean {
    return text.search(this.knownPattern()) !== -1;
  }

  /** The text with the client secret and this client's tokens replaced, in any of their forms; prose left as it is. */
  withoutKnown(text: string): string {
    return text.replace(this.knownPattern(), REDACTED);
  }

  /** A copy of a JSON-like value (a response body) with every string and key scrubbed. */
  value(value: unknown, depth = 0): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null) return value;
    if (depth >= MAX_DEPTH) return REDACTED;
    if (Array.isArray(value)) return value.map((item: unknown) => this.value(item, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[this.text(key)] = CREDENTIAL_KEY.test(key) && item !== null && item !== "" ? REDACTED : this.value(item, depth + 1);
    }
    return copy;
  }

  /**
   * Scrubs an error in place and returns it: message, stack, its own fields
   * (`body`, `issues`…) and its cause chain. A cause from below the runtime
   * (undici, Node) is replaced by a scrubbed copy of its name, code and
   * message: undici's errors can hold raw response bytes (`data`).
   */
  error<T>(error: T): T {
    if (isErrorLike(error)) this.scrubError(error, new Set());
    return error;
  }

  private scrubError(error: ErrorLike, seen: Set<object>): void {
    if (seen.has(error)) return;
    seen.add(error);
    const fields = error as unknown as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const field = fields[key];
      // name and code are the runtime's own words; cause is handled below.
      if (key === "name" || key === "code" || key === "cause") continue;
      if (typeof field === "string" || (typeof field === "object" && field !== null)) {
        fields[key] = this.value(field);
      }
    }
    setOwn(error, "message", this.text(error.message));
    if (typeof error.stack === "string") setOwn(error, "stack", this.text(error.stack));
    // An AbortError's cause is the caller's own signal reason: theirs, passed back as given.
    if (!("cause" in error) || error.name === "AbortError") return;
    const cause: unknown = error.cause;
    if (cause instanceof FlowsmithError) this.scrubError(cause, seen);
    else if (isErrorLike(cause)) setOwn(error, "cause", this.copyOfCause(cause, seen));
    else setOwn(error, "cause", this.value(cause));
  }

  private copyOfCause(cause: ErrorLike, seen: Set<object>): Error {
    const copy = new Error(this.text(cause.message));
    setOwn(copy, "name", typeof cause.name === "string" ? this.text(cause.name) : "Error");
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" || typeof code === "number") setOwn(copy, "code", code, true);
    setOwn(copy, "stack", typeof cause.stack === "string" ? this.text(cause.stack) : `${copy.name}: ${copy.message}`);
    if ("cause" in cause && cause.cause !== undefined) {
      setOwn(copy, "cause", cause.cause);
      this.scrubError(copy, seen);
    }
    return copy;
  }

  /** One pattern for every known secret in every encoding, longest first; rebuilt when a token is added. */
  private knownPattern(): RegExp {
    if (this.pattern) return this.pattern;
    const variants = new Set<string>();
    for (const secret of [...this.fixed, ...this.tokens]) {
      if (secret.length >= MIN_SECRET_LENGTH) for (const variant of encodingsOf(secret)) variants.add(variant);
    }
    const sources = [...variants]
      .filter((variant) => variant.length >= MIN_SECRET_LENGTH)
      .sort((a, b) => b.length - a.length)
      .map(patternSource);
    // (?!) never matches: a client without secrets scrubs nothing by value.
    this.pattern = new RegExp(sources.length > 0 ? sources.join("|") : "(?!)", "g");
    return this.pattern;
  }
}

/** The forms a secret takes on the wire and in echoes of it. */
function encodingsOf(secret: string): string[] {
  const base64 = Buffer.from(secret, "utf8").toString("base64").replace(/=+$/, "");
  const base64url = Buffer.from(secret, "utf8").toString("base64url");
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    // As URLSearchParams writes it (space as +), which is how the form body sends the secret.
    new URLSearchParams([["", secret]]).toString().slice(1),
    encodeURIComponent(secret),
    base64,
    base64url,
    encodeURIComponent(base64),
  ];
}

/** The variant as a regular expression; percent-escapes match in either case (`%2f` as `%2F`). */
function patternSource(variant: string): string {
  return variant
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/%([0-9A-F])([0-9A-F])/g, (_match, high: string, low: string) => `%${hexClass(high)}${hexClass(low)}`);
}

function hexClass(digit: string): string {
  return /[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit;
}

/** `Basic <base64>` is a credential when it decodes to `user:password`; prose such as "Basic information" is left alone. */
function basicCredential(match: string, prefix: string, value: string): string {
  return Buffer.from(value, "base64").toString("latin1").includes(":") ? `${prefix}${REDACTED}` : match;
}

interface ErrorLike {
  name: string;
  message: string;
  stack?: string;
  cause?: unknown;
}

/** Duck-typed: errors from Node internals may come from another realm (instanceof fails under jest). */
function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string";
}

/** Assigns an own property, keeping its attributes when it exists (message, stack and cause stay non-enumerable). */
function setOwn(target: object, key: string, value: unknown, enumerableWhenNew = false): void {
  const existing = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, {
    value,
    writable: true,
    configurable: true,
    enumerable: existing ? (existing.enumerable ?? false) : enumerableWhenNew,
  });
}
