/**
 * The one scrubbing path for secrets: the client secret, every access token
 * the client has held (docs/service.md 5), the password of its proxy and the
 * secret of a webhook handler made with it, in each form they travel in and
 * a server may echo them in, and any Authorization value or credential field
 * a server echoes. Errors, and whatever else shows text a server sent (logs,
 * spans, the CLI's output), go through a Redactor.
 *
 * The contract:
 * - No run of 8 characters of a known secret (pieces.ts' PIECE) is
 *   left, whichever part of it was echoed (its start, middle or end) and
 *   however it was escaped: raw; JSON string escapes (`\/`, `\u002B`...);
 *   HTML character references; percent or form encoding in either case of hex
 *   digit, also twice over; these inside one another (views.ts); the
 *   Basic value; base64 or base64url at any byte offset inside a longer
 *   base64 string; hex in either case (forms.ts). A secret shorter
 *   than 8 characters is looked for whole.
 * - Scrub, then cut: `excerpt` cuts only scrubbed text. A text that was cut
 *   before it could be scrubbed (a body read up to a size limit) is scrubbed
 *   with `{ truncated: true }`: a secret cut through at its end is removed
 *   too, so no cut leaves 4 or more of its first characters.
 * - Time linear in the text (known.ts), for any text: this runs on
 *   error paths a server can provoke.
 *
 * A server that echoes its request puts these into error bodies and
 * messages, and undici's errors can carry raw response bytes. So every error
 * a client's call rejects with passes through `Redactor.error` (client.ts,
 * create-session.ts).
 */
import { FlowsmithError } from "../errors.js";
import { excerptOf, REDACTED } from "./excerpt.js";
import { KnownSecrets } from "./known.js";
import { base64OfText } from "./forms.js";

/**
 * Tokens remembered at most: a token is renewed about daily, this bounds a
 * misbehaving auth server. Past it, the older half is forgotten at once, so
 * that the search is built anew once per MAX_TOKENS / 2 tokens, not per token.
 */
const MAX_TOKENS = 100;

/**
 * A shorter value cannot be told apart from ordinary text (a one-letter
 * secret would blank every word it occurs in), so it is not searched for.
 */
const MIN_SECRET_LENGTH = 4;

/**
 * At the end of a cut text, the start of a secret this long or longer (in the
 * text as written, escapes included) is removed; a shorter one is kept, as it
 * could as well be ordinary text that happens to begin a secret.
 */
const MIN_FRAGMENT = 4;

/** Nesting scrubbed at most in a body; deeper values are dropped, not passed on unread. */
const MAX_DEPTH = 100;

/** Keys whose value is a credential whatever it looks like. */
const CREDENTIAL_KEY =
  /^(?:client_secret|access_token|refresh_token|id_token|authorization|proxy-authorization|password)$/i;

/**
 * Credentials the runtime does not know by value, in text: a header echo
 * (`authorization: …`), a credential field in a form or JSON text, a long
 * Bearer value. The Basic case is decided by decoding (see basicCredential).
 * Each runs in linear time: a literal anchors it, and no quantified part can
 * match what follows it.
 */
const ECHO_PATTERNS: readonly [RegExp, string][] = [
  [/\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\s"',;}][^"'\r\n,;}]*/gi, `$1${REDACTED}`],
  [/\b((?:client_secret|access_token|refresh_token|id_token)["']?\s*[:=]\s*["']?)[^"'&\s,;}]+/gi, `$1${REDACTED}`],
  [/\b(Bearer\s+)[A-Za-z0-9\-._~+/]{12,}=*/gi, `$1${REDACTED}`],
];
const BASIC = /\b(Basic\s+)([A-Za-z0-9+/]{4,}={0,2})/gi;

export interface ScrubOptions {
  /**
   * The text is the start of a longer one, cut at a size limit before it could
   * be scrubbed: the start of a secret at its end is removed as well, and an
   * escape or a character cut through there is dropped. Default false.
   */
  readonly truncated?: boolean;
}

/** What a client's Redactor knows from the start. */
export interface RedactorCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The proxy's password and the Basic value sent for it (exchange/proxy-url.ts). */
  readonly proxySecrets?: readonly string[];
}

export class Redactor {
  /** Kept for the Redactor's life: the client secret, its Basic value, the proxy's, a webhook handler's secrets. */
  private readonly secrets = new Set<string>();
  private readonly tokens = new Set<string>();
  /** The search for every known secret, built when first needed; undefined again when tokens are forgotten. */
  private known: KnownSecrets | undefined;
  /** The work of the searches replaced by a newer one, so that `work` counts all. */
  private workBefore = 0;

  /** Without credentials (no client at hand), only the echo patterns apply. */
  constructor(credentials?: RedactorCredentials) {
    if (!credentials) return;
    this.secrets.add(credentials.clientSecret);
    this.secrets.add(base64OfText(`${credentials.clientId}:${credentials.clientSecret}`));
    for (const secret of credentials.proxySecrets ?? []) this.secrets.add(secret);
  }

  /** A token the client received: scrubbed from every error from now on. */
  rememberToken(token: string): void {
    if (token === "" || this.tokens.has(token)) return;
    this.tokens.add(token);
    if (this.tokens.size <= MAX_TOKENS) return this.known?.add(token);
    for (const old of [...this.tokens].slice(0, this.tokens.size - MAX_TOKENS / 2)) this.tokens.delete(old);
    this.workBefore = this.work;
    this.known = undefined;
  }

  /** A secret kept for good (a webhook handler's, webhooks/options.ts): scrubbed from every error from now on. */
  rememberSecret(secret: string): void {
    if (secret === "" || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.known?.add(secret);
  }

  /** Characters read and slots probed by every search for known secrets so far: what the test of linear time bounds. */
  get work(): number {
    return this.workBefore + (this.known?.work ?? 0);
  }

  /** The text with every known secret (in any form) and every echoed credential replaced by `[redacted]`. */
  text(text: string, options: ScrubOptions = {}): string {
    let scrubbed = this.replaceKnown(text, options.truncated ?? false);
    for (const [pattern, replacement] of ECHO_PATTERNS) scrubbed = scrubbed.replace(pattern, replacement);
    return scrubbed.replace(BASIC, basicCredential);
  }

  /**
   * The text scrubbed, then cut to at most `maxChars` characters (and `…`):
   * scrubbing first, as a secret cut in half would no longer be found. The cut
   * falls before a `[redacted]` it would split.
   */
  excerpt(text: string, maxChars: number, options: ScrubOptions = {}): string {
    return excerptOf(this.text(text, options), maxChars);
  }

  /**
   * Whether text holds the client secret or a token this client was given, in
   * any of their forms. Only known values count: a successful body (a flow
   * description) may say "Authorization" or "Bearer" in prose.
   */
  holdsKnown(text: string): boolean {
    return this.knownSecrets().occursIn(text);
  }

  /** The text with the client secret and this client's tokens replaced, in any of their forms; prose left as it is. */
  withoutKnown(text: string): string {
    return this.replaceKnown(text, false);
  }

  /** A copy of a JSON-like value (a response body) with every string and key scrubbed. */
  value(value: unknown, depth = 0): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null) return value;
    if (depth >= MAX_DEPTH) return REDACTED;
    if (Array.isArray(value)) return value.map((item: unknown) => this.value(item, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[this.text(key)] =
        CREDENTIAL_KEY.test(key) && item !== null && item !== "" ? REDACTED : this.value(item, depth + 1);
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

  /**
   * Known secrets replaced: each place a view of the text (views.ts)
   * holds one is replaced in the text, overlapping places as one. Truncated,
   * the text also ends before the start of a secret cut through at its end.
   */
  private replaceKnown(text: string, truncated: boolean): string {
    const { ranges, end } = this.knownSecrets().find(text, truncated);
    const parts: string[] = [];
    let written = 0;
    for (const [start, stop] of ranges) {
      // Past a cut text's end (a view that kept an escape another view dropped): nothing left to replace.
      if (start >= end) break;
      parts.push(text.slice(written, start), REDACTED);
      written = stop;
    }
    if (written < end) parts.push(text.slice(written, end));
    return parts.join("");
  }

  /** Built at the first search, then added to as secrets and tokens come. */
  private knownSecrets(): KnownSecrets {
    if (!this.known) {
      this.known = new KnownSecrets(MIN_SECRET_LENGTH, MIN_FRAGMENT);
      for (const secret of [...this.secrets, ...this.tokens]) this.known.add(secret);
    }
    return this.known;
  }
}

/** `Basic <base64>` is a credential when it decodes to `user:password`; prose such as "Basic information" is left alone. */
function basicCredential(match: string, prefix: string, value: string): string {
  return decodedBase64(value).includes(":") ? `${prefix}${REDACTED}` : match;
}

/** base64 read as Latin-1, leniently: padding or a last character too many (a cut value) does not stop it. */
function decodedBase64(value: string): string {
  const bare = value.replace(/=+$/, "");
  try {
    return atob(bare.length % 4 === 1 ? bare.slice(0, -1) : bare);
  } catch {
    return "";
  }
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
