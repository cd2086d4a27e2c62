import type { Insertable } from 'kysely';
import type { JobsExecutor, RunRow, TrackedSearchRunsTable } from '../db/database.js';

export async function insertRun(db: JobsExecutor, row: Insertable<TrackedSearchRunsTable>): Promise<void> {
  await db.insertInto('trackedSearchRuns').values(row).execute();
}

export async function findRun(db: JobsExecutor, id: string): Promise<RunRow | undefined> {
  return db.selectFrom('trackedSearchRuns').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function lockRun(db: JobsExecutor, id: string): Promise<RunRow | undefined> {
  return db.selectFrom('trackedSearchRuns').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The run of a tracked search that is running, if any. */
export async function findRunningRun(db: JobsExecutor, trackedSearchId: string): Promise<RunRow | undefined> {
  return db.selectFrom('trackedSearchRuns').selectAll().where('activeTrackedSearchId', '=', trackedSearchId).executeTakeFirst();
}

/** Runs since `since`, newest first. */
export async function listRunsSince(db: JobsExecutor, trackedSearchId: string, since: Date): Promise<RunRow[]> {
  return db.selectFrom('trackedSearchRuns').selectAll().where('trackedSearchId', '=', trackedSearchId).where('startedAt', '>=', since).orderBy('startedAt', 'desc').orderBy('id', 'desc').execute();
}

export async function findRunsByIds(db: JobsExecutor, ids: readonly string[]): Promise<RunRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('trackedSearchRuns').selectAll().where('id', 'in', ids).execute();
}

/**
 * The page's request id: the one stored for it, or `candidate`, stored now (a page resumed elsewhere
 * keeps its id; one statement for a first attempt, whose insert says it was new).
 */
export async function runPageRequestId(db: JobsExecutor, runId: string, page: number, candidate: string): Promise<string> {
  const inserted = await db.insertInto('trackedSearchRunPages').ignore().values({ runId, page, requestId: candidate }).executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows === 1n) return candidate;
  const row = await db.selectFrom('trackedSearchRunPages').select('requestId').where('runId', '=', runId).where('page', '=', page).executeTakeFirstOrThrow();
  return row.requestId;
}

/**
 * A stored page: counted as fetched and charged, the run moved on to the next, and the page's
 * charge marked as waiting for its handover since then, with the allowance its unit came from
 * (null: a reservation of its own). One statement (MySQL's multi-table UPDATE), in the store's
 * transaction, with the run's row locked.
 */
export async function recordRunPage(db: JobsExecutor, runId: string, progress: { page: number; newSales: number; chargePending: { since: Date; allowanceId: string | null } }): Promise<void> {
  await db
    .updateTable(['trackedSearchRuns', 'trackedSearchRunPages'])
    .set('trackedSearchRuns.pagesFetched', (eb) => eb('trackedSearchRuns.pagesFetched', '+', 1))
    .set('trackedSearchRuns.pagesCharged', (eb) => eb('trackedSearchRuns.pagesCharged', '+', 1))
    .set('trackedSearchRuns.newSales', (eb) => eb('trackedSearchRuns.newSales', '+', progress.newSales))
    .set('trackedSearchRuns.nextPage', (eb) => eb('trackedSearchRuns.nextPage', '+', 1))
    .set('trackedSearchRuns.attempts', 0)
    .set('trackedSearchRunPages.chargePendingSince', progress.chargePending.since)
    .set('trackedSearchRunPages.chargeAllowanceId', progress.chargePending.allowanceId)
    .whereRef('trackedSearchRunPages.runId', '=', 'trackedSearchRuns.id')
    .where('trackedSearchRuns.id', '=', runId)
    .where('trackedSearchRunPages.page', '=', progress.page)
    .execute();
}

/** The page's charge was handed over (or settled, or given up): it waits no more. Answers whether it still waited. */
export async function clearRunPageChargePending(db: JobsExecutor, runId: string, page: number): Promise<boolean> {
  const result = await db
    .updateTable('trackedSearchRunPages')
    .set({ chargePendingSince: null, chargeAllowanceId: null })
    .where('runId', '=', runId)
    .where('page', '=', page)
    .where('chargePendingSince', 'is not', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A page stored as charged whose charge neither Redis nor accounts took: fetched, but not charged. */
export async function uncountRunCharge(db: JobsExecutor, runId: string): Promise<void> {
  await db.updateTable('trackedSearchRuns').set((eb) => ({ pagesCharged: eb('pagesCharged', '-', 1) })).where('id', '=', runId).where('pagesCharged', '>', 0).execute();
}

export async function countRunAttempt(db: JobsExecutor, runId: string): Promise<void> {
  await db.updateTable('trackedSearchRuns').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', runId).execute();
}

export async function endRunRow(db: JobsExecutor, runId: string, end: Pick<RunRow, 'status' | 'stopReason' | 'errorCode' | 'errorMessage' | 'finishedAt'>): Promise<void> {
  await db.updateTable('trackedSearchRuns').set({ ...end, activeTrackedSearchId: null }).where('id', '=', runId).execute();
}

/** Deletes a tracked search's runs and their pages. */
export async function deleteRunsOf(db: JobsExecutor, trackedSearchId: string): Promise<void> {
  const runs = await db.selectFrom('trackedSearchRuns').select('id').where('trackedSearchId', '=', trackedSearchId).execute();
  for (let start = 0; start < runs.length; start += 500) {
    const ids = runs.slice(start, start + 500).map((run) => run.id);
    await db.deleteFrom('trackedSearchRunPages').where('runId', 'in', ids).execute();
    await db.deleteFrom('trackedSearchRuns').where('id', 'in', ids).execute();
  }
}

/** Ended runs before `cutoff` (a tracked search's last run aside: it shows it), a batch at a time, with their pages; returns how many went. */
export async function deleteRunsBefore(db: JobsExecutor, cutoff: Date, batchSize: number): Promise<number> {
  const runs = await db
    .selectFrom('trackedSearchRuns')
    .select('id')
    .where('finishedAt', '<', cutoff)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('trackedSearches').select('trackedSearches.id').whereRef('trackedSearches.lastRunId', '=', 'trackedSearchRuns.id'))))
    .limit(batchSize)
    .execute();
  if (runs.length === 0) return 0;
  const ids = runs.map((run) => run.id);
  await db.deleteFrom('trackedSearchRunPages').where('runId', 'in', ids).execute();
  await db.deleteFrom('trackedSearchRuns').where('id', 'in', ids).execute();
  return ids.length;
}
