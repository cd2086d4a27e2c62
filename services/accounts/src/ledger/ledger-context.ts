import { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import type { AccountsDb } from '../db/database.js';

/** What the ledger works with: the database, the clock, the reservation lease, and the quotas of the last second. */
export interface LedgerContext {
  db: AccountsDb;
  reservationTtlMs: number;
  now: () => Date;
  /** Workspace id to monthly quota, for a second: plan changes take effect within it. */
  quotaCache: ExpiringMap<number>;
}

const QUOTA_CACHE_MS = 1000;

/** Past this many entries the oldest goes: workspaces are many, a miss costs one query. */
const LEDGER_CACHE_ENTRIES = 50_000;

export function createLedgerContext(db: AccountsDb, reservationTtlMs: number, now: () => Date = () => new Date()): LedgerContext {
  return { db, reservationTtlMs, now, quotaCache: new ExpiringMap(QUOTA_CACHE_MS, LEDGER_CACHE_ENTRIES) };
}
