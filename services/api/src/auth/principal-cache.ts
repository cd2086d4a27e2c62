import { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import { type Principal } from '@comps/shared/internal/accounts/principal';
import { type QuotaSnapshot } from '@comps/shared/internal/accounts/quota';

/**
 * Key hash to principal (or "unknown") for a short time, so each request does not ask accounts.
 * The time bounds how long a revoked key keeps working on this instance. Known and unknown keys
 * are kept apart: a flood of made-up keys fills only its own part and never pushes a valid key out.
 */
export class PrincipalCache {
  private readonly known: ExpiringMap<Principal>;
  private readonly unknown: ExpiringMap<true>;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.known = new ExpiringMap(ttlMs, maxEntries);
    this.unknown = new ExpiringMap(ttlMs, maxEntries);
  }

  /** The principal, null for a key known to be unknown or revoked, undefined when not cached. */
  get(keyHash: string, now = Date.now()): Principal | null | undefined {
    const known = this.known.get(keyHash, now);
    if (known) return known.value;
    return this.unknown.get(keyHash, now) ? null : undefined;
  }

  set(keyHash: string, principal: Principal | null, now = Date.now()): void {
    if (principal) {
      this.unknown.delete(keyHash);
      this.known.set(keyHash, principal, now);
    } else {
      this.known.delete(keyHash);
      this.unknown.set(keyHash, true, now);
    }
  }

  /** Keeps the cached quota figures current after a charge, without extending the entry's life. */
  updateQuota(keyHash: string, quota: QuotaSnapshot, now = Date.now()): void {
    const entry = this.known.get(keyHash, now);
    if (entry) entry.value = { ...entry.value, quota };
  }
}
