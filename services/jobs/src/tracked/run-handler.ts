import { statsItemOf } from '@comps/shared/comps/listing-comps';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import type { ListingItem } from '@comps/shared/contract/listing';
import type { EffectivePlan } from '@comps/shared/contract/usage';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { newRequestId } from '@comps/shared/ids';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { Meter } from '@comps/shared/metering/meter';
import type { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';
import type { JobsDb, RunRow, TaskRow, TrackedSearchRow } from '../db/database.js';
import { encodeStatsItem } from '../jobs/stats-item-column.js';
import { retryDelayMs, type RetryPolicy } from '../tasks/retry-policy.js';
import { lockTaskByKey } from '../tasks/task-repository.js';
import type { TaskContext, TaskHandler, TaskOutcome } from '../tasks/task-runner.js';
import { countSalesOfRun, insertNewSales, type NewSale } from './archive-repository.js';
import { finishRun, type RunEnd } from './finish-run.js';
import {
  clearRunPageChargePending,
  countRunAttempt,
  findRun,
  lockRun,
  recordRunPage,
  runPageRequestId,
} from './run-repository.js';
import { runTaskKey, TRACKED_RUN_TASK } from './run-task.js';
import { runStopOf } from './run-stop-rules.js';
import { addToArchiveFigures, findTrackedSearch, lockTrackedSearch } from './tracked-search-repository.js';
import { runPageQuery } from './tracked-search-record.js';

export interface RunHandlerDeps {
  db: JobsDb;
  meter: Pick<Meter, 'run'>;
  /** The workspace's limits in force (concurrency and rate). */
  planOf: (workspaceId: string) => Promise<EffectivePlan>;
  /** The workspaces' request rates, shared with the api (the same counters). */
  rateLimiter: Pick<FixedWindowLimiter, 'consume'>;
  logger: Logger;
  now: () => Date;
  random: () => number;
}

/** The path a run's pages are recorded under in the request history. */
export const RUN_HISTORY_PATH = '/v1/tracked-searches/{trackedSearchId}/runs';

/** How long a page waits for the workspace's concurrency before its run is put back in line. */
const ADMISSION_WAIT_MS = 5000;
/** When a run put back for its workspace's concurrency is tried again. */
const ADMISSION_RETRY_MS = 2000;

/** Failures worth a retry after a pause: the marketplace or a dependency was busy, not wrong. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['upstream_timeout', 'upstream_rate_limited', 'service_unavailable']);

interface StoredPage {
  stored: boolean;
  /** The page ended the run (with its store). */
  ended: boolean;
}

function asAppError(error: unknown): AppError {
  return error instanceof AppError ? error : new AppError('service_unavailable', 'A dependency failed', { cause: error });
}

/**
 * Whether a sale counts by what it is (the `counted` filter of the sales): counted on its page, or
 * left out there only as an outlier, which depends on the other sales of whatever period is asked.
 */
function countedByItself(comps: ListingItem['comps']): boolean {
  return comps.counted || comps.excludedBecause === 'outlier';
}

/** Today's date in UTC, for a sale whose page showed no sold date. */
const dateOf = (time: Date) => time.toISOString().slice(0, 10);

/**
 * The runs of tracked searches on the task runner: a run fetches its sold pages from 1 in order,
 * one at a time, each a metered call as a search is (charged once delivered, under a request id made
 * once per page, so a run resumed by another process after a crash charges no page twice), and
 * stores the page's new sales in the archive in the transaction that moves the run on (the archive's
 * key stores no sale twice). It waits for the workspace's concurrency and rate rather than failing,
 * and never takes the workspace's active-job slot. It stops after a page with no sale the archive
 * lacks (`caught_up`) or as a job stops; finishRun ends it in the transaction of whatever ended it.
 */
export class RunHandler implements TaskHandler {
  readonly kind = TRACKED_RUN_TASK;
  /** Per run in progress (by task id): aborts its page when another process took the run over. */
  private readonly lost = new Map<string, AbortController>();

  constructor(
    private readonly deps: RunHandlerDeps,
    private readonly retry: RetryPolicy,
  ) {}

  /** Runs taken over by another process: their page in flight is abandoned (uncharged), not fetched for nothing. */
  onLost(tasks: TaskRow[]): void {
    for (const task of tasks) this.lost.get(task.id)?.abort();
  }

  async run(payload: unknown, context: TaskContext): Promise<TaskOutcome> {
    const lost = new AbortController();
    this.lost.set(context.task.id, lost);
    try {
      return await this.runPages((payload as { runId: string }).runId, context, AbortSignal.any([context.signal, lost.signal]));
    } finally {
      this.lost.delete(context.task.id);
    }
  }

  /**
   * The run's pages from the first not stored, one at a time, while this process holds the run. A
   * run never holds a slot of the runner while it waits: a workspace whose rate is spent, or whose
   * concurrency stays taken for long, has its run put back in line for later, so one busy workspace
   * cannot stall the other workspaces' jobs and runs.
   */
  private async runPages(runId: string, context: TaskContext, signal: AbortSignal): Promise<TaskOutcome> {
    const run = await findRun(this.deps.db, runId);
    if (!run || run.status !== 'running') return { next: 'done' };
    const search = await findTrackedSearch(this.deps.db, run.trackedSearchId);
    // Deleted meanwhile (its runs went with it): nothing left to run.
    if (!search) return { next: 'done' };
    context.giveBack(context.slots - 1);
    let plan: EffectivePlan;
    try {
      plan = await this.deps.planOf(run.workspaceId);
    } catch (error) {
      return this.failed(run, asAppError(error), context.owner);
    }
    for (let page = run.nextPage; ; page += 1) {
      let stored: StoredPage = { stored: false, ended: false };
      let outcome;
      const admissionWait = AbortSignal.timeout(ADMISSION_WAIT_MS);
      try {
        const { requests, windowSeconds } = plan.rateLimit;
        const rate = await callRedis(() => this.deps.rateLimiter.consume(run.workspaceId, requests, windowSeconds));
        if (!rate.allowed) return { next: 'later', runAt: new Date(this.deps.now().getTime() + rate.resetSeconds * 1000) };
        const requestId = await runPageRequestId(this.deps.db, run.id, page, newRequestId());
        outcome = await this.deps.meter.run({
          workspace: { id: run.workspaceId, concurrency: plan.concurrency },
          requestId,
          call: { kind: 'search', query: runPageQuery(search, page) },
          signal,
          stopWaiting: admissionWait,
          patience: 'patient',
          deliver: async ({ value, allowanceId }) => {
            stored = await this.storePage(run, search, page, context.owner, value.items, allowanceId);
            return stored.stored;
          },
          history: { method: 'POST', path: RUN_HISTORY_PATH, jobId: run.id, apiKeyId: run.apiKeyId, apiKeyPrefix: run.apiKeyPrefix },
        });
      } catch (error) {
        const failure = asAppError(error);
        if (failure.code !== 'service_unavailable') this.deps.logger.error({ err: error, runId: run.id }, 'run page failed');
        return this.failed(run, failure, context.owner);
      }
      switch (outcome.kind) {
        case 'delivered':
          // Counted as charged when it was stored. Its charge is with the settlement outbox now, or settled: the page no
          // longer waits for the sweep. One that could be neither waits for it (settle-pending-charges.ts decides it, by request id).
          if (outcome.charged) {
            await clearRunPageChargePending(this.deps.db, run.id, page).catch((error: unknown) =>
              this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error), runId: run.id, page }, 'a handed-over charge is still marked waiting; the sweep settles it'),
            );
          }
          if (stored.ended) return { next: 'settled' };
          continue;
        case 'undelivered':
          // Stopping: the page goes back (whoever runs it next uses the same request id). Else the
          // run ended or went to another process meanwhile: nothing more to do here.
          return context.signal.aborted ? { next: 'later', runAt: this.deps.now() } : { next: 'settled' };
        case 'abandoned':
          // Taken over elsewhere: that process goes on. Else stopping, or the workspace's concurrency
          // stayed taken: the run goes back in line (its page keeps its request id).
          if (signal.aborted && !context.signal.aborted) return { next: 'settled' };
          return { next: 'later', runAt: new Date(this.deps.now().getTime() + (admissionWait.aborted ? ADMISSION_RETRY_MS : 0)) };
        case 'failed':
          return this.failed(run, outcome.error, context.owner);
      }
    }
  }

  /**
   * Stores a delivered page's new sales and moves the run on (ending it when a stop rule says so), if
   * this process still holds the run's task and the page is the run's next; else nothing is stored
   * (a run resumed elsewhere stores that page itself) and the page is given back uncharged.
   */
  private async storePage(run: RunRow, search: TrackedSearchRow, page: number, owner: string, items: ListingItem[], allowanceId: string | null): Promise<StoredPage> {
    return withTransaction(this.deps.db, async (trx) => {
      const current = await lockRun(trx, run.id);
      const task = await lockTaskByKey(trx, runTaskKey(run.id));
      const tracked = await lockTrackedSearch(trx, run.trackedSearchId);
      if (!current || !tracked || current.status !== 'running' || task?.leaseOwner !== owner || current.nextPage !== page) return { stored: false, ended: false };
      const now = this.deps.now();
      const sales: NewSale[] = items.map((item) => {
        // A sale whose page showed no date is dated the day it was first seen, in its statistics too.
        const soldDate = item.soldDate ?? dateOf(now);
        return {
          itemId: item.itemId,
          soldDate,
          counted: countedByItself(item.comps),
          conditionGroup: item.comps.condition,
          statsItem: encodeStatsItem({ ...statsItemOf(item, item.comps), soldDate }),
          item: JSON.stringify(item),
        };
      });
      const fresh = await insertNewSales(trx, { trackedSearchId: search.id, workspaceId: search.workspaceId, runId: run.id, firstSeenAt: now }, sales);
      if (fresh.length > 0) {
        const dates = fresh.map((sale) => sale.soldDate).sort();
        await addToArchiveFigures(trx, search.id, { sales: fresh.length, firstSoldDate: dates[0]!, lastSoldDate: dates.at(-1)! });
      }
      // Counted as charged with the store: until the charge is handed over, the page says so (a process that dies in between leaves it to the sweep).
      await recordRunPage(trx, run.id, { page, newSales: fresh.length, chargePending: { since: now, allowanceId } });
      const distinct = new Set(items.map((item) => item.itemId));
      const stop = runStopOf({
        rows: items.length,
        newSales: fresh.length,
        seenThisRun: fresh.length === 0 && distinct.size > 0 ? await countSalesOfRun(trx, search.id, run.id, [...distinct]) === distinct.size : false,
        page,
        maxPages: tracked.maxPagesPerRun,
      });
      if (stop) await finishRun(trx, run.id, { status: 'completed', stopReason: stop }, now);
      return { stored: true, ended: stop !== null };
    });
  }

  /** A failed page: a retry after a pause when the failure may pass (until the retries are spent), else the run ends failed. */
  private async failed(run: RunRow, error: AppError, owner: string): Promise<TaskOutcome> {
    if (error.code === 'quota_exhausted') return this.end(run, { status: 'failed', stopReason: 'quota_exhausted', error: { code: error.code, message: error.message } }, owner);
    const current = await findRun(this.deps.db, run.id);
    const delay = RETRYABLE.has(error.code) ? retryDelayMs(this.retry, (current?.attempts ?? run.attempts) + 1, this.deps.random) : null;
    if (delay !== null) {
      await countRunAttempt(this.deps.db, run.id);
      return { next: 'later', runAt: new Date(this.deps.now().getTime() + delay) };
    }
    return this.end(run, { status: 'failed', stopReason: 'error', error: { code: error.code, message: error.message } }, owner);
  }

  /** Ends the run, if this process still holds it (one that took it over meanwhile decides its end). */
  private async end(run: RunRow, end: RunEnd, owner: string): Promise<TaskOutcome> {
    await withTransaction(this.deps.db, async (trx) => {
      if (!(await lockRun(trx, run.id))) return;
      const task = await lockTaskByKey(trx, runTaskKey(run.id));
      if (task?.leaseOwner !== owner) return;
      await finishRun(trx, run.id, end, this.deps.now());
    });
    return { next: 'settled' };
  }
}
