import type { Principal, QuotaSnapshot } from './principal.js';

interface Entry {
  principal: Principal | null;
  expiresAt: number;
}

/**
 * Key hash to principal (or null for an unknown key) for a short time, so each request does not
 * ask accounts. The time bounds how long a revoked key keeps working on this instance.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(keyHash: string, now = Date.now()): Principal | null | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.principal;
  }

  set(keyHash: string, principal: Principal | null, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first entry is the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(keyHash);
    this.entries.set(keyHash, { principal, expiresAt: now + this.ttlMs });
  }

  /** Keeps the cached quota figures current after a charge, without extending the entry's life. */
  updateQuota(keyHash: string, quota: QuotaSnapshot): void {
    const entry = this.entries.get(keyHash);
    if (entry?.principal) entry.principal = { ...entry.principal, quota };
  }
}
