/**
 * `state` for the redirect back from the player (docs/service.md 2.1: an
 * opaque value, at most 2048 characters, echoed back in the redirect URL).
 * The backend signs it when it creates the session and checks it when the
 * browser returns, so a return URL someone else made, or one for another
 * user, or an old one, is refused.
 *
 * Format: `v1.<expiresAtMs>.<nonce>.<subjectTag>.<data>.<mac>` (base64url
 * parts). The MAC is HMAC-SHA256 over everything before it; the subject tag is
 * an HMAC of the nonce and subjectId, so the state names no subject in clear
 * and two states of one subject cannot be linked. Both functions return
 * promises: the MACs are Web Crypto's, which is asynchronous on every platform.
 */
import { base64UrlOf, bytesOfBase64, timingSafeEqualBytes, utf8Bytes, utf8Text } from "./bytes.js";
import { hmacSha256, randomBytes } from "./crypto.js";
import { ConfigurationError, FlowsmithError } from "./errors.js";
import { MAX_STATE_LENGTH } from "./service-limits.js";

/** Why a state was refused, or could not be made: the codes of RedirectStateError. */
export type RedirectStateErrorCode =
  /** Not a state in this format (wrong parts, too long, not a string). */
  | "STATE_MALFORMED"
  /** Its MAC does not match: altered, or signed with another secret. */
  | "STATE_TAMPERED"
  /** Genuine, but made for another subjectId. */
  | "STATE_SUBJECT_MISMATCH"
  /** Genuine, but past its ttl. */
  | "STATE_EXPIRED"
  /** createRedirectState: the state would be over the service's 2048 characters (shorten `data`). */
  | "STATE_TOO_LONG"
  /** stateFromReturnUrl: the URL carries no `state`. */
  | "STATE_MISSING"
  /** stateFromReturnUrl: not a URL. */
  | "RETURN_URL_INVALID";

/** A redirect state refused by verifyRedirectState (or stateFromReturnUrl, or too long for createRedirectState); `code` says why. */
export class RedirectStateError extends FlowsmithError {
  override readonly name = "RedirectStateError";
  constructor(
    override readonly code: RedirectStateErrorCode,
    message: string,
    /** For STATE_EXPIRED: when it expired. */
    readonly expiredAt?: Date,
  ) {
    super(code, message);
  }
}

/** A secret of at least 32 bytes (UTF-8 for a string); keep it server-side. */
export type StateSecret = string | Uint8Array;

/** What createRedirectState signs, and with what. */
export interface CreateRedirectStateOptions {
  /** The secret to sign with: at least 32 bytes, kept server-side. */
  readonly secret: StateSecret;
  /** Who the session is for: the same subjectId as its metadata, from your own login session. */
  readonly subjectId: string;
  /** How long the user has to come back. */
  readonly ttlMs: number;
  /** Text carried through the redirect (the page to return to, say). Signed, not encrypted: it shows in the URL. */
  readonly data?: string;
  /** The clock, in ms since the epoch. Default Date.now. */
  readonly now?: () => number;
}

/** What verifyRedirectState checks a returned state against. */
export interface VerifyRedirectStateOptions {
  /** The secret it was made with; several while rotating (any one verifies). */
  readonly secret: StateSecret | readonly StateSecret[];
  /** The subjectId of the user now in front of you (from your login session, not from the URL). */
  readonly subjectId: string;
  /** The `state` the browser came back with (stateFromReturnUrl). */
  readonly state: string;
  /** The clock, in ms since the epoch. Default Date.now. */
  readonly now?: () => number;
}

/** A state verifyRedirectState accepted: genuine, for this subject, not expired. */
export interface VerifiedRedirectState {
  /** When it expires (createRedirectState's now + ttlMs). */
  readonly expiresAt: Date;
  /** Unique per state: record it until expiresAt to make a state single-use. */
  readonly nonce: string;
  /** The `data` given to createRedirectState, if any. */
  readonly data: string | undefined;
}

const VERSION = "v1";
const MIN_SECRET_BYTES = 32;
const TAG_BYTES = 16;
const PART = /^[A-Za-z0-9_-]*$/;

/**
 * A signed `state` for createSession (at most 2048 characters), bound to the
 * user and expiring after `ttlMs`; check it on the return with
 * verifyRedirectState. A bad option is a ConfigurationError; a `data` too
 * long for the service a RedirectStateError (`STATE_TOO_LONG`).
 */
export async function createRedirectState(options: CreateRedirectStateOptions): Promise<string> {
  const key = secretOrThrow(options.secret, "createRedirectState", "secret");
  const subjectId = subjectOrThrow(options.subjectId, "createRedirectState");
  const ttlMs = options.ttlMs;
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new ConfigurationError(`createRedirectState: ttlMs must be a positive integer, got ${String(ttlMs)}`);
  }
  if (options.data !== undefined && typeof options.data !== "string") {
    throw new ConfigurationError("createRedirectState: data must be a string when given");
  }
  const expiresAt = nowOrThrow(options.now, "createRedirectState") + ttlMs;
  const nonce = base64UrlOf(randomBytes(16));
  const data = base64UrlOf(utf8Bytes(options.data ?? ""));
  const signed = [VERSION, String(expiresAt), nonce, await subjectTag(key, nonce, subjectId), data].join(".");
  const state = `${signed}.${await mac(key, signed)}`;
  if (state.length > MAX_STATE_LENGTH) {
    throw new RedirectStateError(
      "STATE_TOO_LONG",
      `createRedirectState: the state would be ${state.length} characters, over the service's ${MAX_STATE_LENGTH} (docs/service.md 2.1); ` +
        "shorten data (it grows by 4/3 in base64url)",
    );
  }
  return state;
}

/** The state's contents, or a RedirectStateError saying why it is refused. */
export async function verifyRedirectState(options: VerifyRedirectStateOptions): Promise<VerifiedRedirectState> {
  const list = Array.isArray(options.secret)
    ? (options.secret as readonly StateSecret[])
    : [options.secret as StateSecret];
  if (list.length === 0) throw new ConfigurationError("verifyRedirectState: secret is an empty list");
  const keys = list.map((secret, index) =>
    secretOrThrow(secret, "verifyRedirectState", list.length > 1 ? `secret[${index}]` : "secret"),
  );
  const subjectId = subjectOrThrow(options.subjectId, "verifyRedirectState");
  const now = nowOrThrow(options.now, "verifyRedirectState");
  const parts = partsOrThrow(options.state);
  const signed = parts.slice(0, 5).join(".");
  let key: Uint8Array | undefined;
  for (const candidate of keys) {
    if (sameText(await mac(candidate, signed), parts[5])) {
      key = candidate;
      break;
    }
  }
  if (!key) {
    throw new RedirectStateError(
      "STATE_TAMPERED",
      "The redirect state was altered or signed with another secret: refuse this return and start the flow again",
    );
  }
  const [, expiry, nonce, tag, data] = parts;
  if (!sameText(await subjectTag(key, nonce, subjectId), tag)) {
    throw new RedirectStateError(
      "STATE_SUBJECT_MISMATCH",
      "The redirect state was made for another subject than the user now returning: refuse this return",
    );
  }
  const expiresAt = Number(expiry);
  if (now >= expiresAt) {
    const at = new Date(expiresAt);
    throw new RedirectStateError(
      "STATE_EXPIRED",
      `The redirect state expired at ${at.toISOString()}: start the flow again (or raise ttlMs)`,
      at,
    );
  }
  return {
    expiresAt: new Date(expiresAt),
    nonce,
    data: data === "" ? undefined : utf8Text(bytesOfBase64(data) ?? new Uint8Array(0)),
  };
}

/**
 * The `state` query parameter of the URL the browser returned to: absolute
 * (`https://app.example/return?state=...`) or as node:http gives it
 * (`/return?state=...`). When it appears more than once the last one counts:
 * the service appends its own to the redirectUrl's query.
 */
export function stateFromReturnUrl(url: string | URL): string {
  let parsed: URL;
  try {
    // Any base will do: only the query is read.
    parsed = url instanceof URL ? url : new URL(url, "http://return.invalid");
  } catch {
    throw new RedirectStateError(
      "RETURN_URL_INVALID",
      "stateFromReturnUrl: not a URL (give the absolute URL or req.url)",
    );
  }
  const state = parsed.searchParams.getAll("state").at(-1);
  if (state === undefined || state === "") {
    throw new RedirectStateError(
      "STATE_MISSING",
      "The return URL has no state query parameter: this return did not come from a session created with state",
    );
  }
  return state;
}

type StateParts = readonly [version: string, expiry: string, nonce: string, tag: string, data: string, mac: string];

function partsOrThrow(state: unknown): StateParts {
  const malformed = (why: string) =>
    new RedirectStateError("STATE_MALFORMED", `The redirect state is malformed: ${why}`);
  if (typeof state !== "string") throw malformed("not a string");
  // Checked first, so an oversized value costs nothing more (the service would not echo it anyway).
  if (state.length > MAX_STATE_LENGTH) throw malformed(`longer than the service's ${MAX_STATE_LENGTH} characters`);
  const parts = state.split(".");
  if (parts.length !== 6 || parts[0] !== VERSION)
    throw malformed(`expected 6 dot-separated parts starting with "${VERSION}"`);
  const [, expiry, nonce, tag, data, signature] = parts as [string, string, string, string, string, string];
  if (!/^[0-9]{1,16}$/.test(expiry)) throw malformed("the expiry is not a number");
  if (
    ![nonce, tag, data, signature].every((part) => PART.test(part)) ||
    nonce.length !== 22 ||
    tag.length !== 22 ||
    signature.length !== 43
  ) {
    throw malformed("a part is not base64url of the expected length");
  }
  return parts as unknown as StateParts;
}

async function mac(key: Uint8Array, signed: string): Promise<string> {
  return base64UrlOf(await hmacSha256(key, `flowsmith.redirect-state.${signed}`));
}

async function subjectTag(key: Uint8Array, nonce: string, subjectId: string): Promise<string> {
  const digest = await hmacSha256(key, `flowsmith.redirect-subject.${nonce}.${subjectId}`);
  return base64UrlOf(digest.subarray(0, TAG_BYTES));
}

/** Constant-time comparison of two base64url texts. */
function sameText(expected: string, given: string): boolean {
  return timingSafeEqualBytes(utf8Bytes(expected), utf8Bytes(given));
}

function secretOrThrow(secret: unknown, where: string, name: string): Uint8Array {
  const bytes =
    typeof secret === "string" ? utf8Bytes(secret) : secret instanceof Uint8Array ? Uint8Array.from(secret) : undefined;
  if (!bytes || bytes.length < MIN_SECRET_BYTES) {
    throw new ConfigurationError(
      `${where}: ${name} must be a string or bytes of at least ${MIN_SECRET_BYTES} bytes (32 random bytes: crypto.getRandomValues(new Uint8Array(32)))`,
    );
  }
  return bytes;
}

function subjectOrThrow(subjectId: unknown, where: string): string {
  if (typeof subjectId !== "string" || subjectId === "")
    throw new ConfigurationError(`${where}: subjectId must be a non-empty string`);
  return subjectId;
}

function nowOrThrow(now: (() => number) | undefined, where: string): number {
  const value = now ? now() : Date.now();
  if (!Number.isFinite(value))
    throw new ConfigurationError(`${where}: now() must return milliseconds since the epoch, got ${String(value)}`);
  return Math.floor(value);
}
