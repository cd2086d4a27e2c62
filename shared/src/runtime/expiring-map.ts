export interface ExpiringEntry<T> {
  value: T;
  expiresAt: number;
}

/**
 * A map of bounded size whose entries live `ttlMs` (times are the caller's clock, in ms); past the
 * size, the oldest entry goes. The caches of principals, quotas and concurrency limits use it.
 */
export class ExpiringMap<T> {
  private readonly entries = new Map<string, ExpiringEntry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string, now: number): ExpiringEntry<T> | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, value: T, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first entry is the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
