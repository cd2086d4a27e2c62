import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import { jobPageQuery } from '@comps/shared/contract/job';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { newRequestId } from '@comps/shared/ids';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { ListingItem } from '@comps/shared/contract/listing';
import type { Meter, MeterOutcome } from '@comps/shared/metering/meter';
import { abortableSleep } from '@comps/shared/runtime/abortable-sleep';
import type { JobRow, JobsDb } from '../db/database.js';
import { ACTIVE_STATUSES, claimJobs, endJob, findJob, insertNewItems, lockJob, pageRequestId, recordPage, renewLeases, retryLater, uncountCharge, type AfterPage, type JobEnd } from '../jobs/job-repository.js';
import { RETENTION_MS } from '../jobs/job-service.js';
import { stopRuleOf } from './stop-rules.js';

export interface WorkerOptions {
  /** Pages in flight at once in this process, across all jobs. */
  concurrency: number;
  /**
   * Pages of one job a turn may have in flight at once (within the workspace's concurrency and this
   * process's free slots): the next ones are fetched while the first is read and stored, and are
   * charged only once every page before them was stored and the job still wants them.
   */
  pagesAhead: number;
  /** A job's lease; renewed every third of it while this process works on the job. */
  leaseMs: number;
  /** How often the worker looks for work when nothing woke it. */
  pollMs: number;
  /** Tries of a page after a retryable failure, beyond the first. */
  retries: number;
  /** The first retry waits this long; each next one twice as long. */
  backoffMs: number;
}

export interface WorkerDeps {
  db: JobsDb;
  meter: Meter;
  /** The workspace's concurrency (its plan's, with the operator's overrides). */
  concurrencyOf: (workspaceId: string) => Promise<number>;
  logger: Logger;
  now: () => Date;
}

/** Failures worth a retry after a pause: the marketplace or a dependency was busy, not wrong. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['upstream_timeout', 'upstream_rate_limited', 'service_unavailable']);

/** What storing a delivered page did: whether it was stored, and whether the job goes on after it. */
interface StoredPage {
  stored: boolean;
  goOn: boolean;
}

/** What running one page gave: the meter's outcome, or a dependency that failed around it. */
type PageRun = { outcome: MeterOutcome; stored: StoredPage } | { failure: AppError } | { notStarted: true };

/** What `wanted` says, or false once `signal` aborts first (a stopping worker stores nothing more). */
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

/**
 * The scheduled worker of background jobs. It claims jobs from MySQL (FOR UPDATE SKIP LOCKED, so
 * several processes share the work without taking the same job), holds a lease on each while it
 * works, and gives each job a turn of a few pages: the job then goes back to the end of the line, so
 * jobs take turns and a 100-page job does not hold back a 2-page one. Within a turn the pages are
 * fetched together but stored and charged in order: a page is charged only once the pages before
 * it were stored and the job still wants it, so a page fetched past the one that ended the job costs
 * the customer nothing. Each page is one metered call under its own request id (made once per page:
 * a retried page is never charged twice), waiting for the workspace's concurrency and the shared
 * capacity rather than failing.
 */
export class JobWorker {
  readonly owner = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  /** The jobs this process holds, by id: their turns in progress. */
  private readonly turns = new Map<string, Promise<void>>();
  /** Page slots taken, of `concurrency`. */
  private pagesInFlight = 0;
  /** Per job in its turn: ends its pages' wait for admission when the job is cancelled. */
  private readonly waits = new Map<string, AbortController>();
  private readonly abandon = new AbortController();
  private renewal: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | null = null;
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;
  private woken = false;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly options: WorkerOptions,
  ) {
    // Every page in flight listens to it: as many listeners as pages, by design.
    setMaxListeners(0, this.abandon.signal);
  }

  start(): void {
    this.loop = this.run();
    this.renewal = setInterval(() => {
      // One renewal at a time; shutdown waits for the one running.
      this.renewing ??= this.renewHeld().finally(() => {
        this.renewing = null;
      });
    }, Math.max(200, Math.floor(this.options.leaseMs / 3)));
    this.renewal.unref();
  }

  /**
   * The job was cancelled: its pages still waiting for admission stop waiting (nothing was taken,
   * nothing is charged). A page already admitted runs to its end, and is charged if it succeeds.
   */
  stopWaiting(jobId: string): void {
    this.waits.get(jobId)?.abort();
  }

  /** A job may be waiting: look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      const free = this.options.concurrency - this.pagesInFlight;
      let claimed: JobRow[] = [];
      if (free > 0) {
        try {
          const now = this.deps.now();
          claimed = await withTransaction(this.deps.db, (trx) => claimJobs(trx, this.owner, now, new Date(now.getTime() + this.options.leaseMs), free, [...this.turns.keys()]));
        } catch (error) {
          this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'claiming jobs failed; will retry');
        }
        // The free slots are shared out among the jobs claimed together.
        const share = Math.max(1, Math.floor(free / Math.max(1, claimed.length)));
        for (const job of claimed) this.startTurn(job, share);
      }
      if (claimed.length > 0 && claimed.length === free) continue;
      if (!this.woken) await this.nextWake();
    }
  }

  private nextWake(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeUp = null;
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private startTurn(job: JobRow, slots: number): void {
    const wait = new AbortController();
    this.waits.set(job.id, wait);
    this.pagesInFlight += slots;
    let held = slots;
    const giveBack = (count: number) => {
      held -= count;
      this.pagesInFlight -= count;
      if (count > 0) this.wake();
    };
    const turn = this.runTurn(job, slots, wait.signal, giveBack)
      .catch((error: unknown) => this.deps.logger.error({ err: error, jobId: job.id }, 'job turn failed unexpectedly'))
      .finally(() => {
        giveBack(held);
        if (this.turns.get(job.id) === turn) {
          this.turns.delete(job.id);
          this.waits.delete(job.id);
        }
      });
    this.turns.set(job.id, turn);
  }

  /**
   * One turn of a job: up to `slots` pages fetched together, then read in order. Page n + 1 is
   * charged only after page n was stored and did not end the job; once a page ends the turn (a stop
   * rule, a failure, a cancellation, a stop of this process), the pages after it are given back.
   */
  private async runTurn(job: JobRow, slots: number, stopWaiting: AbortSignal, giveBack: (count: number) => void): Promise<void> {
    if (job.cancelRequested) {
      await this.end(job, { status: 'cancelled', stopReason: 'cancelled' });
      return;
    }
    let concurrency: number;
    try {
      concurrency = await this.deps.concurrencyOf(job.workspaceId);
    } catch (error) {
      await this.failed(job, asAppError(error));
      return;
    }
    const count = Math.max(1, Math.min(slots, this.options.pagesAhead, concurrency, job.maxPages - job.nextPage + 1));
    giveBack(slots - count);
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
          .then((start) => (start ? this.runPage(job, job.nextPage + index, index === count - 1, concurrency, pageStored.opened, stopWaiting, () => reserved.open(true)) : { notStarted: true as const }))
          .finally(() => reserved.open(false)),
      );
      previousReserved = reserved.opened;
    }
    let wanted = true;
    let settled = 0;
    try {
      for (const [index, run] of runs.entries()) {
        const result = await run;
        if (wanted) wanted = await this.settlePage(job, result, stopWaiting);
        giveBack(1);
        settled += 1;
        stored[index + 1]?.open(wanted);
      }
    } finally {
      // Storing a page failed (the database): the pages after it are not wanted, and give back what they
      // hold before the turn ends (a page waiting for its confirmation would otherwise hold its permits).
      // The job keeps its lease until it lapses; then it is taken over from its first page not stored.
      for (const later of stored.slice(settled + 1)) later.open(false);
      await Promise.allSettled(runs);
    }
  }

  /**
   * One page: a metered call whose answer is delivered by storing it, once every page before it in
   * the turn was stored and the job still wants more (`wanted`); a page the job no longer wants is
   * given back uncharged.
   */
  private async runPage(job: JobRow, page: number, lastOfTurn: boolean, concurrency: number, wanted: Promise<boolean>, stopWaiting: AbortSignal, onReserved: () => void): Promise<PageRun> {
    let stored: StoredPage = { stored: false, goOn: false };
    try {
      const requestId = await pageRequestId(this.deps.db, job.id, page, newRequestId());
      const outcome = await this.deps.meter.run({
        workspace: { id: job.workspaceId, concurrency },
        requestId,
        call: { kind: 'search', query: jobPageQuery(job, page) },
        signal: this.abandon.signal,
        stopWaiting,
        patience: 'patient',
        onReserved,
        deliver: async ({ value }) => {
          if (!(await untilAbandoned(wanted, this.abandon.signal))) return false;
          stored = await this.storePage(job, page, lastOfTurn, value.items);
          return stored.stored;
        },
        history: { method: 'POST', path: '/v1/scrape/max', jobId: job.id, apiKeyId: job.apiKeyId, apiKeyPrefix: job.apiKeyPrefix },
      });
      return { outcome, stored };
    } catch (error) {
      // A dependency failed before or around the call (accounts or the database): a retryable failure.
      const failure = asAppError(error);
      if (failure.code !== 'service_unavailable') this.deps.logger.error({ err: error, jobId: job.id }, 'job page failed');
      return { failure };
    }
  }

  /** A page's outcome, in page order (its items were stored as it was delivered); whether the job goes on to the next page of the turn. */
  private async settlePage(job: JobRow, result: PageRun, stopWaiting: AbortSignal): Promise<boolean> {
    // Only a page after one that failed to start is not started, and the turn has ended before it.
    if ('notStarted' in result) return false;
    if ('failure' in result) {
      await this.failed(job, result.failure);
      return false;
    }
    const { outcome, stored } = result;
    switch (outcome.kind) {
      case 'delivered':
        // Counted as charged when it was stored; a charge that neither Redis nor accounts took is not one.
        if (!outcome.charged) await uncountCharge(this.deps.db, job.id);
        return stored.goOn;
      case 'undelivered':
        return false;
      case 'abandoned':
        if (stopWaiting.aborted && !this.abandon.signal.aborted) {
          // Cancelled while it waited for its turn: nothing was fetched or charged.
          await this.end(job, { status: 'cancelled', stopReason: 'cancelled' });
        } else {
          // Stopping: the page goes back as it was; whoever runs it next uses the same request id.
          await retryLater(this.deps.db, job.id, this.owner, this.deps.now(), false);
        }
        return false;
      case 'failed':
        await this.failed(job, outcome.error);
        return false;
    }
  }

  /** Stores a delivered page's items and moves the job on (or ends it), if this process still holds the job and the page is its next. */
  private async storePage(job: JobRow, page: number, lastOfTurn: boolean, items: ListingItem[]): Promise<StoredPage> {
    return withTransaction(this.deps.db, async (trx) => {
      const current = await lockJob(trx, job.id);
      // A lease lost meanwhile (this process could not renew it in time, e.g. a stalled database): the new
      // holder fetches the page again under the same request id, so the ledger charges it once. A page
      // that is not the job's next one was stored already: never twice.
      if (!current || current.leaseOwner !== this.owner || !ACTIVE_STATUSES.includes(current.status) || current.nextPage !== page) return { stored: false, goOn: false };
      const newItems = await insertNewItems(trx, job.id, page, items.map((item) => ({ itemId: item.itemId, item: JSON.stringify({ ...item, page }) })));
      const now = this.deps.now();
      const stop = stopRuleOf({ rows: items.length, newItems, page, maxPages: current.maxPages, cancelRequested: current.cancelRequested === 1 });
      const next: AfterPage = stop ? { end: { ...stop, at: now, expiresAt: new Date(now.getTime() + RETENTION_MS) } } : lastOfTurn ? { runAt: now } : { holdLease: true };
      await recordPage(trx, job.id, { charged: true, newItems }, next);
      return { stored: true, goOn: !stop };
    });
  }

  /** A failed page: a retry after a pause when the failure may pass, else the job ends (failed, or cancelled if asked). */
  private async failed(job: JobRow, error: AppError): Promise<void> {
    const current = await findJob(this.deps.db, job.id);
    if (current?.cancelRequested) {
      await this.end(job, { status: 'cancelled', stopReason: 'cancelled' });
      return;
    }
    if (error.code === 'quota_exhausted') {
      await this.end(job, { status: 'failed', stopReason: 'quota_exhausted', error: { code: error.code, message: error.message } });
      return;
    }
    if (RETRYABLE.has(error.code) && (current?.attempts ?? job.attempts) < this.options.retries) {
      const attempt = current?.attempts ?? job.attempts;
      const wait = this.options.backoffMs * 2 ** attempt;
      await retryLater(this.deps.db, job.id, this.owner, new Date(this.deps.now().getTime() + wait), true);
      return;
    }
    await this.end(job, { status: 'failed', stopReason: 'error', error: { code: error.code, message: error.message } });
  }

  private async end(job: JobRow, end: Pick<JobEnd, 'status' | 'stopReason' | 'error'>): Promise<void> {
    const now = this.deps.now();
    await endJob(this.deps.db, job.id, { ...end, at: now, expiresAt: new Date(now.getTime() + RETENTION_MS) }, this.owner);
  }

  private async renewHeld(): Promise<void> {
    const held = [...this.turns.keys()];
    if (held.length === 0) return;
    try {
      const { lost, cancelRequested } = await renewLeases(this.deps.db, this.owner, held, new Date(this.deps.now().getTime() + this.options.leaseMs));
      if (lost.length > 0) this.deps.logger.warn({ lost }, 'job leases lost to another worker');
      // A cancellation asked of another process: pages still waiting for their turn stop waiting.
      for (const jobId of cancelRequested) this.stopWaiting(jobId);
    } catch (error) {
      this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'job lease renewal failed');
    }
  }

  /**
   * Stops claiming; pages in flight get `graceMs` to finish (charged and stored as usual), then are
   * abandoned (charged nothing, put back for the next worker under the same request id).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    const pages = Promise.all(this.turns.values());
    await Promise.race([pages, abortableSleep(graceMs)]);
    this.abandon.abort(new AppError('service_unavailable', 'The jobs service is stopping'));
    await pages;
    clearInterval(this.renewal);
    await this.renewing;
  }
}
