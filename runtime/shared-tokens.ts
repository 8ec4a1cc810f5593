/**
 * One access token for every process that shares a token store
 * (token-store.ts; docs/many-instances.md). TokenCache (auth.ts) keeps the
 * process's local copy and its own single flight, and asks this class only
 * when it has no valid token:
 *
 * 1. a valid token in the store is used (no token request);
 * 2. else the process that takes the lease (`setIfAbsent`, expiring after
 *    the store's leaseMs, so a holder that crashed blocks nobody for longer) fetches
 *    the token and stores it until its renewal time; the others wait for it,
 *    reading the store, and never wait longer than the lease lasts;
 * 3. a token the API refused (401) is deleted from the store by the first
 *    process that reads it back, only while it is still that token
 *    (`deleteIf`), so one 401 invalidates it once for the fleet and never
 *    deletes its successor.
 *
 * A store that fails (a rejection, a throw) is passed over: the process
 * fetches on its own, as it would without a shared store. Saying so is the
 * store's job (`@flowsmith/redis` reports through its onError).
 */
import { sleep, type Operation } from "./abort.js";
import { base64UrlOf, bytesOfBase64, concatBytes, utf8Bytes, utf8Text } from "./bytes.js";
import type { Clock } from "./clock.js";
import { aesGcmOpen, aesGcmSeal, aesKeyOf, randomBytes, randomId, sha256, type CryptoKeyOf } from "./crypto.js";
import type { TokenStore } from "./token-store.js";

/** A token as a process holds it. */
export interface HeldToken {
  readonly value: string;
  /** The clock's now() from which the token is renewed instead of used (its expiry less the skew). */
  readonly renewAt: number;
}

/** What names an API client's token: tokens are shared by exactly these three. */
export interface TokenOwner {
  readonly tokenUrl: string;
  readonly environment: string;
  readonly clientId: string;
  /** Seals tokens; never part of a key. */
  readonly clientSecret: string;
}

/** How long the process that fetches holds the lease, unless the store says otherwise (TokenStore.leaseMs). */
const DEFAULT_LEASE_MS = 10_000;
/** Waiters read the store again after this, doubling up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 20;
const MAX_PAUSE_MS = 250;
const SEALED_PREFIX = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The store failed: the caller then fetches on its own. */
class StoreFailure extends Error {}

/** The store's keys for one API client, and the key its tokens are sealed with. */
interface StoreKeys {
  readonly tokenKey: string;
  readonly leaseKey: string;
  readonly sealKey: CryptoKeyOf;
}

export class SharedTokens {
  /** Made on first use: Web Crypto derives keys asynchronously. */
  private keys: Promise<StoreKeys> | undefined;
  private readonly leaseMs: number;
  /** The last token the API refused here: read back from the store, it is deleted there instead of used. */
  private refused: string | undefined;

  constructor(
    private readonly store: TokenStore,
    private readonly owner: TokenOwner,
    private readonly clock: Clock,
    /** Fires when the client is closed: waiting stops then. */
    private readonly closing: AbortSignal,
  ) {
    this.leaseMs = store.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** The same keys in every process of the fleet, and on every platform, for the same API client. */
  private storeKeys(): Promise<StoreKeys> {
    this.keys ??= (async () => {
      const { tokenUrl, environment, clientId, clientSecret } = this.owner;
      // Hashed: one short key of safe characters whatever the client id and URL hold.
      const id = base64UrlOf(await sha256(JSON.stringify([tokenUrl, environment, clientId]))).slice(0, 32);
      return {
        tokenKey: `token:${id}`,
        leaseKey: `token-lease:${id}`,
        sealKey: await aesKeyOf(clientSecret, id, "flowsmith token store"),
      };
    })();
    return this.keys;
  }

  /** A valid token: the store's, or one fetched by `fetch` here under the lease, or the lease holder's once stored. */
  async obtain(fetch: () => Promise<HeldToken>, operation: Operation): Promise<HeldToken> {
    const giveUpAt = this.clock.now() + this.leaseMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
      let found: HeldToken | "held";
      try {
        found = await this.storedOrFetched(fetch);
      } catch (error) {
        if (error instanceof StoreFailure) return this.fetched(fetch);
        throw error;
      }
      if (found !== "held") return found;
      // Another process is fetching; past the lease it has failed or crashed, and this one stops waiting for it.
      if (this.clock.now() >= giveUpAt) return this.fetched(fetch);
      await sleep(this.clock, pause, { caller: undefined, closing: this.closing }, operation);
    }
  }

  /** The API refused `token` (401): the fleet's copy goes the next time it is read, unless a newer one replaced it. */
  invalidate(token: string): void {
    this.refused = token;
  }

  /** The stored token, or one fetched under the lease, or "held" when another process holds the lease. */
  private async storedOrFetched(fetch: () => Promise<HeldToken>): Promise<HeldToken | "held"> {
    const keys = await this.storeKeys();
    const stored = await this.read(keys);
    if (stored) return stored;
    const holder = randomId();
    if (!(await this.ask(() => this.store.setIfAbsent(keys.leaseKey, holder, this.leaseMs)))) return "held";
    try {
      // The holder before this one may have stored its token and let go between the read and the lease.
      const raced = await this.read(keys);
      if (raced) return raced;
      const token = await this.fetched(fetch);
      // Not stored (the store failed meanwhile): this process still has its token; the others fetch their own.
      const sealed = await seal(keys.sealKey, token);
      await this.ask(() => this.store.set(keys.tokenKey, sealed, Math.max(1, token.renewAt - this.clock.now()))).catch(
        () => undefined,
      );
      return token;
    } finally {
      await this.ask(() => this.store.deleteIf(keys.leaseKey, holder)).catch(() => undefined);
    }
  }

  private async fetched(fetch: () => Promise<HeldToken>): Promise<HeldToken> {
    const token = await fetch();
    this.refused = undefined;
    return token;
  }

  /** The stored token while it is valid; a refused one is deleted (compare-and-delete) and not returned. */
  private async read(keys: StoreKeys): Promise<HeldToken | undefined> {
    const sealed = await this.ask(() => this.store.get(keys.tokenKey));
    if (sealed === undefined) return undefined;
    const token = await open(keys.sealKey, sealed);
    if (token !== undefined && token.value === this.refused) {
      await this.ask(() => this.store.deleteIf(keys.tokenKey, sealed));
      return undefined;
    }
    // Expired, or sealed under another secret (rotated): as good as none, and replaced by the next holder.
    return token && token.renewAt > this.clock.now() ? token : undefined;
  }

  /** A store call; whatever it throws or rejects with becomes a StoreFailure. */
  private async ask<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new StoreFailure("token store failed", { cause: error });
    }
  }
}

async function seal(key: CryptoKeyOf, token: HeldToken): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const text = await aesGcmSeal(key, iv, utf8Bytes(JSON.stringify([token.value, token.renewAt])));
  return `${SEALED_PREFIX}${base64UrlOf(concatBytes([iv, text]))}`;
}

/** The token inside `sealed`, or undefined when it is not one this client sealed. */
async function open(key: CryptoKeyOf, sealed: string): Promise<HeldToken | undefined> {
  if (!sealed.startsWith(SEALED_PREFIX)) return undefined;
  const bytes = bytesOfBase64(sealed.slice(SEALED_PREFIX.length));
  if (!bytes || bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const text = utf8Text(await aesGcmOpen(key, bytes.subarray(0, IV_BYTES), bytes.subarray(IV_BYTES)));
    const [value, renewAt] = JSON.parse(text) as unknown[];
    return typeof value === "string" && typeof renewAt === "number" ? { value, renewAt } : undefined;
  } catch {
    return undefined;
  }
}
