import { sql } from 'kysely';
import type { AccountsExecutor, AllowanceState } from '../db/database.js';

export interface Allowance {
  id: string;
  workspaceId: string;
  periodStart: string;
  units: number;
  charged: number;
  returned: number;
  state: AllowanceState;
  expiresAt: Date;
}

/** Units an allowance still holds: granted, neither charged nor returned (taken by requests in flight, or idle). */
export function heldUnitsOf(allowance: Pick<Allowance, 'units' | 'charged' | 'returned'>): number {
  return Math.max(0, allowance.units - allowance.charged - allowance.returned);
}

const COLUMNS = ['id', 'workspaceId', 'periodStart', 'units', 'charged', 'returned', 'state', 'expiresAt'] as const;

export async function insertAllowance(db: AccountsExecutor, allowance: Omit<Allowance, 'charged' | 'returned' | 'state'>): Promise<void> {
  await db.insertInto('quotaAllowances').values({ ...allowance, state: 'held' }).execute();
}

/** These allowances, locked for the rest of the transaction in the order of their ids (so that concurrent transactions cannot deadlock on them). */
export async function lockAllowances(db: AccountsExecutor, ids: string[]): Promise<Allowance[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('quotaAllowances').select(COLUMNS).where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** The held allowances among these ids that are still within their lease. */
export async function liveAllowances(db: AccountsExecutor, ids: string[], now: Date): Promise<Allowance[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('quotaAllowances').select(COLUMNS).where('id', 'in', ids).where('state', '=', 'held').where('expiresAt', '>', now).execute();
}

/** The held allowances of a workspace among these ids (past their lease or not: their units are held until the sweep frees them). */
export async function heldAllowancesOf(db: AccountsExecutor, workspaceId: string, ids: string[]): Promise<Allowance[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('quotaAllowances').select(COLUMNS).where('id', 'in', ids).where('workspaceId', '=', workspaceId).where('state', '=', 'held').execute();
}

/** Adds units and counts, and moves the lease's end to `expiresAt` if that is later. */
export async function changeAllowance(
  db: AccountsExecutor,
  id: string,
  change: { units?: number; charged?: number; returned?: number; expiresAt?: Date },
): Promise<void> {
  await db
    .updateTable('quotaAllowances')
    .set((eb) => ({
      units: eb('units', '+', change.units ?? 0),
      charged: eb('charged', '+', change.charged ?? 0),
      returned: eb('returned', '+', change.returned ?? 0),
      ...(change.expiresAt ? { expiresAt: sql<Date>`GREATEST(expires_at, ${change.expiresAt})` } : {}),
    }))
    .where('id', '=', id)
    .execute();
}

/** Extends held leases that have not run out yet to `expiresAt` (never shortens one); returns how many. */
export async function extendAllowances(db: AccountsExecutor, ids: string[], expiresAt: Date, now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('quotaAllowances')
    .set({ expiresAt: sql<Date>`GREATEST(expires_at, ${expiresAt})` })
    .where('id', 'in', ids)
    .where('state', '=', 'held')
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function markAllowanceExpired(db: AccountsExecutor, id: string): Promise<void> {
  await db.updateTable('quotaAllowances').set({ state: 'expired' }).where('id', '=', id).where('state', '=', 'held').execute();
}

export async function listExpiredAllowances(db: AccountsExecutor, now: Date, limit: number, workspaceId?: string): Promise<string[]> {
  let query = db.selectFrom('quotaAllowances').select('id').where('state', '=', 'held').where('expiresAt', '<', now);
  if (workspaceId) query = query.where('workspaceId', '=', workspaceId);
  const rows = await query.orderBy('expiresAt').limit(limit).execute();
  return rows.map((row) => row.id);
}

/** Expired allowances whose lease ended before `cutoff`, a batch at a time; returns how many went. */
export async function deleteExpiredAllowances(db: AccountsExecutor, cutoff: Date, limit: number): Promise<number> {
  const result = await db.deleteFrom('quotaAllowances').where('state', '=', 'expired').where('expiresAt', '<', cutoff).limit(limit).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Records what became of successes answered with allowance units, one row per request id (its
 * primary key is what makes a charge happen once): `charged`, or `released` for a late one the
 * quota no longer allowed.
 */
export async function insertAllowanceCharges(
  db: AccountsExecutor,
  rows: Array<{ requestId: string; workspaceId: string; periodStart: string; allowanceId: string; state: 'charged' | 'released' }>,
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('usageReservations')
    .values(rows.map((row) => ({ ...row, expiresAt: at, settledAt: at })))
    .execute();
}
