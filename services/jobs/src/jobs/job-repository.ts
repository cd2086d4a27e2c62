import { sql } from 'kysely';
import type { JobStatus, JobStopReason } from '@comps/shared/contract/job';
import type { JobRow, JobsDatabase, JobsExecutor } from '../db/database.js';
import type { Insertable } from 'kysely';
import { deleteEventsOf } from '../events/event-repository.js';

export type NewJob = Insertable<JobsDatabase['jobs']>;

export const ACTIVE_STATUSES: JobStatus[] = ['queued', 'running'];

export async function insertJob(db: JobsExecutor, job: NewJob): Promise<void> {
  await db.insertInto('jobs').values(job).execute();
}

export async function findJob(db: JobsExecutor, jobId: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
}

/** The job, locked for the rest of the transaction. */
export async function lockJob(db: JobsExecutor, jobId: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', jobId).forUpdate().executeTakeFirst();
}

export async function findActiveJob(db: JobsExecutor, workspaceId: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('activeWorkspaceId', '=', workspaceId).executeTakeFirst();
}

export async function findJobByIdempotencyKey(db: JobsExecutor, workspaceId: string, keyHash: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('workspaceId', '=', workspaceId).where('idempotencyKeyHash', '=', keyHash).executeTakeFirst();
}

/** A workspace's jobs still within retention, newest first. */
export async function listWorkspaceJobs(db: JobsExecutor, workspaceId: string, now: Date, limit: number): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('workspaceId', '=', workspaceId)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now)]))
    .orderBy('createdAt', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The request id of a page: the one made at its first attempt, or `candidate` for a first attempt
 * (one statement then: only a page tried before reads its id back).
 */
export async function pageRequestId(db: JobsExecutor, jobId: string, page: number, candidate: string): Promise<string> {
  const inserted = await db.insertInto('jobPages').ignore().values({ jobId, page, requestId: candidate }).executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows === 1n) return candidate;
  const row = await db.selectFrom('jobPages').select('requestId').where('jobId', '=', jobId).where('page', '=', page).executeTakeFirstOrThrow();
  return row.requestId;
}

/**
 * Stores a page's items, leaving out those the job already has (from an earlier page, or earlier on
 * this page); answers how many were new and what the statistics read of them, in the same order
 * (`recordPage` writes it on the page's row). Runs with the job locked (one page stored at a time).
 */
export async function insertNewItems(db: JobsExecutor, jobId: string, page: number, items: Array<{ itemId: string; item: string; statsItem: string }>): Promise<{ newItems: number; statsItems: string }> {
  if (items.length === 0) return { newItems: 0, statsItems: '[]' };
  const ids = [...new Set(items.map((entry) => entry.itemId))];
  const held = new Set((await db.selectFrom('jobItems').select('itemId').where('jobId', '=', jobId).where('itemId', 'in', ids).execute()).map((row) => row.itemId));
  const fresh: Array<(typeof items)[number] & { position: number }> = [];
  items.forEach((entry, position) => {
    if (held.has(entry.itemId)) return;
    held.add(entry.itemId);
    fresh.push({ ...entry, position });
  });
  if (fresh.length > 0) {
    await db
      .insertInto('jobItems')
      .values(fresh.map((entry) => ({ jobId, itemId: entry.itemId, page, position: entry.position, item: entry.item })))
      .execute();
  }
  return { newItems: fresh.length, statsItems: `[${fresh.map((entry) => entry.statsItem).join(',')}]` };
}

export interface PageProgress {
  page: number;
  newItems: number;
  /** What the statistics read of the page's new items (`insertNewItems`). */
  statsItems: string;
  /** Its charge waits from then until it is handed over, with the allowance its unit came from (null: a reservation of its own). */
  chargePending: { since: Date; allowanceId: string | null };
}

/**
 * Counts a stored page as fetched and charged, moves the job to its next page (ending it, if the
 * page did, is finishJob's), writes what the statistics read of its new items and marks its charge
 * as waiting for its handover: one statement (MySQL's multi-table UPDATE), in the store's
 * transaction, with the job's row locked. Written once a page: a second store of a page would put
 * the job's statistics out of step with its items, so it throws (and the store rolls back).
 */
export async function recordPage(db: JobsExecutor, jobId: string, progress: PageProgress): Promise<void> {
  const result = await db
    .updateTable(['jobs', 'jobPages'])
    .set('jobs.pagesFetched', (eb) => eb('jobs.pagesFetched', '+', 1))
    .set('jobs.pagesCharged', (eb) => eb('jobs.pagesCharged', '+', 1))
    .set('jobs.itemsCollected', (eb) => eb('jobs.itemsCollected', '+', progress.newItems))
    .set('jobs.nextPage', (eb) => eb('jobs.nextPage', '+', 1))
    .set('jobs.attempts', 0)
    .set('jobPages.statsItems', progress.statsItems)
    .set('jobPages.chargePendingSince', progress.chargePending.since)
    .set('jobPages.chargeAllowanceId', progress.chargePending.allowanceId)
    .whereRef('jobPages.jobId', '=', 'jobs.id')
    .where('jobs.id', '=', jobId)
    .where('jobPages.page', '=', progress.page)
    .where('jobPages.statsItems', 'is', null)
    .executeTakeFirst();
  // The job's row and the page's (mysql2 counts the rows matched).
  if (result.numUpdatedRows !== 2n) throw new Error(`page ${progress.page} of job ${jobId} was stored already, or was never asked for`);
}

/** The pages' charges were handed over (or settled, or decided by the sweep): they wait no more. Answers how many still waited. */
export async function clearJobPagesChargePending(db: JobsExecutor, jobId: string, pages: number[]): Promise<number> {
  if (pages.length === 0) return 0;
  const result = await db
    .updateTable('jobPages')
    .set({ chargePendingSince: null, chargeAllowanceId: null })
    .where('jobId', '=', jobId)
    .where('page', 'in', pages)
    .where('chargePendingSince', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A page counted as charged when it was stored whose charge could not be taken after all (Redis and accounts both out of reach). */
export async function uncountCharge(db: JobsExecutor, jobId: string): Promise<void> {
  await db.updateTable('jobs').set((eb) => ({ pagesCharged: eb('pagesCharged', '-', 1) })).where('id', '=', jobId).execute();
}

/** The job's final state (finishJob's part of it); returns the row as it is now. */
export async function endJobRow(db: JobsExecutor, jobId: string, end: { status: JobStatus; stopReason: JobStopReason; at: Date; expiresAt: Date; error?: { code: string; message: string } }): Promise<JobRow> {
  await db
    .updateTable('jobs')
    .set({
      status: end.status,
      stopReason: end.stopReason,
      finishedAt: end.at,
      expiresAt: end.expiresAt,
      activeWorkspaceId: null,
      errorCode: end.error?.code ?? null,
      errorMessage: end.error?.message.slice(0, 500) ?? null,
    })
    .where('id', '=', jobId)
    .execute();
  return (await findJob(db, jobId))!;
}

/** A running job's first turn: it is `running` from then on. */
export async function markStarted(db: JobsExecutor, jobId: string, now: Date): Promise<void> {
  await db.updateTable('jobs').set({ status: 'running', startedAt: sql<Date>`coalesce(started_at, ${now})` }).where('id', '=', jobId).where('status', '=', 'queued').execute();
}

/** One more failed try of the job's next page (reset when a page is stored). */
export async function countAttempt(db: JobsExecutor, jobId: string): Promise<void> {
  await db.updateTable('jobs').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', jobId).execute();
}

/** An expired job gives its Idempotency-Key up (the key may name a new job; the old one is purged soon). */
export async function releaseIdempotencyKey(db: JobsExecutor, jobId: string): Promise<void> {
  await db.updateTable('jobs').set({ idempotencyKeyHash: null }).where('id', '=', jobId).execute();
}

/** Of these jobs, those whose cancellation was asked for. */
export async function listCancelRequested(db: JobsExecutor, jobIds: readonly string[]): Promise<string[]> {
  if (jobIds.length === 0) return [];
  const rows = await db.selectFrom('jobs').select('id').where('id', 'in', jobIds).where('cancelRequested', '=', 1).execute();
  return rows.map((row) => row.id);
}

export async function requestCancel(db: JobsExecutor, jobId: string): Promise<void> {
  await db.updateTable('jobs').set({ cancelRequested: 1 }).where('id', '=', jobId).execute();
}

/** A page of the job's items, in the order they were collected. */
export async function listItems(db: JobsExecutor, jobId: string, offset: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('jobItems').select('item').where('jobId', '=', jobId).orderBy('page').orderBy('position').limit(limit).offset(offset).execute();
  return rows.map((row) => row.item);
}

/** What the statistics read of each page's new items (a JSON array a page, or null), in page order. */
export async function listPageStatsItems(db: JobsExecutor, jobId: string): Promise<Array<{ page: number; statsItems: string | null }>> {
  return db.selectFrom('jobPages').select(['page', 'statsItems']).where('jobId', '=', jobId).orderBy('page').execute();
}

/** The items stored on some pages, in the order collected (pages stored before their statistics were). */
export async function listItemsOfPages(db: JobsExecutor, jobId: string, pages: number[]): Promise<Array<{ page: number; item: string }>> {
  if (pages.length === 0) return [];
  return db.selectFrom('jobItems').select(['page', 'item']).where('jobId', '=', jobId).where('page', 'in', pages).orderBy('page').orderBy('position').execute();
}

/** The items after a position (keyset): the CSV reads the whole job this way, a chunk at a time. */
export async function itemsAfter(db: JobsExecutor, jobId: string, after: { page: number; position: number } | null, limit: number) {
  let query = db.selectFrom('jobItems').select(['page', 'position', 'item']).where('jobId', '=', jobId);
  if (after) {
    query = query.where((eb) => eb.or([eb('page', '>', after.page), eb.and([eb('page', '=', after.page), eb('position', '>', after.position)])]));
  }
  return query.orderBy('page').orderBy('position').limit(limit).execute();
}

/** Jobs past retention, a batch at a time. */
export async function listExpiredJobs(db: JobsExecutor, now: Date, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('jobs').select('id').where('expiresAt', '<', now).limit(limit).execute();
  return rows.map((row) => row.id);
}

/** Deletes one job's items in batches (a large job is never one long delete), then its pages, its events and the job with its keyword. */
export async function deleteJob(db: JobsExecutor, jobId: string, batchSize: number): Promise<void> {
  for (;;) {
    const result = await db.deleteFrom('jobItems').where('jobId', '=', jobId).limit(batchSize).executeTakeFirst();
    if (Number(result.numDeletedRows) < batchSize) break;
  }
  await db.deleteFrom('jobPages').where('jobId', '=', jobId).execute();
  await deleteEventsOf(db, jobId);
  await db.deleteFrom('jobs').where('id', '=', jobId).execute();
}
