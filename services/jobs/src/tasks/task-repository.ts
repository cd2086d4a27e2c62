import type { JobsExecutor, TaskRow } from '../db/database.js';

export interface NewTask {
  id: string;
  kind: string;
  taskKey: string | null;
  payload: unknown;
  runAt: Date;
  createdAt: Date;
}

/** Adds a task; one whose key exists already is left as it is. */
export async function insertTask(db: JobsExecutor, task: NewTask): Promise<void> {
  await insertTasks(db, [task]);
}

/** Adds tasks in one statement; those whose key exists already are left as they are. */
export async function insertTasks(db: JobsExecutor, tasks: readonly NewTask[]): Promise<void> {
  if (tasks.length === 0) return;
  await db
    .insertInto('tasks')
    .ignore()
    .values(tasks.map((task) => ({ ...task, payload: JSON.stringify(task.payload), attempts: 0, leaseOwner: null, leaseExpiresAt: null, lastError: null, failedAt: null })))
    .execute();
}

/**
 * Takes up to `limit` tasks of the given kinds whose time has come and whose lease is free (or
 * lapsed: their holder died), for `owner`, in the transaction `db` is. SKIP LOCKED lets several
 * processes claim at once without waiting for, or taking, each other's rows. `held` are the
 * claimer's own runs in progress: a lease it failed to renew in time is still its work.
 */
export async function claimTasks(db: JobsExecutor, owner: string, kinds: readonly string[], now: Date, leaseUntil: Date, limit: number, held: readonly string[]): Promise<TaskRow[]> {
  let due = db
    .selectFrom('tasks')
    .select('id')
    .where('failedAt', 'is', null)
    .where('runAt', '<=', now)
    .where('kind', 'in', kinds)
    .where((eb) => eb.or([eb('leaseExpiresAt', 'is', null), eb('leaseExpiresAt', '<', now)]));
  if (held.length > 0) due = due.where('id', 'not in', held);
  const candidates = await due.orderBy('runAt').orderBy('id').limit(limit).forUpdate().skipLocked().execute();
  if (candidates.length === 0) return [];
  const ids = candidates.map((candidate) => candidate.id);
  await db.updateTable('tasks').set({ leaseOwner: owner, leaseExpiresAt: leaseUntil }).where('id', 'in', ids).execute();
  return db.selectFrom('tasks').selectAll().where('id', 'in', ids).orderBy('runAt').orderBy('id').execute();
}

/** Extends the leases `owner` still holds; returns the ids it holds after. */
export async function renewLeases(db: JobsExecutor, owner: string, ids: readonly string[], leaseUntil: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  await db.updateTable('tasks').set({ leaseExpiresAt: leaseUntil }).where('id', 'in', ids).where('leaseOwner', '=', owner).execute();
  const held = await db.selectFrom('tasks').select('id').where('id', 'in', ids).where('leaseOwner', '=', owner).execute();
  return new Set(held.map((row) => row.id));
}

/** The task is done: deleted, if `owner` still holds it. */
export async function deleteHeldTask(db: JobsExecutor, id: string, owner: string): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', id).where('leaseOwner', '=', owner).execute();
}

/** The task runs again at `runAt` (its lease let go), if `owner` still holds it; a failure is counted, a success resets the count. */
export async function rescheduleHeldTask(db: JobsExecutor, id: string, owner: string, next: { runAt: Date; failed?: { error: string } }): Promise<void> {
  await db
    .updateTable('tasks')
    .set((eb) => ({
      runAt: next.runAt,
      leaseOwner: null,
      leaseExpiresAt: null,
      attempts: next.failed ? eb('attempts', '+', 1) : 0,
      lastError: next.failed ? next.failed.error.slice(0, 500) : null,
    }))
    .where('id', '=', id)
    .where('leaseOwner', '=', owner)
    .execute();
}

/** The task's retries are spent: it stays, marked, for an operator to read (`failed_at`, `last_error`). */
export async function giveUpHeldTask(db: JobsExecutor, id: string, owner: string, error: string, at: Date): Promise<void> {
  await db
    .updateTable('tasks')
    .set((eb) => ({ failedAt: at, lastError: error.slice(0, 500), leaseOwner: null, leaseExpiresAt: null, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('leaseOwner', '=', owner)
    .execute();
}

/** The task of a key, locked for the rest of the transaction. */
export async function lockTaskByKey(db: JobsExecutor, taskKey: string): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('taskKey', '=', taskKey).forUpdate().executeTakeFirst();
}

export async function findTaskByKey(db: JobsExecutor, taskKey: string): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('taskKey', '=', taskKey).executeTakeFirst();
}

export async function deleteTaskByKey(db: JobsExecutor, taskKey: string): Promise<void> {
  await db.deleteFrom('tasks').where('taskKey', '=', taskKey).execute();
}

/** Lets go of a keyed task's lease and sets its next run, whoever held it (a job put back in line). */
export async function releaseTaskByKey(db: JobsExecutor, taskKey: string, runAt: Date): Promise<void> {
  await db.updateTable('tasks').set({ runAt, leaseOwner: null, leaseExpiresAt: null }).where('taskKey', '=', taskKey).execute();
}

/**
 * A keyed task due now, unless a process is running it (its lease is live: that run is as good as
 * one now). One given up is taken up again.
 */
export async function runKeyedTaskNow(db: JobsExecutor, taskKey: string, now: Date): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ runAt: now, failedAt: null, attempts: 0, lastError: null })
    .where('taskKey', '=', taskKey)
    .where((eb) => eb.or([eb('leaseExpiresAt', 'is', null), eb('leaseExpiresAt', '<', now)]))
    .execute();
}
