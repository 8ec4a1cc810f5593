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
  if (typeof secret !== "string" || secret.trim() === "") {
    throw new ConfigurationError(`createWebhookHandler: ${name} must be a non-empty string (a whsec_... secret)`);
  }
  try {
    return new Webhook(secret);
  } catch {
    // The library's message may quote the decoding failure; never the secret, but keep ours fixed anyway.
    throw new ConfigurationError(`createWebhookHandler: ${name} is not a Standard Webhooks secret: expected "whsec_" followed by base64`);
  }
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
