import type { Db } from '@comps/shared/db/create-db';

/** What the ledger works with: the database, the reservation lease, and two small caches. */
export interface LedgerContext {
  db: Db;
  reservationTtlMs: number;
  now?: () => Date;
  /** Workspace id to monthly quota, for a second: plan changes take effect within it. */
  quotaCache: Map<string, { limit: number; until: number }>;
  /** Counter rows (workspace and period) known to exist, so reserving need not create them. */
  knownCounters: Set<string>;
}

export const QUOTA_CACHE_MS = 1000;

export function createLedgerContext(db: Db, reservationTtlMs: number, now?: () => Date): LedgerContext {
  return { db, reservationTtlMs, quotaCache: new Map(), knownCounters: new Set(), ...(now ? { now } : {}) };
}
