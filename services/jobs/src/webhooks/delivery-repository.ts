import type { Insertable } from 'kysely';
import type { DeliveryRow, EventRow, JobsExecutor, WebhookDeliveriesTable } from '../db/database.js';

/** Events not dispatched yet, oldest first. */
export async function listUndispatchedEvents(db: JobsExecutor, limit: number): Promise<EventRow[]> {
  return db.selectFrom('events').selectAll().where('dispatchedAt', 'is', null).orderBy('id').limit(limit).execute();
}

/** Of these events, those still undispatched, locked (SKIP LOCKED: another dispatcher takes others). */
export async function lockUndispatchedEvents(db: JobsExecutor, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('events').select('id').where('id', 'in', ids).where('dispatchedAt', 'is', null).forUpdate().skipLocked().execute();
  return rows.map((row) => row.id);
}

export async function markDispatched(db: JobsExecutor, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('events').set({ dispatchedAt: at }).where('id', 'in', ids).execute();
}

/** Adds deliveries; one of the same event and endpoint that exists already is left as it is. */
export async function insertDeliveries(db: JobsExecutor, deliveries: ReadonlyArray<Insertable<WebhookDeliveriesTable>>): Promise<void> {
  if (deliveries.length === 0) return;
  await db.insertInto('webhookDeliveries').ignore().values(deliveries).execute();
}

export async function findDelivery(db: JobsExecutor, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhookDeliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function lockDelivery(db: JobsExecutor, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhookDeliveries').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * What an attempt gave, and what follows it, if the delivery is as the attempt found it (`attemptsSeen`,
 * still pending): an attempt made by a process that lost the delivery meanwhile records nothing.
 * Returns whether it was recorded.
 */
export async function recordAttempt(
  db: JobsExecutor,
  id: string,
  attemptsSeen: number,
  attempt: Pick<DeliveryRow, 'status' | 'nextAttemptAt' | 'lastAttemptAt' | 'lastStatusCode' | 'lastError'>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhookDeliveries')
    .set((eb) => ({ ...attempt, lastError: attempt.lastError?.slice(0, 500) ?? null, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('attempts', '=', attemptsSeen)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A delivery that ends without an attempt (its endpoint is gone or disabled). */
export async function endWithoutAttempt(db: JobsExecutor, id: string, reason: string): Promise<void> {
  await db.updateTable('webhookDeliveries').set({ status: 'failed', nextAttemptAt: null, lastError: reason }).where('id', '=', id).execute();
}

/** Why a pending delivery was not sent this time (its next try is its task's). */
export async function noteUnsigned(db: JobsExecutor, id: string, reason: string): Promise<void> {
  await db.updateTable('webhookDeliveries').set({ lastError: reason.slice(0, 500) }).where('id', '=', id).where('status', '=', 'pending').execute();
}

/** A delivery to attempt again now. */
export async function markPending(db: JobsExecutor, id: string, at: Date): Promise<void> {
  await db.updateTable('webhookDeliveries').set({ status: 'pending', nextAttemptAt: at }).where('id', '=', id).execute();
}

/** An endpoint's deliveries since `since`, newest first, after the cursor's id (keyset). */
export async function listDeliveries(db: JobsExecutor, webhookId: string, workspaceId: string, since: Date, beforeId: string | undefined, limit: number): Promise<DeliveryRow[]> {
  let query = db.selectFrom('webhookDeliveries').selectAll().where('webhookId', '=', webhookId).where('workspaceId', '=', workspaceId).where('createdAt', '>=', since);
  if (beforeId) query = query.where('id', '<', beforeId);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** Deliveries created before `cutoff`, a batch at a time; returns how many went. */
export async function deleteDeliveriesBefore(db: JobsExecutor, cutoff: Date, batchSize: number): Promise<number> {
  const result = await db.deleteFrom('webhookDeliveries').where('createdAt', '<', cutoff).limit(batchSize).executeTakeFirst();
  return Number(result.numDeletedRows);
}
