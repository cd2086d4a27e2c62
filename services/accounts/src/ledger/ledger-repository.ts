import { sql } from 'kysely';
import type { ReservationState } from '@comps/shared/db/database';
import type { Executor } from '@comps/shared/db/with-transaction';

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
export async function ensureCounter(db: Executor, workspaceId: string, periodStart: string): Promise<void> {
  await db
    .insertInto('usageCounters')
    .values({ workspaceId, periodStart, used: 0, reserved: 0 })
    .onDuplicateKeyUpdate({ used: sql<number>`used` })
    .execute();
}

export async function readCounter(db: Executor, workspaceId: string, periodStart: string): Promise<Counter> {
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
  db: Executor,
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

export async function findReservation(db: Executor, requestId: string): Promise<Reservation | undefined> {
  return db
    .selectFrom('usageReservations')
    .select(['requestId', 'workspaceId', 'periodStart', 'state', 'expiresAt'])
    .where('requestId', '=', requestId)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertReservation(
  db: Executor,
  reservation: { requestId: string; workspaceId: string; periodStart: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('usageReservations')
    .values({ ...reservation, state: 'reserved' })
    .execute();
}

export async function setReservationState(
  db: Executor,
  requestId: string,
  change: { from: ReservationState; to: ReservationState; at: Date; expiresAt?: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('usageReservations')
    .set({
      state: change.to,
      settledAt: change.to === 'reserved' ? null : change.at,
      ...(change.expiresAt ? { expiresAt: change.expiresAt } : {}),
    })
    .where('requestId', '=', requestId)
    .where('state', '=', change.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function listExpiredReservations(
  db: Executor,
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
