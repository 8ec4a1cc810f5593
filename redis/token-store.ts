/**
 * createRedisTokenStore: the runtime's TokenStore (`createClient({ tokenStore })`)
 * on Redis, so every process of a fleet shares one access token and one
 * token request (docs/many-instances.md). The runtime does the rest (the
 * lease, the waiting, a 401 invalidating once, sealing each token so Redis
 * never holds one in the clear); here each operation is one Redis command:
 * GET, SET PX, SET NX PX (the lease), and a compare-and-delete Lua script.
 *
 * Redis unreachable: each operation fails at once (or after
 * commandTimeoutMs), the client then fetches its own token as a process on
 * its own does, and onError hears of it once per outage. The connection
 * comes back by itself.
 */
import { ConfigurationError, type TokenStore } from "@flowsmith/runtime";
import { closeConnection, isDisconnected, openConnection, redisTargetOrThrow, type RedisTarget } from "./connection.js";
import { Outage } from "./outage.js";

export interface RedisTokenStoreOptions {
  /** A `redis://` or `rediss://` URL (the store opens its connection, and close() ends it), or your ioredis client (left open). */
  readonly redis: RedisTarget;
  /** Put before every key. Default "flowsmith:". */
  readonly keyPrefix?: string;
  /**
   * Redis failing: called once per outage and kind, with a
   * RedisUnavailableError (REDIS_UNAVAILABLE: unreachable, or no answer
   * within commandTimeoutMs) or a RedisStorageError (REDIS_OUT_OF_MEMORY,
   * REDIS_COMMAND_REFUSED); clients fetch their own tokens meanwhile.
   * Default: one line on console.warn.
   */
  readonly onError?: (error: unknown) => void | Promise<void>;
  /** A command not answered within this is taken as failed. Default 1000. */
  readonly commandTimeoutMs?: number;
  /** How long the process fetching a token holds the lease: a process that crashed meanwhile keeps the others waiting at most this long. Default 10000. */
  readonly leaseMs?: number;
}

export interface RedisTokenStore extends TokenStore {
  /** Closes the connection the store opened from a URL; a client you passed stays open. */
  close(): Promise<void>;
}

/** createRedisTokenStore's defaults, by option name. */
export const REDIS_TOKEN_STORE_DEFAULTS = {
  /** `keyPrefix`. */
  keyPrefix: "flowsmith:",
  /** `commandTimeoutMs`. */
  commandTimeoutMs: 1_000,
  /** `leaseMs`. */
  leaseMs: 10_000,
} as const;

/** Deletes KEYS[1] only while it holds ARGV[1]: atomic in Redis, so a value replaced meanwhile is never deleted. */
const COMPARE_AND_DELETE = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;

export function createRedisTokenStore(options: RedisTokenStoreOptions): RedisTokenStore {
  const resolved = resolveOrThrow(options);
  const fallback = "each process fetches its own access token until it is back";
  const outage = new Outage(
    "flowsmith token store",
    {
      REDIS_UNAVAILABLE: fallback,
      REDIS_OUT_OF_MEMORY: fallback,
      REDIS_KEY_MISSING: fallback,
      REDIS_COMMAND_REFUSED: fallback,
    },
    (error) => {
      void Promise.resolve()
        .then(() => resolved.onError(error))
        .catch((failure: unknown) => {
          console.error(
            `flowsmith token store: onError threw: ${failure instanceof Error ? failure.message : String(failure)}`,
          );
        });
    },
  );
  const owned = "url" in resolved.target;
  const redis =
    "url" in resolved.target
      ? openConnection(resolved.target.url, { maxRetriesPerRequest: 1 })
      : resolved.target.client;
  if (owned) {
    // An 'error' event without a listener would end the process; the outage is reported once through onError instead.
    redis.on("error", (error: unknown) => void outage.failed(error));
    redis.on("ready", () => {
      outage.succeeded();
    });
  }
  const key = (name: string): string => `${resolved.keyPrefix}${name}`;

  /** One command: refused at once while the connection is down, bounded by commandTimeoutMs, its failure reported. */
  const command = async <T>(send: () => Promise<T>): Promise<T> => {
    if (isDisconnected(redis)) throw outage.failed(new Error(`the connection is ${redis.status}`));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`no answer within ${resolved.commandTimeoutMs} ms`));
      }, resolved.commandTimeoutMs);
    });
    try {
      const result = await Promise.race([send(), timeout]);
      outage.succeeded();
      return result;
    } catch (error) {
      throw outage.failed(error);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    leaseMs: resolved.leaseMs,
    get: async (name) => (await command(() => redis.get(key(name)))) ?? undefined,
    set: async (name, value, ttlMs) => {
      await command(() => redis.set(key(name), value, "PX", Math.max(1, Math.ceil(ttlMs))));
    },
    setIfAbsent: async (name, value, ttlMs) =>
      (await command(() => redis.set(key(name), value, "PX", Math.max(1, Math.ceil(ttlMs)), "NX"))) === "OK",
    deleteIf: async (name, value) => {
      await command(() => redis.eval(COMPARE_AND_DELETE, 1, key(name), value));
    },
    close: async () => {
      if (owned) await closeConnection(redis);
    },
  };
}

interface ResolvedOptions {
  readonly target: ReturnType<typeof redisTargetOrThrow>;
  readonly keyPrefix: string;
  readonly onError: (error: unknown) => void | Promise<void>;
  readonly commandTimeoutMs: number;
  readonly leaseMs: number;
}

function resolveOrThrow(given: RedisTokenStoreOptions | undefined): ResolvedOptions {
  const options: Partial<RedisTokenStoreOptions> = given ?? {};
  const where = "createRedisTokenStore";
  const D = REDIS_TOKEN_STORE_DEFAULTS;
  const { keyPrefix = D.keyPrefix, onError, commandTimeoutMs = D.commandTimeoutMs, leaseMs = D.leaseMs } = options;
  if (typeof keyPrefix !== "string") throw new ConfigurationError(`${where}: keyPrefix must be a string`);
  if (onError !== undefined && typeof onError !== "function")
    throw new ConfigurationError(`${where}: onError must be a function`);
  for (const [name, value] of [
    ["commandTimeoutMs", commandTimeoutMs],
    ["leaseMs", leaseMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new ConfigurationError(`${where}: ${name} must be a positive integer, got ${String(value)}`);
  }
  return {
    target: redisTargetOrThrow(options.redis, `${where}: redis`),
    keyPrefix,
    onError:
      onError ??
      ((error: unknown) => {
        console.warn(error instanceof Error ? error.message : String(error));
      }),
    commandTimeoutMs,
    leaseMs,
  };
}
