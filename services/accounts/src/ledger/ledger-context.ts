import type { Db } from '@comps/shared/db/create-db';

/** What the ledger works with: the database, the clock, the reservation lease, and the quotas of the last second. */
export interface LedgerContext {
  db: Db;
  reservationTtlMs: number;
  now: () => Date;
  /** Workspace id to monthly quota, for a second: plan changes take effect within it. */
  quotaCache: Map<string, { limit: number; until: number }>;
}

export const QUOTA_CACHE_MS = 1000;

/** Past this many entries the quota cache starts over: workspaces are many, a miss costs one query. */
export const LEDGER_CACHE_ENTRIES = 50_000;

export function createLedgerContext(db: Db, reservationTtlMs: number, now: () => Date = () => new Date()): LedgerContext {
  return { db, reservationTtlMs, now, quotaCache: new Map() };
}
