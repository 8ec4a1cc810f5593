/**
 * The token store seam (docs/many-instances.md): where a client keeps its
 * access token so that every process sharing the store shares one token and
 * one token request. A store is four operations on short string values with
 * an expiry, the least a shared store (Redis, `@flowsmith/redis`) and the
 * in-memory default can both do exactly. What the runtime builds on them
 * (the lease, the waiting, the local copy, a 401 invalidating once) is in
 * shared-tokens.ts, so every store behaves the same.
 *
 * A store never sees a token: the runtime seals each one (AES-256-GCM, under
 * a key derived from the client secret) before it hands it over.
 */

export interface TokenStore {
  /** The value stored under `key`, or undefined when there is none (or it expired). */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs`, replacing what was there. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Stores `value` for `ttlMs` only if `key` holds nothing: true when it did (Redis `SET NX PX`). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes `key` only while it still holds `value` (compare-and-delete, atomically). */
  deleteIf(key: string, value: string): Promise<void>;
  /**
   * How long the process fetching a token holds the lease: a holder that
   * crashed keeps the others waiting at most this long, and a token request
   * slower than this may be joined by a second one. Default 10000.
   */
  readonly leaseMs?: number;
}

/**
 * A store in this process's memory: createClient's default, so a client on
 * its own keeps its token as it always has. Give one store to several clients
 * of the same API client in a process and they share a token. Entries go when
 * they expire (by the system clock); there are two per API client.
 */
export function createMemoryTokenStore(): TokenStore {
  const entries = new Map<string, { readonly value: string; readonly expiresAt: number }>();
  const live = (key: string): string | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    entries.delete(key);
    return undefined;
  };
  return {
    get: (key) => Promise.resolve(live(key)),
    set: (key, value, ttlMs) => {
      entries.set(key, { value, expiresAt: Date.now() + ttlMs });
      return Promise.resolve();
    },
    setIfAbsent: (key, value, ttlMs) => {
      if (live(key) !== undefined) return Promise.resolve(false);
      entries.set(key, { value, expiresAt: Date.now() + ttlMs });
      return Promise.resolve(true);
    },
    deleteIf: (key, value) => {
      if (live(key) === value) entries.delete(key);
      return Promise.resolve();
    },
  };
}

/** A JavaScript caller's tokenStore, checked at createClient: undefined when it is a store, else what is wrong. */
export function tokenStoreProblem(store: unknown): string | undefined {
  if (typeof store !== "object" || store === null) return "is not an object";
  const missing = (["get", "set", "setIfAbsent", "deleteIf"] as const).filter(
    (name) => typeof (store as Record<string, unknown>)[name] !== "function",
  );
  if (missing.length > 0) return `has no ${missing.join(", ")} method`;
  const { leaseMs } = store as { leaseMs?: unknown };
  if (leaseMs !== undefined && !(typeof leaseMs === "number" && Number.isFinite(leaseMs) && leaseMs > 0))
    return "has a leaseMs that is not a positive number";
  return undefined;
}
