/**
 * A Redis failure said once: the first failure of its kind (unreachable, out
 * of memory, a missing key, a refused command) reaches the caller's onError,
 * the next ones of that kind do not, until Redis has answered a command
 * again. Each failure is classified by what Redis or BullMQ said, so an
 * out-of-memory reply is never reported as an unreachable server.
 */
import { RedisStorageError, RedisUnavailableError, type RedisFailure, type RedisStorageCode } from "./errors.js";

/** What follows from a failure of this kind, as the end of its message says it. */
export type Consequences = Readonly<Record<RedisFailure["code"], string>>;

export class Outage {
  private readonly down = new Set<RedisFailure["code"]>();

  constructor(
    /** Who fails, as the message starts: "flowsmith webhook queue". */
    private readonly what: string,
    private readonly consequences: Consequences,
    private readonly report: (error: RedisFailure) => void,
  ) {}

  /** A failure: the error for it, reported when it is the first of its kind since Redis last answered. */
  failed(cause: unknown): RedisFailure {
    const error = this.errorOf(cause);
    if (!this.down.has(error.code)) {
      this.down.add(error.code);
      this.report(error);
    }
    return error;
  }

  /** Redis answered: the next failure of any kind is a new one. */
  succeeded(): void {
    this.down.clear();
  }

  private errorOf(cause: unknown): RedisFailure {
    if (cause instanceof RedisUnavailableError || cause instanceof RedisStorageError) return cause;
    const detail = cause instanceof Error ? cause.message : String(cause);
    const code = storageCodeOf(cause, detail);
    if (code === undefined) {
      return new RedisUnavailableError(
        `${this.what}: Redis is unreachable (${detail}); ${this.consequences.REDIS_UNAVAILABLE}`,
        { cause },
      );
    }
    const said: Record<RedisStorageCode, string> = {
      REDIS_OUT_OF_MEMORY: "Redis refused to store (out of memory: maxmemory reached)",
      REDIS_KEY_MISSING:
        "a key the queue needs is gone (evicted, expired while a worker was frozen or cut off from Redis, or deleted)",
      REDIS_COMMAND_REFUSED: "Redis refused a command",
    };
    return new RedisStorageError(code, `${this.what}: ${said[code]} (${detail}); ${this.consequences[code]}`, {
      cause,
    });
  }
}

/**
 * Which storage failure Redis or BullMQ said, or undefined for a connection
 * that failed. Redis's own errors reach ioredis as a ReplyError whose message
 * starts with their code ("OOM command not allowed ..."); BullMQ says a job's
 * key or lock is gone in an Error of its own ("Missing key for job ...",
 * "Lock mismatch for job ...").
 */
function storageCodeOf(cause: unknown, detail: string): RedisStorageCode | undefined {
  // "Lock mismatch": the job's lock expired (its worker frozen, or cut off) and another worker holds it now.
  if (/^(Missing (key|lock) for (parent )?job|Lock mismatch for job)\b/.test(detail)) return "REDIS_KEY_MISSING";
  if (!(cause instanceof Error) || cause.name !== "ReplyError") return undefined;
  return detail.startsWith("OOM ") ? "REDIS_OUT_OF_MEMORY" : "REDIS_COMMAND_REFUSED";
}
