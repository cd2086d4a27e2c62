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

/** The request id of a page: the one made at its first attempt, or `candidate` for a first attempt. */
export async function pageRequestId(db: JobsExecutor, jobId: string, page: number, candidate: string): Promise<string> {
  await db
    .insertInto('jobPages')
    .values({ jobId, page, requestId: candidate })
    .onDuplicateKeyUpdate({ requestId: sql<string>`request_id` })
    .execute();
  const row = await db.selectFrom('jobPages').select('requestId').where('jobId', '=', jobId).where('page', '=', page).executeTakeFirstOrThrow();
  return row.requestId;
}

/**
 * Stores a page's items, leaving out those the job already has (from an earlier page); returns how
 * many were new. INSERT IGNORE on the primary key (job, item) does the leaving out.
 */
export async function insertNewItems(db: JobsExecutor, jobId: string, page: number, items: Array<{ itemId: string; item: string }>): Promise<number> {
  if (items.length === 0) return 0;
  const result = await db
    .insertInto('jobItems')
    .ignore()
    .values(items.map((entry, position) => ({ jobId, itemId: entry.itemId, page, position, item: entry.item })))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

export interface PageProgress {
  charged: boolean;
  newItems: number;
}

/** Counts a stored page and moves the job to its next page (ending it, if the page did, is finishJob's). */
export async function recordPage(db: JobsExecutor, jobId: string, progress: PageProgress): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({
      pagesFetched: eb('pagesFetched', '+', 1),
      pagesCharged: eb('pagesCharged', '+', progress.charged ? 1 : 0),
      itemsCollected: eb('itemsCollected', '+', progress.newItems),
      nextPage: eb('nextPage', '+', 1),
      attempts: 0,
    }))
    .where('id', '=', jobId)
    .execute();
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
