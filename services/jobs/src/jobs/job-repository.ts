import { sql } from 'kysely';
import type { JobStatus, JobStopReason } from '@comps/shared/contract/job';
import type { JobRow, JobsDatabase, JobsExecutor } from '../db/database.js';
import type { Insertable } from 'kysely';

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
 * Takes up to `limit` active jobs whose turn has come and whose lease is free (or expired: their
 * holder died), for `owner`, in one transaction. SKIP LOCKED lets several workers claim at once
 * without waiting for, or taking, each other's rows.
 */
/**
 * Claims up to `limit` jobs due to run whose lease is free or lapsed, except those in `held` (the
 * claiming process's own turns: a lease it failed to renew in time is still its work in progress).
 */
export async function claimJobs(db: JobsExecutor, owner: string, now: Date, leaseUntil: Date, limit: number, held: readonly string[] = []): Promise<JobRow[]> {
  let due = db
    .selectFrom('jobs')
    .select('id')
    .where('status', 'in', ACTIVE_STATUSES)
    .where('nextRunAt', '<=', now)
    .where((eb) => eb.or([eb('leaseExpiresAt', 'is', null), eb('leaseExpiresAt', '<', now)]));
  if (held.length > 0) due = due.where('id', 'not in', held);
  const candidates = await due
    .orderBy('nextRunAt')
    .orderBy('createdAt')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (candidates.length === 0) return [];
  const ids = candidates.map((candidate) => candidate.id);
  await db
    .updateTable('jobs')
    .set({ leaseOwner: owner, leaseExpiresAt: leaseUntil, status: 'running', startedAt: sql<Date>`coalesce(started_at, ${now})` })
    .where('id', 'in', ids)
    .execute();
  return db.selectFrom('jobs').selectAll().where('id', 'in', ids).execute();
}

/**
 * Extends the leases `owner` still holds. Returns the jobs it no longer holds (another worker took
 * them) and those whose cancellation was asked for meanwhile.
 */
export async function renewLeases(db: JobsExecutor, owner: string, jobIds: string[], leaseUntil: Date): Promise<{ lost: string[]; cancelRequested: string[] }> {
  if (jobIds.length === 0) return { lost: [], cancelRequested: [] };
  await db.updateTable('jobs').set({ leaseExpiresAt: leaseUntil }).where('id', 'in', jobIds).where('leaseOwner', '=', owner).execute();
  const held = await db.selectFrom('jobs').select(['id', 'cancelRequested']).where('id', 'in', jobIds).where('leaseOwner', '=', owner).execute();
  const still = new Set(held.map((row) => row.id));
  return { lost: jobIds.filter((id) => !still.has(id)), cancelRequested: held.filter((row) => row.cancelRequested === 1).map((row) => row.id) };
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

/**
 * What follows a stored page: the job ends; or it goes back in line for its next turn (the lease is
 * let go); or this worker goes on with the next page of its turn (the lease is kept).
 */
export type AfterPage = { end: JobEnd } | { runAt: Date } | { holdLease: true };

/** Counts a stored page and moves the job to its next page, or ends it. */
export async function recordPage(db: JobsExecutor, jobId: string, progress: PageProgress, next: AfterPage): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({
      pagesFetched: eb('pagesFetched', '+', 1),
      pagesCharged: eb('pagesCharged', '+', progress.charged ? 1 : 0),
      itemsCollected: eb('itemsCollected', '+', progress.newItems),
      nextPage: eb('nextPage', '+', 1),
      attempts: 0,
      ...('end' in next ? endValues(next.end) : 'runAt' in next ? { nextRunAt: next.runAt, leaseOwner: null, leaseExpiresAt: null } : {}),
    }))
    .where('id', '=', jobId)
    .execute();
}

/** A page counted as charged when it was stored whose charge could not be taken after all (Redis and accounts both out of reach). */
export async function uncountCharge(db: JobsExecutor, jobId: string): Promise<void> {
  await db.updateTable('jobs').set((eb) => ({ pagesCharged: eb('pagesCharged', '-', 1) })).where('id', '=', jobId).execute();
}

export interface JobEnd {
  status: Exclude<JobStatus, 'queued' | 'running'>;
  stopReason: JobStopReason;
  at: Date;
  expiresAt: Date;
  error?: { code: string; message: string };
}

function endValues(end: JobEnd) {
  return {
    status: end.status,
    stopReason: end.stopReason,
    finishedAt: end.at,
    expiresAt: end.expiresAt,
    activeWorkspaceId: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    errorCode: end.error?.code ?? null,
    errorMessage: end.error?.message.slice(0, 500) ?? null,
  };
}

/**
 * Ends an active job (cancelled, failed) without a page; false when it had already ended, or when
 * `owner` is given and no longer holds the job's lease (a worker that lost it changes nothing).
 */
export async function endJob(db: JobsExecutor, jobId: string, end: JobEnd, owner?: string): Promise<boolean> {
  let query = db.updateTable('jobs').set(endValues(end)).where('id', '=', jobId).where('status', 'in', ACTIVE_STATUSES);
  if (owner !== undefined) query = query.where('leaseOwner', '=', owner);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Puts a page back for a later try (a retry after backoff, or a page abandoned at shutdown), if `owner` still holds the job. */
export async function retryLater(db: JobsExecutor, jobId: string, owner: string, runAt: Date, countAttempt: boolean): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({ nextRunAt: runAt, leaseOwner: null, leaseExpiresAt: null, attempts: countAttempt ? eb('attempts', '+', 1) : eb.ref('attempts') }))
    .where('id', '=', jobId)
    .where('leaseOwner', '=', owner)
    .execute();
}

/** An expired job gives its Idempotency-Key up (the key may name a new job; the old one is purged soon). */
export async function releaseIdempotencyKey(db: JobsExecutor, jobId: string): Promise<void> {
  await db.updateTable('jobs').set({ idempotencyKeyHash: null }).where('id', '=', jobId).execute();
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

/** Deletes one job's items in batches (a large job is never one long delete), then its pages and the job with its keyword. */
export async function deleteJob(db: JobsExecutor, jobId: string, batchSize: number): Promise<void> {
  for (;;) {
    const result = await db.deleteFrom('jobItems').where('jobId', '=', jobId).limit(batchSize).executeTakeFirst();
    if (Number(result.numDeletedRows) < batchSize) break;
  }
  await db.deleteFrom('jobPages').where('jobId', '=', jobId).execute();
  await db.deleteFrom('jobs').where('id', '=', jobId).execute();
}
