/**
 * Redis unreachable, said once: the first failure of an outage reaches the
 * caller's onError (or one line on console), the next ones do not, until
 * Redis has answered again.
 */
import { FlowsmithError } from "@flowsmith/runtime";

export class RedisUnavailableError extends FlowsmithError {
  override readonly name = "RedisUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("REDIS_UNAVAILABLE", message, options);
  }
}

export class Outage {
  private down = false;

  constructor(
    /** What fails and what follows from it, as the message says it: "the token store: ...". */
    private readonly what: string,
    private readonly consequence: string,
    private readonly report: (error: RedisUnavailableError) => void | Promise<void>,
  ) {}

  /** A failure: the error for it, reported when it is the first of an outage. */
  failed(cause: unknown): RedisUnavailableError {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const error = new RedisUnavailableError(`${this.what}: Redis is unreachable (${detail}); ${this.consequence}`, { cause });
    if (!this.down) {
      this.down = true;
      void Promise.resolve()
        .then(() => this.report(error))
        .catch((failure: unknown) => {
          console.error(`flowsmith redis: onError threw: ${failure instanceof Error ? failure.message : String(failure)}`);
        });
    }
    return error;
  }

  /** Redis answered: the next failure is a new outage. */
  succeeded(): void {
    this.down = false;
  }
}
