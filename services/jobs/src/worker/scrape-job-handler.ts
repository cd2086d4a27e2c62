import { statsItemOf } from '@comps/shared/comps/listing-comps';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import { jobPageQuery } from '@comps/shared/contract/job';
import type { ListingItem } from '@comps/shared/contract/listing';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { newRequestId } from '@comps/shared/ids';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { Meter, MeterOutcome } from '@comps/shared/metering/meter';
import type { JobRow, JobsDb, TaskRow } from '../db/database.js';
import { finishJob, type JobEnd } from '../jobs/finish-job.js';
import {
  ACTIVE_STATUSES,
  clearJobPagesChargePending,
  countAttempt,
  findJob,
  insertNewItems,
  listCancelRequested,
  lockJob,
  markStarted,
  pageRequestId,
  recordPage,
} from '../jobs/job-repository.js';
import { statsIncludeOf } from '../jobs/job-stats.js';
import { encodeStatsItem } from '../jobs/stats-item-column.js';
import { jobTaskKey, SCRAPE_JOB_TASK } from '../jobs/job-task.js';
import { retryDelayMs, type RetryPolicy } from '../tasks/retry-policy.js';
import { lockTaskByKey } from '../tasks/task-repository.js';
import type { TaskContext, TaskHandler, TaskOutcome } from '../tasks/task-runner.js';
import { stopRuleOf } from './stop-rules.js';

/** The path a job page's history entry names: the request that started the job. */
export const JOB_PAGE_HISTORY_PATH = '/v1/scrape/max';

export interface ScrapeJobOptions {
  /**
   * Pages of one job a turn may have in flight at once (within the workspace's concurrency and the
   * runner's free slots): the next ones are fetched while the first is read and stored, and are
   * charged only once every page before them was stored and the job still wants them.
   */
  pagesAhead: number;
  /** A page's retries after a failure that may pass, and their backoff. */
  retry: RetryPolicy;
}

export interface ScrapeJobDeps {
  db: JobsDb;
  meter: Pick<Meter, 'run'>;
  /** The workspace's concurrency (its plan's, with the operator's overrides). */
  concurrencyOf: (workspaceId: string) => Promise<number>;
  logger: Logger;
  now: () => Date;
  random: () => number;
}

/** Failures worth a retry after a pause: the marketplace or a dependency was busy, not wrong. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['upstream_timeout', 'upstream_rate_limited', 'service_unavailable']);

/** What storing a delivered page did: whether it was stored, and whether the job goes on after it. */
interface StoredPage {
  stored: boolean;
  goOn: boolean;
}

/** A page's place in its turn: whether the job wants it once the pages before it are stored, and what it tells the pages after it. */
interface PageTurn {
  wanted: Promise<boolean>;
  /** It holds its quota: the next page may start. */
  onReserved: () => void;
  /** It was stored and the job goes on (true), or not: the next page may be stored, or is not wanted. */
  onStored: (goOn: boolean) => void;
}

/** What running one page gave: the meter's outcome, or a dependency that failed around it. */
type PageRun = { outcome: MeterOutcome; stored: StoredPage } | { failure: AppError } | { notStarted: true };

/** A dependency that failed before or around a call (accounts or the database): retryable. */
function asAppError(error: unknown): AppError {
  return error instanceof AppError ? error : new AppError('service_unavailable', 'A dependency failed', { cause: error });
}

/** A promise and the function that settles it (Promise.withResolvers is Node 22). */
function gate(): { opened: Promise<boolean>; open: (wanted: boolean) => void } {
  let open!: (wanted: boolean) => void;
  const opened = new Promise<boolean>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** What `wanted` says, or false once `signal` aborts first (a stopping runner stores nothing more). */
function untilAbandoned(wanted: Promise<boolean>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const stop = () => resolve(false);
    signal.addEventListener('abort', stop, { once: true });
    void wanted.then((value) => {
      signal.removeEventListener('abort', stop);
      resolve(value);
    });
  });
}

/**
 * Background search jobs on the task runner: a job's task (created with the job) is run a turn at
 * a time. A turn fetches up to a few pages of the job together but stores and charges them in
 * order: a page is charged only once the pages before it were stored and the job still wants it,
 * so a page fetched past the one that ended the job costs the customer nothing. After its turn the
 * job goes back in line (its task's time is now), so jobs take turns and a 100-page job does not
 * hold back a 2-page one. Each page is one metered call under its own request id (made once per
 * page: a retried page is never charged twice), waiting for the workspace's concurrency and the
 * shared capacity rather than failing. The job ends in finishJob, in the transaction of whatever
 * ended it.
 */
export class ScrapeJobHandler implements TaskHandler {
  readonly kind = SCRAPE_JOB_TASK;
  readonly maxSlots: number;
  /** Per job in its turn: ends its pages' wait for admission when the job is cancelled. */
  private readonly waits = new Map<string, AbortController>();

  constructor(
    private readonly deps: ScrapeJobDeps,
    private readonly options: ScrapeJobOptions,
  ) {
    this.maxSlots = options.pagesAhead;
  }

  /**
   * The job was cancelled: its pages still waiting for admission stop waiting (nothing was taken,
   * nothing is charged). A page already admitted runs to its end, and is charged if it succeeds.
   */
  stopWaiting(jobId: string): void {
    this.waits.get(jobId)?.abort();
  }

  /** A cancellation asked of another process is seen when this one renews its leases. */
  async afterRenewal(held: TaskRow[]): Promise<void> {
    const jobIds = held.map((task) => (JSON.parse(task.payload) as { jobId: string }).jobId);
    for (const jobId of await listCancelRequested(this.deps.db, jobIds)) this.stopWaiting(jobId);
  }

  /** A turn lost to another process: its pages waiting for admission need not wait (its stores are refused anyway). */
  onLost(tasks: TaskRow[]): void {
    for (const task of tasks) this.stopWaiting((JSON.parse(task.payload) as { jobId: string }).jobId);
  }

  async run(payload: unknown, context: TaskContext): Promise<TaskOutcome> {
    const { jobId } = payload as { jobId: string };
    const job = await findJob(this.deps.db, jobId);
    // A job that ended meanwhile (its task outlived it) has nothing left to run.
    if (!job || !ACTIVE_STATUSES.includes(job.status)) return { next: 'done' };
    const wait = new AbortController();
    this.waits.set(jobId, wait);
    try {
      return await this.runTurn(job, context, wait.signal);
    } finally {
      this.waits.delete(jobId);
    }
  }

  /**
   * One turn of a job: up to its slots' worth of pages fetched together, then read in order. Page n
   * + 1 is charged only after page n was stored and did not end the job; once a page ends the turn
   * (a stop rule, a failure, a cancellation, a stop of this process), the pages after it are given back.
   */
  private async runTurn(job: JobRow, context: TaskContext, stopWaiting: AbortSignal): Promise<TaskOutcome> {
    const now = this.deps.now();
    if (job.cancelRequested) return this.end(job, { status: 'cancelled', stopReason: 'cancelled' });
    let concurrency: number;
    try {
      await markStarted(this.deps.db, job.id, now);
      concurrency = await this.deps.concurrencyOf(job.workspaceId);
    } catch (error) {
      return this.failed(job, asAppError(error));
    }
    const count = Math.max(1, Math.min(context.slots, this.options.pagesAhead, concurrency, job.maxPages - job.nextPage + 1));
    context.giveBack(context.slots - count);
    // Stored and charged in page order (`stored`); started in page order too, each once the page before
    // it holds its quota (`reserved`), so that a quota running out mid-turn stops the job at the right page.
    const stored = Array.from({ length: count }, gate);
    stored[0]!.open(true);
    const runs: Promise<PageRun>[] = [];
    let previousReserved = Promise.resolve(true);
    for (const [index, pageStored] of stored.entries()) {
      const reserved = gate();
      const startWhen = previousReserved;
      runs.push(
        startWhen
          .then((start) => {
            if (!start) return { notStarted: true as const };
            // The next page is stored as soon as this one is (not once its charge is handed over), if the job still wants it.
            const turn = { wanted: pageStored.opened, onReserved: () => reserved.open(true), onStored: (goOn: boolean) => stored[index + 1]?.open(goOn) };
            return this.runPage(job, job.nextPage + index, concurrency, turn, context, stopWaiting);
          })
          .finally(() => reserved.open(false)),
      );
      previousReserved = reserved.opened;
    }
    let outcome: TaskOutcome = { next: 'later', runAt: now };
    let wanted = true;
    let settled = 0;
    try {
      for (const [index, run] of runs.entries()) {
        const result = await run;
        if (wanted) {
          const next = await this.settlePage(job, result, context, stopWaiting);
          if (next) {
            outcome = next;
            wanted = false;
          }
        }
        context.giveBack(1);
        settled += 1;
        stored[index + 1]?.open(wanted);
      }
    } finally {
      // Settling a page failed (the database): the pages after it are not wanted, and give back what they
      // hold before the turn ends (a page waiting to be stored would otherwise hold its permits). The
      // task's lease lapses; the job is then taken over from its first page not stored.
      for (const later of stored.slice(settled + 1)) later.open(false);
      const results = await Promise.allSettled(runs);
      await this.handedOver(job.id, results.map((result): PageRun => (result.status === 'fulfilled' ? result.value : { notStarted: true })), job.nextPage);
    }
    // After a turn the job goes back in line: its task's time is now.
    return outcome.next === 'later' && wanted ? { next: 'later', runAt: this.deps.now() } : outcome;
  }

  /**
   * One page: a metered call whose answer is delivered by storing it, once every page before it in
   * the turn was stored and the job still wants more (`wanted`); a page the job no longer wants is
   * given back uncharged.
   */
  private async runPage(job: JobRow, page: number, concurrency: number, turn: PageTurn, context: TaskContext, stopWaiting: AbortSignal): Promise<PageRun> {
    let stored: StoredPage = { stored: false, goOn: false };
    try {
      const requestId = await pageRequestId(this.deps.db, job.id, page, newRequestId());
      const outcome = await this.deps.meter.run({
        workspace: { id: job.workspaceId, concurrency },
        requestId,
        call: { kind: 'search', query: jobPageQuery({ ...job, statsInclude: statsIncludeOf(job) }, page) },
        signal: context.signal,
        stopWaiting,
        patience: 'patient',
        onReserved: turn.onReserved,
        deliver: async ({ value, allowanceId }) => {
          // The rows are made now, while the page waits for its turn: flat strings, where the items are
          // thousands of small objects that every young collection meanwhile would copy.
          const rows = storedRowsOf(value.items, page);
          if (!(await untilAbandoned(turn.wanted, context.signal))) return false;
          stored = await this.storePage(job, page, context.owner, rows, allowanceId);
          turn.onStored(stored.stored && stored.goOn);
          return stored.stored;
        },
        history: { method: 'POST', path: JOB_PAGE_HISTORY_PATH, jobId: job.id, apiKeyId: job.apiKeyId, apiKeyPrefix: job.apiKeyPrefix },
      });
      return { outcome, stored };
    } catch (error) {
      // A dependency failed before or around the call (accounts or the database): a retryable failure.
      const failure = asAppError(error);
      if (failure.code !== 'service_unavailable') this.deps.logger.error({ err: error, jobId: job.id }, 'job page failed');
      return { failure };
    }
  }

  /** A page's outcome, in page order (its items were stored as it was delivered); what follows the turn when this page ends it, else null. */
  private async settlePage(job: JobRow, result: PageRun, context: TaskContext, stopWaiting: AbortSignal): Promise<TaskOutcome | null> {
    // Only a page after one that failed to start is not started, and the turn has ended before it.
    if ('notStarted' in result) return { next: 'settled' };
    if ('failure' in result) return this.failed(job, result.failure);
    const { outcome, stored } = result;
    switch (outcome.kind) {
      case 'delivered':
        // Counted as charged when it was stored (a charge that neither Redis nor accounts took is the sweep's to decide).
        // A page that ended the job ended it with its store (finishJob, same transaction).
        return stored.goOn ? null : { next: 'settled' };
      case 'undelivered':
        // Stopping: the page goes back (its lease let go now, not when it lapses). Else another process
        // took the job over, or the job ended before this page: nothing more to do.
        return context.signal.aborted ? { next: 'later', runAt: this.deps.now() } : { next: 'settled' };
      case 'abandoned':
        if (stopWaiting.aborted && !context.signal.aborted) {
          // Cancelled while it waited for its turn: nothing was fetched or charged.
          return this.end(job, { status: 'cancelled', stopReason: 'cancelled' });
        }
        // Stopping: the page goes back as it was; whoever runs it next uses the same request id.
        return { next: 'later', runAt: this.deps.now() };
      case 'failed':
        return this.failed(job, outcome.error);
    }
  }

  /**
   * The turn's pages whose charges were handed over (or settled) wait no more: one statement a turn. Those
   * it could do neither with wait for the sweep (settle-pending-charges.ts decides them, by request id);
   * so do these if this fails, or the process dies first, and the sweep settles them again: once.
   */
  private async handedOver(jobId: string, results: PageRun[], firstPage: number): Promise<void> {
    const pages = results.flatMap((result, index) => ('outcome' in result && result.outcome.kind === 'delivered' && result.outcome.charged ? [firstPage + index] : []));
    if (pages.length === 0) return;
    await clearJobPagesChargePending(this.deps.db, jobId, pages).catch((error: unknown) =>
      this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error), jobId, pages }, 'handed-over charges are still marked waiting; the sweep settles them'),
    );
  }

  /** Stores a delivered page's items and moves the job on (ending it when a stop rule says so), if this process still holds the job's task and the page is the job's next. */
  private async storePage(job: JobRow, page: number, owner: string, rows: StoredRow[], allowanceId: string | null): Promise<StoredPage> {
    return withTransaction(this.deps.db, async (trx) => {
      const current = await lockJob(trx, job.id);
      const task = await lockTaskByKey(trx, jobTaskKey(job.id));
      // A lease lost meanwhile (this process could not renew it in time, e.g. a stalled database): the new
      // holder fetches the page again under the same request id, so the ledger charges it once. A page
      // that is not the job's next one was stored already: never twice.
      if (!current || task?.leaseOwner !== owner || !ACTIVE_STATUSES.includes(current.status) || current.nextPage !== page) return { stored: false, goOn: false };
      const { newItems, statsItems } = await insertNewItems(trx, job.id, page, rows);
      // Counted as charged with the store: until the charge is handed over, the page says so (a process that dies in between leaves it to the sweep).
      await recordPage(trx, job.id, { page, newItems, statsItems, chargePending: { since: this.deps.now(), allowanceId } });
      const stop = stopRuleOf({ rows: rows.length, newItems, page, maxPages: current.maxPages, cancelRequested: current.cancelRequested === 1 });
      if (stop) await finishJob(trx, job.id, stop, this.deps.now());
      return { stored: true, goOn: !stop };
    });
  }

  /** A failed page: a retry after a pause when the failure may pass, else the job ends (failed, or cancelled if asked). */
  private async failed(job: JobRow, error: AppError): Promise<TaskOutcome> {
    const current = await findJob(this.deps.db, job.id);
    if (current?.cancelRequested) return this.end(job, { status: 'cancelled', stopReason: 'cancelled' });
    if (error.code === 'quota_exhausted') return this.end(job, { status: 'failed', stopReason: 'quota_exhausted', error: { code: error.code, message: error.message } });
    const delay = RETRYABLE.has(error.code) ? retryDelayMs(this.options.retry, (current?.attempts ?? job.attempts) + 1, this.deps.random) : null;
    if (delay !== null) {
      await countAttempt(this.deps.db, job.id);
      return { next: 'later', runAt: new Date(this.deps.now().getTime() + delay) };
    }
    return this.end(job, { status: 'failed', stopReason: 'error', error: { code: error.code, message: error.message } });
  }

  private async end(job: JobRow, end: JobEnd): Promise<TaskOutcome> {
    await withTransaction(this.deps.db, (trx) => finishJob(trx, job.id, end, this.deps.now()));
    return { next: 'settled' };
  }
}

/** A page's items as they are stored: each one's JSON (with its page) and its compact statistics entry. */
type StoredRow = { itemId: string; item: string; statsItem: string };

function storedRowsOf(items: ListingItem[], page: number): StoredRow[] {
  return items.map((item) => ({ itemId: item.itemId, item: JSON.stringify({ ...item, page }), statsItem: encodeStatsItem(statsItemOf(item, item.comps)) }));
}
