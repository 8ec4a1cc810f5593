/**
 * Standard Webhooks signatures (webhook-id, webhook-timestamp,
 * webhook-signature): HMAC-SHA256 over `id.timestamp.body` with the
 * secret's key, any `v1,<base64>` signature of the header matching,
 * compared in constant time, and a timestamp tolerance of 5 minutes against
 * replays, as the specification and its reference library (`standardwebhooks`,
 * which the emulator signs with and the tests check against) say. Computed
 * with Web Crypto, so it runs on every platform.
 */
import { bytesOfBase64, timingSafeEqualBytes } from "../bytes.js";
import { hmacSha256 } from "../crypto.js";
import { ConfigurationError } from "../errors.js";
import { WebhookError } from "./errors.js";

const SIGNATURE_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

/** How far webhook-timestamp may be from this server's clock, either way. */
const TOLERANCE_SECONDS = 5 * 60;

/** Request headers as a handler reads them: lower-case names. */
export type DeliveryHeaders = Readonly<Record<string, string | string[] | undefined>>;

export class SignatureVerifier {
  private readonly keys: readonly Uint8Array[];

  /** One secret, or several while it is rotated: a delivery signed with any of them passes. */
  constructor(secrets: string | readonly string[]) {
    const list = typeof secrets === "string" ? [secrets] : secrets;
    if (list.length === 0)
      throw new ConfigurationError("createWebhookHandler: secret is an empty list; give at least one secret");
    this.keys = list.map((secret, index) => keyOrThrow(secret, list.length > 1 ? `secret[${index}]` : "secret"));
  }

  /** Rejects with a WebhookError (401) unless one of the secrets signed this body with these headers. */
  async verifyOrThrow(body: string, headers: DeliveryHeaders, nowMs = Date.now()): Promise<void> {
    const signed: Record<string, string> = {};
    const missing: string[] = [];
    for (const name of SIGNATURE_HEADERS) {
      const value = headers[name];
      if (typeof value === "string" && value !== "") signed[name] = value;
      else missing.push(name);
    }
    if (missing.length > 0) {
      throw new WebhookError(
        "WEBHOOK_SIGNATURE_MISSING",
        `Webhook delivery refused: header ${missing.join(", ")} missing (a secret is configured, so every delivery must be signed)`,
        401,
      );
    }
    const {
      "webhook-id": id,
      "webhook-timestamp": timestamp,
      "webhook-signature": signature,
    } = signed as Record<(typeof SIGNATURE_HEADERS)[number], string>;
    const seconds = /^\d{1,15}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
    if (!(Math.abs(nowMs / 1000 - seconds) <= TOLERANCE_SECONDS)) throw staleTimestamp();
    const given = signature
      .split(" ")
      .filter((entry) => entry.startsWith("v1,"))
      .flatMap((entry) => bytesOfBase64(entry.slice(3)) ?? []);
    for (const key of this.keys) {
      const expected = await hmacSha256(key, `${id}.${timestamp}.${body}`);
      if (given.some((candidate) => timingSafeEqualBytes(candidate, expected))) return;
    }
    throw new WebhookError(
      "WEBHOOK_SIGNATURE_INVALID",
      "Webhook delivery refused: webhook-signature does not match the body for the configured secret",
      401,
    );
  }
}

function keyOrThrow(secret: unknown, name: string): Uint8Array {
  const problem = webhookSecretProblem(secret);
  // Never the secret in the message: the problem names what is wrong with it, not its value.
  if (problem !== undefined) throw new ConfigurationError(`createWebhookHandler: ${name} ${problem}`);
  return keyBytesOf(secret as string) as Uint8Array;
}

/** The HMAC key of a `whsec_` secret: the base64 after the prefix (standard alphabet, padding optional); undefined when it is not base64. */
function keyBytesOf(secret: string): Uint8Array | undefined {
  const encoded = secret.slice("whsec_".length);
  return /^[A-Za-z0-9+/]*={0,2}$/.test(encoded) && encoded.length > 0 ? bytesOfBase64(encoded) : undefined;
}

/** The key bytes a webhook secret must have, as createRedirectState asks of its secret (redirect-state.ts). */
const MIN_SECRET_BYTES = 32;

/**
 * Of those, the bytes HMAC uses must be at least this many: 32 random bytes
 * end in a zero byte one time in 256 (`openssl rand` gives such keys), which
 * HMAC does not use, yet 31 random bytes are as good a key; a key whose
 * used bytes are fewer than 24 was not made at random.
 */
const MIN_USED_BYTES = 24;

/** HMAC-SHA256 pads a key up to this many bytes with zeros, and hashes a longer one. */
const HMAC_BLOCK_BYTES = 64;

const MAKE_ONE =
  `Make one with \`echo whsec_$(openssl rand -base64 ${MIN_SECRET_BYTES})\`` +
  ` or \`node -e 'console.log("whsec_" + require("node:crypto").randomBytes(${MIN_SECRET_BYTES}).toString("base64"))'\`, and configure the same secret where deliveries are signed`;

/**
 * What is wrong with a Standard Webhooks secret (`whsec_` + base64 of the
 * HMAC key), as the rest of a sentence that names it; undefined when it is
 * fit. The key must have at least 32 bytes, and HMAC-SHA256 must use at
 * least 24 of them: zero bytes at the end of a key of up to 64 bytes change
 * nothing (HMAC pads the key with zeros), so `whsec_AA==` is the empty key,
 * which anyone can sign with. The runtime's handler and the emulator both
 * refuse by this rule.
 */
export function webhookSecretProblem(secret: unknown): string | undefined {
  const shape = `must be a Standard Webhooks secret, "whsec_" followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes`;
  if (typeof secret !== "string" || !secret.startsWith("whsec_")) return `${shape}. ${MAKE_ONE}`;
  const key = keyBytesOf(secret);
  // The message never quotes the decoding failure: it would show part of the secret.
  if (!key) return `${shape}; this one is not base64. ${MAKE_ONE}`;
  let used = key.length;
  if (used <= HMAC_BLOCK_BYTES) while (used > 0 && key[used - 1] === 0) used--;
  if (key.length >= MIN_SECRET_BYTES && used >= MIN_USED_BYTES) return undefined;
  const why =
    used === key.length
      ? `${key.length} byte(s)`
      : `${key.length} byte(s), of which HMAC uses ${used} (zero bytes at the end of a key change nothing)`;
  return `${shape}; this one decodes to ${why}. ${MAKE_ONE}`;
}

function staleTimestamp(): WebhookError {
  return new WebhookError(
    "WEBHOOK_TIMESTAMP_INVALID",
    "Webhook delivery refused: webhook-timestamp is not within 5 minutes of this server's clock (a replayed or stale delivery, or a clock out of sync)",
    401,
  );
}
