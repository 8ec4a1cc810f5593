/**
 * What the package reports, each with a stable code, so that an onError can
 * tell "Redis is away" from "Redis refused to store" from "Redis is set up
 * to lose deliveries". No message ever quotes a URL or a password.
 */
import { FlowsmithError } from "@flowsmith/runtime";

/** Redis could not be reached, or did not answer in time. */
export class RedisUnavailableError extends FlowsmithError {
  override readonly name = "RedisUnavailableError";
  override readonly code = "REDIS_UNAVAILABLE";
  constructor(message: string, options?: { cause?: unknown }) {
    super("REDIS_UNAVAILABLE", message, options);
  }
}

/** Why Redis did not keep or give what the queue or token store asked: the codes of RedisStorageError. */
export type RedisStorageCode =
  /** Redis refused a write: maxmemory reached (under noeviction, Redis refuses rather than evicts). */
  | "REDIS_OUT_OF_MEMORY"
  /** A key the queue needs is gone: evicted, expired while its worker was frozen or cut off, or deleted by hand. */
  | "REDIS_KEY_MISSING"
  /** Redis answered a command with another error (a read-only replica, an ACL that refuses it). */
  | "REDIS_COMMAND_REFUSED";

/** Redis answered, but did not store or keep what the package needs. */
export class RedisStorageError extends FlowsmithError {
  override readonly name = "RedisStorageError";
  constructor(
    override readonly code: RedisStorageCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** What the queue found in Redis's setup when it connected: the codes of RedisSetupError. */
export type RedisSetupCode =
  /** maxmemory-policy is not noeviction: Redis may evict the queue's keys. */
  | "REDIS_EVICTION_POLICY"
  /** Neither AOF nor RDB snapshots: a Redis restart loses everything the queue holds. */
  | "REDIS_NOT_PERSISTENT"
  /** Redis restarted (a new run_id) without AOF: what it held since its last snapshot, or all of it, is gone. */
  | "REDIS_RESTARTED";

/** How Redis is set up, as the webhook queue reads it each time it connects. */
export class RedisSetupError extends FlowsmithError {
  override readonly name = "RedisSetupError";
  constructor(
    override readonly code: RedisSetupCode,
    message: string,
    /** true: the queue takes no delivery (503) and starts no worker until it is fixed; false: said once, the queue works. */
    readonly refused: boolean,
  ) {
    super(code, message);
  }
}

/** Any error the package reports about Redis itself (not about a delivery's callback). */
export type RedisFailure = RedisUnavailableError | RedisStorageError;
