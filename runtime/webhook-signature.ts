/**
 * Standard Webhooks signatures (webhook-id, webhook-timestamp,
 * webhook-signature), checked by the `standardwebhooks` package: HMAC-SHA256
 * over `id.timestamp.body`, compared in constant time, with a timestamp
 * tolerance of 5 minutes against replays.
 */
import type { IncomingHttpHeaders } from "node:http";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { ConfigurationError } from "./errors.js";
import { WebhookError } from "./webhook-errors.js";

const SIGNATURE_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

export class SignatureVerifier {
  private readonly keys: readonly Webhook[];

  /** One secret, or several while it is rotated: a delivery signed with any of them passes. */
  constructor(secrets: string | readonly string[]) {
    const list = typeof secrets === "string" ? [secrets] : secrets;
    if (list.length === 0) throw new ConfigurationError("createWebhookHandler: secret is an empty list; give at least one secret or leave it out");
    this.keys = list.map((secret, index) => keyOrThrow(secret, list.length > 1 ? `secret[${index}]` : "secret"));
  }

  /** Throws a WebhookError (401) unless one of the secrets signed this body with these headers. */
  verifyOrThrow(body: string, headers: IncomingHttpHeaders): void {
    const signed: Record<string, string> = {};
    const missing: string[] = [];
    for (const name of SIGNATURE_HEADERS) {
      const value = headers[name];
      if (typeof value === "string" && value !== "") signed[name] = value;
      else missing.push(name);
    }
    if (missing.length > 0) {
      throw new WebhookError("WEBHOOK_SIGNATURE_MISSING", `Webhook delivery refused: header ${missing.join(", ")} missing (a secret is configured, so every delivery must be signed)`, 401);
    }
    let failure: unknown;
    for (const key of this.keys) {
      try {
        key.verify(body, signed, { jsonParse: false });
        return;
      } catch (error) {
        failure = error;
      }
    }
    throw refusal(failure);
  }
}

function keyOrThrow(secret: unknown, name: string): Webhook {
  const problem = webhookSecretProblem(secret);
  // Never the secret in the message: the problem names what is wrong with it, not its value.
  if (problem !== undefined) throw new ConfigurationError(`createWebhookHandler: ${name} ${problem}`);
  return new Webhook(secret as string);
}

/** The key bytes a webhook secret must have, as createRedirectState asks of its secret (redirect-state.ts). */
const MIN_SECRET_BYTES = 32;

/** HMAC-SHA256 pads a key up to this many bytes with zeros, and hashes a longer one. */
const HMAC_BLOCK_BYTES = 64;

const MAKE_ONE =
  `Make one with \`node -e 'console.log("whsec_" + require("node:crypto").randomBytes(${MIN_SECRET_BYTES}).toString("base64"))'\`` +
  ` or \`echo whsec_$(openssl rand -base64 ${MIN_SECRET_BYTES})\`, and configure the same secret where deliveries are signed`;

/**
 * What is wrong with a Standard Webhooks secret (`whsec_` + base64 of the
 * HMAC key), as the rest of a sentence that names it; undefined when it is
 * fit. The key must hold at least 32 bytes that HMAC-SHA256 uses: zero bytes
 * at the end of a key of up to 64 bytes change nothing (HMAC pads the key
 * with zeros), so `whsec_AA==` is the empty key, which anyone can sign with.
 * The runtime's handler and the emulator both refuse by this rule.
 */
export function webhookSecretProblem(secret: unknown): string | undefined {
  const shape = `must be a Standard Webhooks secret, "whsec_" followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes`;
  if (typeof secret !== "string" || !secret.startsWith("whsec_")) return `${shape}. ${MAKE_ONE}`;
  try {
    new Webhook(secret);
  } catch {
    // The library's message may quote the decoding failure; ours stays fixed.
    return `${shape}; this one is not base64. ${MAKE_ONE}`;
  }
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  let used = key.length;
  if (used <= HMAC_BLOCK_BYTES) while (used > 0 && key[used - 1] === 0) used--;
  if (used >= MIN_SECRET_BYTES) return undefined;
  const why = used === key.length ? `${key.length} byte(s)` : `${key.length} byte(s), of which HMAC uses ${used} (zero bytes at the end of a key change nothing)`;
  return `${shape}; this one decodes to ${why}. ${MAKE_ONE}`;
}

function refusal(failure: unknown): WebhookError {
  // The library tells the cases apart only by message; an unknown message is still a refusal.
  const detail = failure instanceof WebhookVerificationError || failure instanceof Error ? failure.message : "";
  if (/timestamp/i.test(detail) || /Invalid Signature Headers/i.test(detail)) {
    return new WebhookError(
      "WEBHOOK_TIMESTAMP_INVALID",
      "Webhook delivery refused: webhook-timestamp is not within 5 minutes of this server's clock (a replayed or stale delivery, or a clock out of sync)",
      401,
    );
  }
  return new WebhookError("WEBHOOK_SIGNATURE_INVALID", "Webhook delivery refused: webhook-signature does not match the body for the configured secret", 401);
}
