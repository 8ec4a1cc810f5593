/**
 * A set of recently seen ids, bounded twice: each id is forgotten after
 * `ttlMs`, and beyond `maxEntries` the oldest go first. The webhook handler
 * keeps delivery ids in it, so memory stays flat whatever the sender does.
 */
export class ExpiringSet {
  // Insertion order is expiry order (one ttl for all), so the oldest entries sit at the front.
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.expiries.size;
  }

  has(id: string): boolean {
    const expiresAt = this.expiries.get(id);
    return expiresAt !== undefined && expiresAt > this.now();
  }

  add(id: string): void {
    const now = this.now();
    this.expiries.delete(id);
    for (const [oldest, expiresAt] of this.expiries) {
      if (expiresAt > now && this.expiries.size < this.maxEntries) break;
      this.expiries.delete(oldest);
    }
    this.expiries.set(id, now + this.ttlMs);
  }
}
