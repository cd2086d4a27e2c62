import { sql } from 'kysely';
import type { AccountsDb, AccountsExecutor, ReservationState } from '../db/database.js';

export interface Counter {
  used: number;
  reserved: number;
}

export interface Reservation {
  requestId: string;
  workspaceId: string;
  periodStart: string;
  state: ReservationState;
  expiresAt: Date;
}

/** Creates the period's counter row if it is missing (and leaves it as it is otherwise). */
export async function ensureCounter(db: AccountsExecutor, workspaceId: string, periodStart: string): Promise<void> {
  await db
    .insertInto('usageCounters')
    .values({ workspaceId, periodStart, used: 0, reserved: 0 })
    .onDuplicateKeyUpdate({ used: sql<number>`used` })
    .execute();
}

export async function readCounter(db: AccountsExecutor, workspaceId: string, periodStart: string): Promise<Counter> {
  const row = await db
    .selectFrom('usageCounters')
    .select(['used', 'reserved'])
    .where('workspaceId', '=', workspaceId)
    .where('periodStart', '=', periodStart)
    .executeTakeFirst();
  return row ?? { used: 0, reserved: 0 };
}

/**
 * Adds `reserve` to reserved and `charge` to used, but only while used + reserved stays within
 * `limit` (when given). One conditional UPDATE: concurrent callers cannot overspend.
 */
export async function adjustCounter(
  db: AccountsExecutor,
  workspaceId: string,
  periodStart: string,
  change: { reserve: number; charge: number },
  limit?: number,
): Promise<boolean> {
  let query = db
    .updateTable('usageCounters')
    .set((eb) => ({
      reserved: eb('reserved', '+', change.reserve),
      used: eb('used', '+', change.charge),
    }))
    .where('workspaceId', '=', workspaceId)
    .where('periodStart', '=', periodStart);
  if (limit !== undefined) {
    query = query.where(sql<boolean>`used + reserved + ${change.reserve + change.charge} <= ${limit}`);
  }
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The reservations of these request ids, locked for the rest of the transaction. */
export async function lockReservations(db: AccountsExecutor, requestIds: string[]): Promise<Reservation[]> {
  if (requestIds.length === 0) return [];
  return db
    .selectFrom('usageReservations')
    .select(['requestId', 'workspaceId', 'periodStart', 'state', 'expiresAt'])
    .where('requestId', 'in', requestIds)
    .forUpdate()
    .execute();
}

export async function findReservation(db: AccountsExecutor, requestId: string): Promise<Reservation | undefined> {
  return (await lockReservations(db, [requestId]))[0];
}

/**
 * How many of these answered request ids are not charged yet: those that still hold their
 * reservation, and those with no row at all (answered with a unit of an allowance, whose charge
 * makes the row). A row of another workspace's request does not count.
 */
export async function countUnsettled(db: AccountsExecutor, workspaceId: string, requestIds: string[]): Promise<number> {
  const unique = [...new Set(requestIds)];
  let total = 0;
  // A thousand ids a query: a long backlog of unsettled charges makes several small queries, not one huge one.
  for (let start = 0; start < unique.length; start += 1000) {
    const slice = unique.slice(start, start + 1000);
    const rows = await db.selectFrom('usageReservations').select(['workspaceId', 'state']).where('requestId', 'in', slice).execute();
    const settledOrForeign = rows.filter((row) => row.workspaceId !== workspaceId || row.state !== 'reserved').length;
    total += slice.length - settledOrForeign;
  }
  return total;
}

/** What reserve_quota_unit answers (see its migration): the counter's figures unless nothing was looked at. */
export type UnitReservation =
  | { outcome: 'reserved' | 'expired' | 'refused'; counter: Counter }
  | { outcome: 'seen' | 'no_counter' | 'again' };

/**
 * Takes one unit on the period's counter and records the reservation under its request id, in one
 * transaction and one round trip (the stored procedure reserve_quota_unit): refused past `limit`.
 * It commits on its own, so it runs on the pool, never inside a transaction.
 */
export async function reserveUnit(
  db: AccountsDb,
  reservation: { requestId: string; workspaceId: string; periodStart: string; expiresAt: Date },
  limit: number,
  now: Date,
): Promise<UnitReservation> {
  if (db.isTransaction) throw new Error('reserveUnit commits on its own: call it outside a transaction');
  // A CALL answers its result sets and then its status; without the naming plugin, which would turn them into objects.
  const result = await sql<unknown>`CALL reserve_quota_unit(${reservation.requestId}, ${reservation.workspaceId}, ${reservation.periodStart}, ${reservation.expiresAt}, ${limit}, ${now})`.execute(
    db.withoutPlugins(),
  );
  const [rows] = result.rows as unknown as [Array<{ outcome: UnitReservation['outcome']; used: number | null; reserved: number | null }>];
  const row = rows[0];
  if (!row) throw new Error('reserve_quota_unit answered no row');
  if (row.outcome === 'seen' || row.outcome === 'no_counter' || row.outcome === 'again') return { outcome: row.outcome };
  return { outcome: row.outcome, counter: { used: Number(row.used), reserved: Number(row.reserved) } };
}

/** Moves reservations from one state to another; returns how many moved. */
export async function setReservationState(
  db: AccountsExecutor,
  requestIds: string[],
  change: { from: ReservationState; to: ReservationState; at: Date; expiresAt?: Date },
): Promise<number> {
  if (requestIds.length === 0) return 0;
  const result = await db
    .updateTable('usageReservations')
    .set({
      state: change.to,
      settledAt: change.to === 'reserved' ? null : change.at,
      ...(change.expiresAt ? { expiresAt: change.expiresAt } : {}),
    })
    .where('requestId', 'in', requestIds)
    .where('state', '=', change.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function listExpiredReservations(
  db: AccountsExecutor,
  now: Date,
  limit: number,
  workspaceId?: string,
): Promise<string[]> {
  let query = db
    .selectFrom('usageReservations')
    .select('requestId')
    .where('state', '=', 'reserved')
    .where('expiresAt', '<', now);
  if (workspaceId) query = query.where('workspaceId', '=', workspaceId);
  const rows = await query.orderBy('expiresAt').limit(limit).execute();
  return rows.map((row) => row.requestId);
}

/** Settled reservations (charged or released) made before `cutoff`, a batch at a time; returns how many went. */
export async function deleteSettledReservations(db: AccountsExecutor, cutoff: Date, limit: number): Promise<number> {
  const result = await db.deleteFrom('usageReservations').where('state', '!=', 'reserved').where('createdAt', '<', cutoff).limit(limit).executeTakeFirst();
  return Number(result.numDeletedRows);
}
