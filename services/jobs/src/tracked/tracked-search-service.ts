import type { Meter } from '@comps/shared/metering/meter';
import { sql } from 'kysely';
import type { ConditionGroup } from '@comps/shared/contract/comps';
import { SITE_CURRENCY } from '@comps/shared/contract/market-sites';
import {
  TRACKED_SEARCH_LIMITS,
  type ArchiveStats,
  type Run,
  type RunTrigger,
  type SaleList,
  type SeriesInterval,
  type TrackedSearch,
  type TrackedSearchCreate,
  type TrackedSearchUpdate,
  trackedSearchPageQuery,
} from '@comps/shared/contract/tracked-search';
import { computeStats, type StatsItem } from '@comps/shared/comps/statistics';
import { isDuplicateKey } from '@comps/shared/db/database-errors';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { repeatedCreationOf } from '@comps/shared/internal/created-once';
import type { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import { newRunId, newTaskId } from '@comps/shared/ids';
import type { JobsDb, JobsExecutor, RunRow, TrackedSearchRow } from '../db/database.js';
import { decodeStatsItems } from '../jobs/stats-item-column.js';
import { deleteTaskByKey, insertTask, lockTaskByKey } from '../tasks/task-repository.js';
import { listSales, listStatsItems } from './archive-repository.js';
import { archiveSeries } from './archive-series.js';
import { finishRun } from './finish-run.js';
import { deleteRunsOf, findRun, findRunningRun, findRunsByIds, insertRun, listRunsSince, lockRun } from './run-repository.js';
import { ARCHIVE_DELETION_TASK, archiveDeletionTaskKey, runTaskKey, TRACKED_RUN_TASK } from './run-task.js';
import { decodeSalesCursor, encodeSalesCursor } from './sales-cursor.js';
import { nextRunAfter } from './schedule.js';
import { runOf, statsIncludeOfTracked, trackedSearchOf, type StoredQuery } from './tracked-search-record.js';
import {
  countWorkspaceTrackedSearchesForUpdate,
  deleteTrackedSearchRow,
  findTrackedSearch,
  insertTrackedSearch,
  listWorkspaceTrackedSearches,
  lockTrackedSearch,
  updateTrackedSearch,
} from './tracked-search-repository.js';

export interface TrackedSearchDeps {
  db: JobsDb;
  now: () => Date;
  random: () => number;
  /** Tells every worker (this process's and the others') that work is waiting. */
  wake: () => void;
  /** Statistics computed a short while ago, by tracked search, period and archive size (a dashboard reads them again and again). */
  statsCache: ExpiringMap<ArchiveStats>;
  /** Why a search would be refused before it reaches the marketplace (the data gate closed, the site not enabled), or null. */
  refusalFor: Meter['refusalFor'];
}

const DAY_MS = 86_400_000;
/** How long a creation waits for another creation of the same workspace (the plan's number is checked one creation at a time). */
const CREATION_LOCK_SECONDS = 5;

function notFound(): AppError {
  // Another workspace's tracked search and an unknown id get the same answer: never reveal which.
  return new AppError('tracked_search_not_found', 'No such tracked search');
}

/** The tracked search, if the workspace owns it. */
async function owned(db: JobsExecutor, workspaceId: string, trackedSearchId: string): Promise<TrackedSearchRow> {
  const row = await findTrackedSearch(db, trackedSearchId);
  if (!row || row.workspaceId !== workspaceId) throw notFound();
  return row;
}

async function recordOf(db: JobsExecutor, row: TrackedSearchRow): Promise<TrackedSearch> {
  return trackedSearchOf(row, row.lastRunId ? await findRun(db, row.lastRunId) : undefined);
}

/**
 * A run that starts now, with the task that runs it, in the caller's transaction (the tracked search
 * locked): the unique index on the running tracked search refuses a second one.
 */
export async function startRun(trx: JobsExecutor, search: TrackedSearchRow, trigger: RunTrigger, caller: { apiKeyId: string | null; apiKeyPrefix: string | null }, now: Date): Promise<string> {
  const runId = newRunId();
  await insertRun(trx, {
    id: runId,
    trackedSearchId: search.id,
    workspaceId: search.workspaceId,
    apiKeyId: caller.apiKeyId,
    apiKeyPrefix: caller.apiKeyPrefix,
    runTrigger: trigger,
    status: 'running',
    stopReason: null,
    errorCode: null,
    errorMessage: null,
    activeTrackedSearchId: search.id,
    startedAt: now,
    finishedAt: null,
  });
  await insertTask(trx, { id: newTaskId(), kind: TRACKED_RUN_TASK, taskKey: runTaskKey(runId), payload: { runId }, runAt: now, createdAt: now });
  await updateTrackedSearch(trx, search.id, { lastRunId: runId });
  return runId;
}

export interface CreateTrackedSearchInput {
  workspaceId: string;
  /** Made by the caller: a call made again with it (after a timeout) answers what the first created. */
  trackedSearchId: string;
  apiKeyId: string | null;
  apiKeyPrefix: string | null;
  /** The workspace plan's number of tracked searches. */
  limit: number;
  body: TrackedSearchCreate;
}

/**
 * Creates a tracked search and starts its first run at once (`trigger: schedule`); its next run
 * follows the schedule. The plan's number is checked under a database lock of the workspace's
 * creations (GET_LOCK, held by this transaction's connection), so two creations at once cannot
 * both take the last place, whichever jobs processes they reach. A tracked search that already has
 * the id is answered as it is (looked for first, and again under the lock): the caller made this
 * call again after the first timed out, and that one may have created it (a second would run and
 * charge twice as much).
 */
export async function createTrackedSearch(deps: TrackedSearchDeps, input: CreateTrackedSearchInput): Promise<TrackedSearch> {
  const now = deps.now();
  const id = input.trackedSearchId;
  // Made already: answered before the checks below, which may refuse now what they took then (the data gate closed since).
  const earlier = repeatedCreation(await findTrackedSearch(deps.db, id), input, now);
  if (earlier) return recordOf(deps.db, earlier);
  // A closed data gate or a site not enabled would fail every run: one clear answer instead of a tracked search that
  // never archives. The api asks the same before it calls here (its answer then names no jobs service); the
  // dashboard's creations are refused here.
  const refusal = deps.refusalFor({ kind: 'search', query: trackedSearchPageQuery(input.body, 1) });
  if (refusal) throw refusal;
  const lockName = `tracked-searches:${input.workspaceId}`;
  // The lock belongs to a connection: taken on one, the transaction runs on it, released after its commit.
  await deps.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ taken: number | null }>`select get_lock(${lockName}, ${CREATION_LOCK_SECONDS}) as taken`.execute(connection);
    if (rows[0]?.taken !== 1) throw new AppError('service_unavailable', 'Another tracked search of this workspace is being created; retry shortly', { retryAfter: 1 });
    try {
      if (!repeatedCreation(await findTrackedSearch(connection, id), input, now)) await withTransaction(connection, (trx) => insertWithinLimit(trx, id, input, now, deps));
    } finally {
      await sql`select release_lock(${lockName})`.execute(connection);
    }
  });
  deps.wake();
  return recordOf(deps.db, (await findTrackedSearch(deps.db, id))!);
}

/** The tracked search a creation made again with its id answers (see repeatedCreationOf): the same search, keyword and site. */
function repeatedCreation(row: TrackedSearchRow | undefined, input: CreateTrackedSearchInput, now: Date): TrackedSearchRow | undefined {
  return repeatedCreationOf(row, { workspaceId: input.workspaceId, now, matches: (held) => held.keyword === input.body.keyword && held.marketSite === input.body.marketSite });
}

/** The creation itself, once no other creation of the workspace can run: the plan's number, the row, its first run. */
async function insertWithinLimit(trx: JobsExecutor, id: string, input: CreateTrackedSearchInput, now: Date, deps: TrackedSearchDeps): Promise<void> {
  const count = await countWorkspaceTrackedSearchesForUpdate(trx, input.workspaceId);
  if (count >= input.limit) {
    throw new AppError('tracked_search_limit', `The plan allows ${input.limit} tracked searches; delete one or change plans`);
  }
  const { keyword, marketSite, name, schedule, maxPagesPerRun, minPrice, maxPrice, ...filters } = input.body;
  const query: StoredQuery = { ...filters, minPrice: minPrice ?? null, maxPrice: maxPrice ?? null };
  await insertTrackedSearch(trx, {
    id,
    workspaceId: input.workspaceId,
    apiKeyId: input.apiKeyId,
    apiKeyPrefix: input.apiKeyPrefix,
    name: name ?? keyword.slice(0, TRACKED_SEARCH_LIMITS.name.max),
    status: 'active',
    pausedReason: null,
    keyword,
    marketSite,
    query: JSON.stringify(query),
    schedule,
    maxPagesPerRun,
    nextRunAt: nextRunAfter(schedule, now, deps.random),
    lastRunId: null,
    firstSoldDate: null,
    lastSoldDate: null,
    createdAt: now,
  });
  await startRun(trx, (await lockTrackedSearch(trx, id))!, 'schedule', input, now);
}

export async function listTrackedSearches(deps: TrackedSearchDeps, workspaceId: string): Promise<{ trackedSearches: TrackedSearch[] }> {
  const rows = await listWorkspaceTrackedSearches(deps.db, workspaceId);
  const runs = new Map((await findRunsByIds(deps.db, rows.flatMap((row) => (row.lastRunId ? [row.lastRunId] : [])))).map((run) => [run.id, run]));
  return { trackedSearches: rows.map((row) => trackedSearchOf(row, row.lastRunId ? runs.get(row.lastRunId) : undefined)) };
}

export async function getTrackedSearch(deps: TrackedSearchDeps, workspaceId: string, trackedSearchId: string): Promise<TrackedSearch> {
  return recordOf(deps.db, await owned(deps.db, workspaceId, trackedSearchId));
}

/**
 * Changes the name, the schedule, the pages per run, or pauses and resumes. A new schedule counts
 * from now; a resumed tracked search is due at once (it may have missed runs while paused) and its
 * count of blocked runs starts again.
 */
export async function updateTrackedSearchSettings(deps: TrackedSearchDeps, workspaceId: string, trackedSearchId: string, changes: TrackedSearchUpdate): Promise<TrackedSearch> {
  const now = deps.now();
  await withTransaction(deps.db, async (trx) => {
    const row = await lockTrackedSearch(trx, trackedSearchId);
    if (!row || row.workspaceId !== workspaceId) throw notFound();
    const schedule = changes.schedule ?? row.schedule;
    const status = changes.status ?? row.status;
    const resumed = status === 'active' && row.status === 'paused';
    await updateTrackedSearch(trx, trackedSearchId, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.maxPagesPerRun !== undefined ? { maxPagesPerRun: changes.maxPagesPerRun } : {}),
      schedule,
      status,
      ...(status === 'paused' ? { nextRunAt: null, ...(row.status === 'active' ? { pausedReason: null } : {}) } : {}),
      ...(resumed ? { nextRunAt: now, pausedReason: null, blockedRuns: 0 } : {}),
      ...(status === 'active' && !resumed && changes.schedule !== undefined ? { nextRunAt: nextRunAfter(schedule, now, deps.random) } : {}),
    });
  });
  return getTrackedSearch(deps, workspaceId, trackedSearchId);
}

/**
 * Deletes a tracked search with its runs and, in batches by a task of its own, its archive (a
 * large archive is never one long delete; its sales are unreachable from now on). A run in progress
 * loses its task: its page in flight is not stored.
 */
export async function deleteTrackedSearch(deps: TrackedSearchDeps, workspaceId: string, trackedSearchId: string): Promise<{ trackedSearchId: string; deleted: true }> {
  const now = deps.now();
  await withTransaction(deps.db, async (trx) => {
    // Locked in the order a run storing a page locks them (its run, its task, the tracked search).
    const running = await findRunningRun(trx, trackedSearchId);
    if (running) {
      await lockRun(trx, running.id);
      await lockTaskByKey(trx, runTaskKey(running.id));
    }
    const row = await lockTrackedSearch(trx, trackedSearchId);
    if (!row || row.workspaceId !== workspaceId) throw notFound();
    if (running) await deleteTaskByKey(trx, runTaskKey(running.id));
    await deleteRunsOf(trx, trackedSearchId);
    await deleteTrackedSearchRow(trx, trackedSearchId);
    await insertTask(trx, { id: newTaskId(), kind: ARCHIVE_DELETION_TASK, taskKey: archiveDeletionTaskKey(trackedSearchId), payload: { trackedSearchId }, runAt: now, createdAt: now });
  });
  deps.wake();
  return { trackedSearchId, deleted: true };
}

/** Starts a run now (`trigger: manual`), paused or not; 409 `run_in_progress` while one runs. */
export async function runNow(deps: TrackedSearchDeps, input: { workspaceId: string; trackedSearchId: string; apiKeyId: string | null; apiKeyPrefix: string | null }): Promise<Run> {
  const now = deps.now();
  let runId: string;
  try {
    runId = await withTransaction(deps.db, async (trx) => {
      const row = await lockTrackedSearch(trx, input.trackedSearchId);
      if (!row || row.workspaceId !== input.workspaceId) throw notFound();
      const running = await runningRun(trx, row.id, now);
      if (running) throw runInProgress(running.id);
      return startRun(trx, row, 'manual', input, now);
    });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    const running = await findRunningRun(deps.db, input.trackedSearchId);
    throw runInProgress(running?.id ?? null);
  }
  deps.wake();
  return runOf((await findRun(deps.db, runId))!);
}

/**
 * The run of the tracked search that is running, if it really is: a run whose task is gone or was
 * given up (its retries spent) can never end by itself, so it ends here as failed, and the tracked
 * search can run again. In the caller's transaction, the tracked search locked.
 */
export async function runningRun(trx: JobsExecutor, trackedSearchId: string, now: Date): Promise<RunRow | undefined> {
  const running = await findRunningRun(trx, trackedSearchId);
  if (!running) return undefined;
  const task = await lockTaskByKey(trx, runTaskKey(running.id));
  if (task && task.failedAt === null) return running;
  await finishRun(trx, running.id, { status: 'failed', stopReason: 'error', error: { code: 'internal_error', message: task?.lastError ? `The run could not go on: ${task.lastError}` : 'The run could not go on' } }, now);
  return undefined;
}

function runInProgress(runId: string | null): AppError {
  return new AppError('run_in_progress', `A run of this tracked search is already running${runId ? ` (${runId})` : ''}; wait for it to end`);
}

export async function listRuns(deps: TrackedSearchDeps, workspaceId: string, trackedSearchId: string): Promise<{ runs: Run[] }> {
  await owned(deps.db, workspaceId, trackedSearchId);
  const since = new Date(deps.now().getTime() - TRACKED_SEARCH_LIMITS.runsDays * DAY_MS);
  return { runs: (await listRunsSince(deps.db, trackedSearchId, since)).map(runOf) };
}

export interface SalesInput {
  from?: string | undefined;
  to?: string | undefined;
  condition?: ConditionGroup | undefined;
  counted?: boolean | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** A page of the archive's sales, newest sold first, with the cursor of the next page (null at the end). */
export async function listArchiveSales(deps: TrackedSearchDeps, workspaceId: string, trackedSearchId: string, input: SalesInput): Promise<SaleList> {
  const after = input.cursor ? decodeSalesCursor(input.cursor) : undefined;
  await owned(deps.db, workspaceId, trackedSearchId);
  const rows = await listSales(deps.db, trackedSearchId, { from: input.from, to: input.to, condition: input.condition, counted: input.counted, after }, input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    sales: page.map((row) => ({ ...JSON.parse(row.item), firstSeenAt: row.firstSeenAt.toISOString() })),
    nextCursor: rows.length > input.limit && last ? encodeSalesCursor({ soldDate: last.soldDate, itemId: last.itemId }) : null,
  };
}

/** Stored items parsed together (see decodeArchiveItems). */
const DECODE_BATCH = 1000;

/**
 * The archive's stored items, parsed a thousand at a time: one parse of a thousand costs less than
 * a thousand parses, and each thousand's parsed arrays are garbage before the next is parsed. A year
 * of a busy search (50,000 items) parsed at once kept all their arrays alive through the garbage
 * collector's copies, and its statistics took about a quarter longer (bench:archive).
 */
function decodeArchiveItems(stored: readonly string[]): StatsItem[] {
  const items: StatsItem[] = [];
  for (let start = 0; start < stored.length; start += DECODE_BATCH) items.push(...decodeStatsItems(`[${stored.slice(start, start + DECODE_BATCH).join(',')}]`));
  return items;
}

/**
 * The statistics over the archive's sales sold in the period (all of them by default), computed by
 * the comps module from what each sale's page said of it (the same figures as a search over the
 * same items), with the series by day, week or month.
 */
export async function archiveStats(deps: TrackedSearchDeps, workspaceId: string, trackedSearchId: string, input: { from?: string | undefined; to?: string | undefined; interval: SeriesInterval }): Promise<ArchiveStats> {
  const row = await owned(deps.db, workspaceId, trackedSearchId);
  // The archive's figures change with every page stored and every purge: the same figures, the same statistics.
  const key = [trackedSearchId, input.from, input.to, input.interval, row.archiveSales, row.firstSoldDate, row.lastSoldDate].join('|');
  const now = deps.now().getTime();
  const cached = deps.statsCache.get(key, now);
  if (cached) return cached.value;
  const items = decodeArchiveItems(await listStatsItems(deps.db, trackedSearchId, { from: input.from, to: input.to }));
  const { stats, verdicts } = computeStats(items, { basis: 'sold', siteCurrency: SITE_CURRENCY[row.marketSite], include: new Set(statsIncludeOfTracked(row)) });
  const answer = { trackedSearchId, from: input.from ?? null, to: input.to ?? null, interval: input.interval, stats, series: archiveSeries(items, verdicts, input.interval, stats.currency) };
  deps.statsCache.set(key, answer, now);
  return answer;
}
