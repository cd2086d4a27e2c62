import { createHash, randomUUID } from 'node:crypto';
import { type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { JobCreateBody, JobList, JobRecord } from '@comps/shared/contract/job';
import { operationFingerprint } from '@comps/shared/contract/idempotency';
import { isDuplicateKey } from '@comps/shared/db/database-errors';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { newTaskId } from '@comps/shared/ids';
import type { JobRow, JobsDb } from '../db/database.js';
import { insertTask, lockTaskByKey } from '../tasks/task-repository.js';
import type { ActiveJobLock } from './active-job-lock.js';
import { finishJob } from './finish-job.js';
import { jobTaskKey, SCRAPE_JOB_TASK } from './job-task.js';
import { jobRecordOf, jobSummaryOf } from './job-record.js';
import type { CountedSale } from '@comps/shared/internal/jobs/jobs-contract';
import { jobCountedSales, emptyJobComps, jobComps, type JobComps, type JobCompsCache } from './job-stats.js';
import {
  findActiveJob,
  findJob,
  findJobByIdempotencyKey,
  insertJob,
  listItems,
  listWorkspaceJobs,
  lockJob,
  releaseIdempotencyKey,
  requestCancel,
  ACTIVE_STATUSES,
} from './job-repository.js';

export interface JobServiceDeps {
  db: JobsDb;
  accounts: AccountsClient;
  lock: ActiveJobLock;
  /** Tells every worker (this process's and the others') that a job is waiting. */
  wake: () => void;
  /** A cancelled job's page that still waits for admission stops waiting (this process's worker; others see it at their next lease renewal). */
  stopWaiting: (jobId: string) => void;
  now: () => Date;
  /** Jobs' statistics, computed once per job and item count. */
  compsCache: JobCompsCache;
}

export interface CreateJobInput {
  workspaceId: string;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  body: JobCreateBody;
  idempotencyKey: string | null;
}

/** The first page of items, as the results endpoint gives it by default. */
const FIRST_ITEMS = { offset: 0, limit: 1000 };

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Same key and the same parsed body (defaults filled in, every field) is the same creation. */
function fingerprintOf(body: JobCreateBody): string {
  return operationFingerprint('POST', '/v1/scrape/max', body);
}

function notFound(): AppError {
  // Another workspace's job, an unknown id and an expired job get the same answer: never reveal which.
  return new AppError('job_not_found', 'No such job');
}

function activeJobExists(jobId: string): AppError {
  return new AppError('active_job_exists', 'The workspace already has a queued or running job; cancel it or wait for it to end', { jobId });
}

/** The job, if the workspace owns it and it is within retention. */
async function ownedJob(deps: JobServiceDeps, workspaceId: string, jobId: string): Promise<JobRow> {
  const row = await findJob(deps.db, jobId);
  if (!row || row.workspaceId !== workspaceId || (row.expiresAt && row.expiresAt <= deps.now())) throw notFound();
  return row;
}

/** The job with a page of its items (none for `download` jobs: they are read through the CSV), and its statistics. */
async function recordWithItems(deps: JobServiceDeps, row: JobRow, page: { offset: number; limit: number }): Promise<JobRecord> {
  return recordOf(deps, row, page, await jobComps(deps.db, row, deps.compsCache, deps.now().getTime()));
}

async function recordOf(deps: JobServiceDeps, row: JobRow, page: { offset: number; limit: number }, comps: JobComps): Promise<JobRecord> {
  const items = row.resultType === 'download' ? [] : await listItems(deps.db, row.id, page.offset, page.limit);
  return jobRecordOf(row, items, page, comps);
}

/** A repeat with the same Idempotency-Key: the same job when the body is the same, else 409. */
async function repeatOf(deps: JobServiceDeps, row: JobRow, fingerprint: string): Promise<{ created: false; job: JobRecord }> {
  if (row.requestFingerprint !== fingerprint) throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with another body');
  return { created: false, job: await inSnapshot(deps, async (snapshot) => recordWithItems(snapshot, (await findJob(snapshot.db, row.id)) ?? row, FIRST_ITEMS)) };
}

/** The job an Idempotency-Key names, if still within retention (an expired one gives its key up). */
async function jobOfKey(deps: JobServiceDeps, workspaceId: string, keyHash: string): Promise<JobRow | undefined> {
  const row = await findJobByIdempotencyKey(deps.db, workspaceId, keyHash);
  if (row?.expiresAt && row.expiresAt <= deps.now()) {
    await releaseIdempotencyKey(deps.db, row.id);
    return undefined;
  }
  return row;
}

/**
 * Creates a queued job: one active job per workspace (a Redis lock against racing creations, and
 * the database's unique index on the active workspace), nothing for a workspace without quota left,
 * the same job again for a repeat with the same Idempotency-Key and body.
 */
export async function createJob(deps: JobServiceDeps, input: CreateJobInput): Promise<{ created: boolean; job: JobRecord }> {
  const fingerprint = fingerprintOf(input.body);
  const keyHash = input.idempotencyKey === null ? null : sha256(input.idempotencyKey);
  const release = await deps.lock.acquire(input.workspaceId, 5000);
  try {
    if (keyHash) {
      const earlier = await jobOfKey(deps, input.workspaceId, keyHash);
      if (earlier) return await repeatOf(deps, earlier, fingerprint);
    }
    const active = await findActiveJob(deps.db, input.workspaceId);
    if (active) throw activeJobExists(active.id);
    const usage = await deps.accounts.usage.get.query({ workspaceId: input.workspaceId });
    if (usage.remaining <= 0) throw new AppError('quota_exhausted', `The monthly quota of ${usage.plan.monthlyQuota} requests is used up`);

    const now = deps.now();
    const jobId = randomUUID();
    try {
      // The job and its task, together: a job is never without the task that runs it.
      await withTransaction(deps.db, async (trx) => {
        await insertJob(trx, {
        id: jobId,
        workspaceId: input.workspaceId,
        apiKeyId: input.apiKeyId,
        apiKeyPrefix: input.apiKeyPrefix,
        status: 'queued',
        stopReason: null,
        keyword: input.body.keyword,
        marketSite: input.body.marketSite,
        maxPages: input.body.maxPages,
        count: input.body.count,
        resultType: input.body.resultType,
        statsInclude: input.body.statsInclude.join(','),
        errorCode: null,
        errorMessage: null,
        idempotencyKeyHash: keyHash,
        requestFingerprint: fingerprint,
        activeWorkspaceId: input.workspaceId,
        createdAt: now,
        startedAt: null,
        finishedAt: null,
        expiresAt: null,
        });
        await insertTask(trx, { id: newTaskId(), kind: SCRAPE_JOB_TASK, taskKey: jobTaskKey(jobId), payload: { jobId }, runAt: now, createdAt: now });
      });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // A creation that went past the lock (it expired): the database still holds one active job.
      const earlier = keyHash ? await findJobByIdempotencyKey(deps.db, input.workspaceId, keyHash) : undefined;
      if (earlier) return await repeatOf(deps, earlier, fingerprint);
      const winner = await findActiveJob(deps.db, input.workspaceId);
      if (winner) throw activeJobExists(winner.id);
      throw new AppError('service_unavailable', 'Another job of this workspace was being created at the same time; retry', { retryAfter: 1 });
    }
    deps.wake();
    // The worker may have stored a page already (it was woken first): then the job is read as results are.
    const created = (await findJob(deps.db, jobId))!;
    const job =
      created.itemsCollected === 0
        ? jobRecordOf(created, [], FIRST_ITEMS, emptyJobComps(created))
        : await inSnapshot(deps, async (snapshot) => recordWithItems(snapshot, (await findJob(snapshot.db, jobId))!, FIRST_ITEMS));
    return { created: true, job };
  } finally {
    await release().catch(() => undefined);
  }
}

/**
 * Reads in one snapshot: a page stored between reading the job and reading its items would show
 * items that its progress does not count yet (the worker stores a job's pages in quick succession).
 */
function inSnapshot<T>(deps: JobServiceDeps, read: (deps: JobServiceDeps) => Promise<T>): Promise<T> {
  return deps.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((trx) => read({ ...deps, db: trx }));
}

/** The job with a page of its items (none for `download` jobs: they are read through the CSV). */
export async function getJob(deps: JobServiceDeps, workspaceId: string, jobId: string, page: { offset: number; limit: number }): Promise<JobRecord> {
  return inSnapshot(deps, async (snapshot) => recordWithItems(snapshot, await ownedJob(snapshot, workspaceId, jobId), page));
}

/**
 * A job to download, with its comps, read in one snapshot (so that the verdicts line up with the
 * items collected by then; the CSV streams the items after it).
 */
export async function jobForDownload(deps: JobServiceDeps, workspaceId: string, jobId: string): Promise<{ job: JobRow; comps: JobComps }> {
  return inSnapshot(deps, async (snapshot) => {
    const job = await ownedJob(snapshot, workspaceId, jobId);
    return { job, comps: await jobComps(snapshot.db, job, deps.compsCache, deps.now().getTime()) };
  });
}

/**
 * A job's dashboard page: the job with a page of its items, and every counted item's price and date,
 * read in one snapshot with one computation of its statistics (a running job stores a page every
 * few tens of milliseconds: two reads would each compute them, and disagree).
 */
export async function getJobPage(deps: JobServiceDeps, workspaceId: string, jobId: string, page: { offset: number; limit: number }): Promise<{ job: JobRecord; sales: CountedSale[] }> {
  return inSnapshot(deps, async (snapshot) => {
    const row = await ownedJob(snapshot, workspaceId, jobId);
    const comps = await jobComps(snapshot.db, row, deps.compsCache, deps.now().getTime());
    return { job: await recordOf(snapshot, row, page, comps), sales: jobCountedSales(comps) };
  });
}

export async function listJobs(deps: JobServiceDeps, workspaceId: string): Promise<JobList> {
  const rows = await listWorkspaceJobs(deps.db, workspaceId, deps.now(), 100);
  return { jobs: rows.map(jobSummaryOf) };
}

/**
 * Cancels a job: at once when no page is in flight (queued, or between pages), else after the page
 * in flight, which is charged if it succeeds (the specification allows it). An ended job is 409.
 */
export async function cancelJob(deps: JobServiceDeps, workspaceId: string, jobId: string): Promise<JobRecord> {
  await ownedJob(deps, workspaceId, jobId);
  await withTransaction(deps.db, async (trx) => {
    const row = await lockJob(trx, jobId);
    if (!row || !ACTIVE_STATUSES.includes(row.status)) throw new AppError('job_finished', `The job has already ended (${row?.status ?? 'gone'})`);
    const now = deps.now();
    // A page is in flight while a process holds the job's task (its lease is live).
    const task = await lockTaskByKey(trx, jobTaskKey(jobId));
    const pageInFlight = task?.leaseOwner != null && task.leaseExpiresAt !== null && task.leaseExpiresAt > now;
    if (pageInFlight) await requestCancel(trx, jobId);
    else await finishJob(trx, jobId, { status: 'cancelled', stopReason: 'cancelled' }, now);
  });
  deps.stopWaiting(jobId);
  return inSnapshot(deps, async (snapshot) => recordWithItems(snapshot, await ownedJob(snapshot, workspaceId, jobId), FIRST_ITEMS));
}

