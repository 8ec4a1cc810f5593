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
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { sleep, type Operation } from "./abort.js";
import type { Clock } from "./clock.js";
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

export class SharedTokens {
  private readonly tokenKey: string;
  private readonly leaseKey: string;
  private readonly sealKey: Buffer;
  private readonly leaseMs: number;
  /** The last token the API refused here: read back from the store, it is deleted there instead of used. */
  private refused: string | undefined;

  constructor(
    private readonly store: TokenStore,
    owner: TokenOwner,
    private readonly clock: Clock,
    /** Fires when the client is closed: waiting stops then. */
    private readonly closing: AbortSignal,
  ) {
    // Hashed: one short key of safe characters whatever the client id and URL hold.
    const id = createHash("sha256").update(JSON.stringify([owner.tokenUrl, owner.environment, owner.clientId])).digest("base64url").slice(0, 32);
    this.tokenKey = `token:${id}`;
    this.leaseKey = `token-lease:${id}`;
    this.leaseMs = store.leaseMs ?? DEFAULT_LEASE_MS;
    this.sealKey = Buffer.from(hkdfSync("sha256", owner.clientSecret, id, "flowsmith token store", 32));
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
    const stored = await this.read();
    if (stored) return stored;
    const holder = randomUUID();
    if (!(await this.ask(() => this.store.setIfAbsent(this.leaseKey, holder, this.leaseMs)))) return "held";
    try {
      // The holder before this one may have stored its token and let go between the read and the lease.
      const raced = await this.read();
      if (raced) return raced;
      const token = await this.fetched(fetch);
      // Not stored (the store failed meanwhile): this process still has its token; the others fetch their own.
      await this.ask(() => this.store.set(this.tokenKey, this.seal(token), Math.max(1, token.renewAt - this.clock.now()))).catch(() => undefined);
      return token;
    } finally {
      await this.ask(() => this.store.deleteIf(this.leaseKey, holder)).catch(() => undefined);
    }
  }

  private async fetched(fetch: () => Promise<HeldToken>): Promise<HeldToken> {
    const token = await fetch();
    this.refused = undefined;
    return token;
  }

  /** The stored token while it is valid; a refused one is deleted (compare-and-delete) and not returned. */
  private async read(): Promise<HeldToken | undefined> {
    const sealed = await this.ask(() => this.store.get(this.tokenKey));
    if (sealed === undefined) return undefined;
    const token = this.open(sealed);
    if (token !== undefined && token.value === this.refused) {
      await this.ask(() => this.store.deleteIf(this.tokenKey, sealed));
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

  private seal(token: HeldToken): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.sealKey, iv);
    const text = Buffer.concat([cipher.update(JSON.stringify([token.value, token.renewAt]), "utf8"), cipher.final()]);
    return `${SEALED_PREFIX}${Buffer.concat([iv, text, cipher.getAuthTag()]).toString("base64url")}`;
  }

  /** The token inside `sealed`, or undefined when it is not one this client sealed. */
  private open(sealed: string): HeldToken | undefined {
    if (!sealed.startsWith(SEALED_PREFIX)) return undefined;
    const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64url");
    if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.sealKey, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      const [value, renewAt] = JSON.parse(text) as unknown[];
      return typeof value === "string" && typeof renewAt === "number" ? { value, renewAt } : undefined;
    } catch {
      return undefined;
    }
  }
}
