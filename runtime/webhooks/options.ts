/**
 * createWebhookHandler's options: what the user writes, what the handler
 * works with, and the defaults (here and only here).
 */
import type { Client } from "../client.js";
import { clientContextOrThrow } from "../client-context.js";
import { ConfigurationError } from "../errors.js";
import { isRecord } from "../json.js";
import { Redactor } from "../secrets/redaction.js";
import type { DataBlocks, SessionRecord } from "../resources.js";
import type { Decision } from "./event.js";
import type { WebhookQueue } from "./queue.js";
import { SignatureVerifier } from "./signature.js";

/** What the handler needs of a client: createClient's result fits. */
export type WebhookClient = Pick<Client, "environment" | "waitForOutcome" | "getDataBlocks">;

/** What onSessionEnded receives: all of it read from the API, none of it from the delivery's body. */
export interface SessionEnded {
  /** The session that ended. */
  readonly sessionId: string;
  /** The delivery's webhook-id (absent only with allowUnsigned, when the sender sent none). */
  readonly webhookId: string | undefined;
  /** GET session: sessionStatus, outcome, metadata (metadata.subjectId is your reference). */
  readonly session: SessionRecord;
  /** The outcome's decision; undefined when the outcome has a shape the runtime does not know (read `session.outcome`). */
  readonly decision: Decision | undefined;
  /** GET datablocks. */
  readonly dataBlocks: DataBlocks;
}

/** Which delivery an onError call is about. */
export interface WebhookDelivery {
  /** The delivery's webhook-id, when it had one. */
  readonly webhookId: string | undefined;
  /** Known once the body was parsed. */
  readonly sessionId: string | undefined;
  /** The status the delivery was answered with: 2xx means accepted and then lost, so recover it yourself. */
  readonly status: number;
}

/** What every handler takes, whoever processes its deliveries. */
interface WebhookHandlerCommon {
  /** Reads the outcome and data blocks; its environment must be the webhook's. */
  readonly client: WebhookClient;
  /** Every delivery not handled: refused ones (4xx/5xx) and accepted ones whose API read or callback failed. Default: one line on console.error. */
  readonly onError?: (error: unknown, delivery: WebhookDelivery) => void | Promise<void>;
  /** Larger bodies get 413. Default 65536. */
  readonly maxBodyBytes?: number;
  /** Delivery ids remembered to drop duplicates. Default { maxEntries: 10000, ttlMs: 86400000 }. */
  readonly dedupe?: { readonly maxEntries?: number; readonly ttlMs?: number };
  /** Deliveries processed at once; beyond it 503 (the sender retries). Default 100. */
  readonly maxInFlight?: number;
  /** How long the API may take to show the outcome the webhook announced. Default 30000. */
  readonly outcomeTimeoutMs?: number;
  /** GET session interval while waiting for it. Default 1000. */
  readonly outcomePollIntervalMs?: number;
  /** Clock of the duplicate memory, in ms. Default Date.now. */
  readonly now?: () => number;
}

/**
 * How deliveries are authenticated: a secret, or unsigned deliveries accepted
 * by name. An environment variable that is not set gives `secret: undefined`,
 * which the type refuses (and createWebhookHandler too): check it at start.
 */
type WebhookSigning =
  | {
      /** Standard Webhooks secret(s) ("whsec_" + base64 of at least 32 random bytes); several while rotating. Every delivery must be signed with one. */
      readonly secret: string | readonly string[];
      readonly allowUnsigned?: false;
    }
  | {
      readonly secret?: undefined;
      /** No secret: every delivery is taken unsigned, and anyone who can reach the handler can send one (a local setup whose sender does not sign). */
      readonly allowUnsigned: true;
    };

/** Each accepted delivery processed in this process, after the answer. */
export type WebhookHandlerOptions = WebhookHandlerCommon &
  WebhookSigning & {
    /** Called once per accepted session.ended delivery, after the answer. */
    readonly onSessionEnded: (ended: SessionEnded) => void | Promise<void>;
    /** With onSessionEnded, none: see QueuedWebhookHandlerOptions. */
    readonly queue?: undefined;
  };

/** Deliveries handed to a queue, whose workers (in any process) call their own onSessionEnded. */
export type QueuedWebhookHandlerOptions = WebhookHandlerCommon &
  WebhookSigning & {
    /** Where accepted deliveries go (`@flowsmith/redis`'s createWebhookQueue): answered 204 once it has them, 503 when it cannot take them. */
    readonly queue: WebhookQueue;
    /** The queue's workers call it, not the handler. */
    readonly onSessionEnded?: undefined;
  };

/** createWebhookHandler's defaults, by option name. */
export const WEBHOOK_DEFAULTS = {
  /** `maxBodyBytes`. */
  maxBodyBytes: 65_536,
  /** `dedupe`. */
  dedupe: {
    /** `dedupe.maxEntries`. */
    maxEntries: 10_000,
    /** `dedupe.ttlMs`: senders retry for hours. */
    ttlMs: 86_400_000,
  },
  /** `maxInFlight`. */
  maxInFlight: 100,
  /** `outcomeTimeoutMs`. */
  outcomeTimeoutMs: 30_000,
  /** `outcomePollIntervalMs`. */
  outcomePollIntervalMs: 1_000,
} as const;

export interface ResolvedWebhookOptions {
  readonly client: WebhookClient;
  /** Who processes an accepted delivery: this process, or the queue's workers. */
  readonly processor:
    { readonly onSessionEnded: WebhookHandlerOptions["onSessionEnded"] } | { readonly queue: WebhookQueue };
  /** undefined only when the caller opted out with allowUnsigned: true. */
  readonly onError: NonNullable<WebhookHandlerOptions["onError"]>;
  readonly verifier: SignatureVerifier | undefined;
  /** The client's, which knows the webhook secrets too: every error the handler reports passes through it. */
  readonly redactor: Redactor;
  readonly maxBodyBytes: number;
  readonly dedupe: { readonly maxEntries: number; readonly ttlMs: number };
  readonly maxInFlight: number;
  readonly outcomeTimeoutMs: number;
  readonly outcomePollIntervalMs: number;
  readonly now: () => number;
}

/** `given` as JavaScript callers may pass it: absent, or with any field missing or of the wrong kind. */
export function resolveWebhookOptionsOrThrow(
  given: WebhookHandlerOptions | QueuedWebhookHandlerOptions | undefined,
): ResolvedWebhookOptions {
  const options: Partial<WebhookHandlerOptions | QueuedWebhookHandlerOptions> = given ?? {};
  const { client, onSessionEnded, queue, onError } = options;
  if (
    !isRecord(client) ||
    typeof client.waitForOutcome !== "function" ||
    typeof client.getDataBlocks !== "function" ||
    typeof client.environment !== "string"
  ) {
    throw new ConfigurationError("createWebhookHandler: client must be a client from createClient()");
  }
  const processor = processorOrThrow(onSessionEnded, queue);
  if (onError !== undefined && typeof onError !== "function")
    throw new ConfigurationError("createWebhookHandler: onError must be a function");
  if (options.now !== undefined && typeof options.now !== "function")
    throw new ConfigurationError("createWebhookHandler: now must be a function");
  return {
    client,
    processor,
    onError:
      onError ??
      ((error, delivery) => {
        logWebhookError(error, delivery, "not handled");
      }),
    verifier: verifierOrThrow(options.secret, options.allowUnsigned),
    redactor: redactorKnowing(client, options.secret),
    maxBodyBytes: positiveIntegerOrThrow("maxBodyBytes", options.maxBodyBytes ?? WEBHOOK_DEFAULTS.maxBodyBytes),
    dedupe: {
      maxEntries: positiveIntegerOrThrow(
        "dedupe.maxEntries",
        options.dedupe?.maxEntries ?? WEBHOOK_DEFAULTS.dedupe.maxEntries,
      ),
      ttlMs: positiveIntegerOrThrow("dedupe.ttlMs", options.dedupe?.ttlMs ?? WEBHOOK_DEFAULTS.dedupe.ttlMs),
    },
    maxInFlight: positiveIntegerOrThrow("maxInFlight", options.maxInFlight ?? WEBHOOK_DEFAULTS.maxInFlight),
    outcomeTimeoutMs: positiveIntegerOrThrow(
      "outcomeTimeoutMs",
      options.outcomeTimeoutMs ?? WEBHOOK_DEFAULTS.outcomeTimeoutMs,
    ),
    outcomePollIntervalMs: positiveIntegerOrThrow(
      "outcomePollIntervalMs",
      options.outcomePollIntervalMs ?? WEBHOOK_DEFAULTS.outcomePollIntervalMs,
    ),
    now: options.now ?? Date.now,
  };
}

function processorOrThrow(onSessionEnded: unknown, queue: unknown): ResolvedWebhookOptions["processor"] {
  if (onSessionEnded !== undefined && queue !== undefined) {
    throw new ConfigurationError(
      "createWebhookHandler: give onSessionEnded or queue, not both (with a queue, its workers call their own onSessionEnded)",
    );
  }
  if (queue !== undefined) {
    if (!isRecord(queue) || typeof queue.enqueue !== "function")
      throw new ConfigurationError("createWebhookHandler: queue must have an enqueue(delivery) method");
    return { queue: queue as unknown as WebhookQueue };
  }
  if (typeof onSessionEnded !== "function")
    throw new ConfigurationError("createWebhookHandler: onSessionEnded must be a function (or give a queue)");
  return { onSessionEnded: onSessionEnded as WebhookHandlerOptions["onSessionEnded"] };
}

/**
 * A secret, or an opt-out by name: a `secret` left undefined (an environment
 * variable that is not set) would otherwise take every delivery unsigned
 * without a word.
 */
function verifierOrThrow(secret: unknown, allowUnsigned: unknown): SignatureVerifier | undefined {
  if (allowUnsigned !== undefined && typeof allowUnsigned !== "boolean") {
    throw new ConfigurationError("createWebhookHandler: allowUnsigned must be true or left out");
  }
  if (allowUnsigned === true) {
    if (secret !== undefined)
      throw new ConfigurationError("createWebhookHandler: give a secret or allowUnsigned: true, not both");
    return undefined;
  }
  if (secret === undefined) {
    throw new ConfigurationError(
      "createWebhookHandler: secret is missing (undefined), so deliveries could not be authenticated: give the Standard Webhooks secret " +
        "deliveries are signed with (an environment variable that is not set gives undefined: check it at start), " +
        "or allowUnsigned: true to take unsigned deliveries from anyone who can reach the handler",
    );
  }
  if (typeof secret !== "string" && !Array.isArray(secret)) {
    throw new ConfigurationError(
      "createWebhookHandler: secret must be a string, or an array of strings while it is rotated",
    );
  }
  return new SignatureVerifier(secret as string | readonly string[]);
}

function positiveIntegerOrThrow(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(`createWebhookHandler: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** The client's Redactor (a new one for a client not made by createClient), from now on also scrubbing the secrets, checked by then. */
function redactorKnowing(client: object, secret: string | readonly string[] | undefined): Redactor {
  let redactor: Redactor;
  try {
    redactor = clientContextOrThrow(client).redactor;
  } catch {
    redactor = new Redactor();
  }
  for (const each of typeof secret === "string" ? [secret] : (secret ?? [])) redactor.rememberSecret(each);
  return redactor;
}

/** The default onError, and what an onError that throws leaves: one line on console.error. */
export function logWebhookError(error: unknown, delivery: WebhookDelivery, what: string): void {
  const detail =
    error instanceof Error
      ? `${error.name}${"code" in error ? ` ${String(error.code)}` : ""}: ${error.message}`
      : String(error);
  const ids = [
    delivery.webhookId && `webhook-id ${delivery.webhookId}`,
    delivery.sessionId && `session ${delivery.sessionId}`,
  ].filter(Boolean);
  console.error(`flowsmith webhook (${[...ids, `answered ${delivery.status}`].join(", ")}): ${what}: ${detail}`);
}
