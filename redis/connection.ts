/**
 * What both of the package's parts take for Redis: a `redis://` (or
 * `rediss://`) URL, from which they open their own connections (and close
 * them in close()), or an ioredis client the caller made and keeps (never
 * closed here). A URL can hold a password, so no message ever quotes one.
 */
import { Redis } from "ioredis";
import { ConfigurationError } from "@flowsmith/runtime";

/** A redis:// or rediss:// URL, or an ioredis client. */
export type RedisTarget = string | Redis;

export type CheckedTarget = { readonly url: string } | { readonly client: Redis };

/** The longest wait between two attempts to reconnect. */
export const MAX_RECONNECT_DELAY_MS = 2_000;

/** Reconnects after 0.2 s, 0.4 s, ... and then every 2 s, however long Redis is gone: it recovers by itself. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS);
}

/** close() of a connection that is down waits this long for its socket (ioredis's default is 2 s of a timer that keeps the process alive). */
export const DISCONNECT_TIMEOUT_MS = 100;

/** A connection the package opens from a URL: it refuses commands while down, and reconnects by itself. */
export function openConnection(
  url: string,
  options: { readonly maxRetriesPerRequest?: number; readonly enableOfflineQueue?: boolean },
): Redis {
  return new Redis(url, { ...options, retryStrategy: reconnectDelayMs, disconnectTimeout: DISCONNECT_TIMEOUT_MS });
}

/** Ends a connection the package opened: QUIT lets commands under way finish; one that is down has nothing to finish. */
export async function closeConnection(redis: Redis): Promise<void> {
  if (redis.status === "end") return;
  if (
    redis.status === "ready" &&
    (await redis.quit().then(
      () => true,
      () => false,
    ))
  )
    return;
  redis.disconnect();
}

export function redisTargetOrThrow(target: unknown, where: string): CheckedTarget {
  if (typeof target === "string") {
    let protocol: string | undefined;
    try {
      protocol = new URL(target).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== "redis:" && protocol !== "rediss:") {
      throw new ConfigurationError(
        `${where} must be a redis:// or rediss:// URL (redis://[:password@]host[:port][/db]) or an ioredis client`,
      );
    }
    return { url: target };
  }
  if (isRedisClient(target)) return { client: target };
  throw new ConfigurationError(
    `${where} must be a redis:// or rediss:// URL or an ioredis client (new Redis(...)), got ${describe(target)}`,
  );
}

function isRedisClient(value: unknown): value is Redis {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.get === "function" &&
    typeof candidate.duplicate === "function" &&
    typeof candidate.status === "string"
  );
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object that is not an ioredis client" : `a ${typeof value}`;
}

/** A client whose connection is down (and being retried): commands sent now would only wait. */
export function isDisconnected(client: Redis): boolean {
  return client.status === "reconnecting" || client.status === "close" || client.status === "end";
}
