import t from 'tap';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { compsOfListings } from '@comps/shared/comps/listing-comps';
import type { ListingRow } from '@comps/shared/contract/listing';
import { createDb } from '@comps/shared/db/create-db';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { newTaskId } from '@comps/shared/ids';
import { createLogger } from '@comps/shared/logging/create-logger';
import type { MeteredCall, MeterOutcome } from '@comps/shared/metering/meter';
import type { MarketCall } from '@comps/shared/market/market-call';
import type { JobsDatabase } from '../../../services/jobs/src/db/database.js';
import { insertJob, requestCancel } from '../../../services/jobs/src/jobs/job-repository.js';
import { jobTaskKey, SCRAPE_JOB_TASK } from '../../../services/jobs/src/jobs/job-task.js';
import { insertTask } from '../../../services/jobs/src/tasks/task-repository.js';
import { TaskRunner } from '../../../services/jobs/src/tasks/task-runner.js';
import { ScrapeJobHandler } from '../../../services/jobs/src/worker/scrape-job-handler.js';
import { eventually } from '../../helpers/http-client.js';
import { prepareTestDatabase, TEST_DATABASE_URL } from '../../helpers/test-env.js';

// In-process: the job worker's turns on the task runner, the file's own database, and a meter double
// whose every page is scripted (no Redis, no accounts, no marketplace).
await prepareTestDatabase();
const db = createDb<JobsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 10, isolation: 'read committed' });
t.teardown(() => db.destroy());
const logger = createLogger('job-turns-test', 'silent');
const quota = { limit: 100, used: 0, remaining: 100 };

type Script = (page: number, input: MeteredCall<MarketCall>, tries: number) => Promise<MeterOutcome>;

/** A meter that runs each page as the script says; a page it answers is delivered with `rows` items. */
function meterDouble(script: Script) {
  const tries = new Map<number, number>();
  const delivered: number[] = [];
  return {
    delivered,
    meter: {
      run: async (input: MeteredCall<MarketCall>): Promise<MeterOutcome> => {
        const page = input.call.kind === 'item' ? 0 : input.call.query.page;
        tries.set(page, (tries.get(page) ?? 0) + 1);
        return script(page, input, tries.get(page)!);
      },
    },
  };
}

/** A sold listing as a page shows it. */
function listingRow(itemId: string, title: string): ListingRow {
  return {
    itemId, title, url: `https://market.example/itm/${itemId}`, imageUrl: null, condition: 'Pre-Owned', sold: true, soldDate: '2026-11-20', soldDateText: 'Sold  Nov 20, 2026',
    soldDateVerified: false, price: { value: 20, currency: 'USD' }, priceText: '$20.00', priceIsDisplayedOnly: false, bestOfferAccepted: false, buyingFormat: 'buyItNow',
    bidCount: null, shipping: { value: 0, currency: 'USD' }, shippingText: 'Free delivery', seller: null, location: null, looseMatch: false,
  };
}

/** Whether each stored page's charge waited for its handover when the page was delivered, and with which allowance. */
const waitingAtDelivery = new Map<string, { waiting: boolean; allowanceId: string | null }>();

/** A page that the meter answers with `rows` items (ids unique per page), delivered and charged if stored. */
async function answer(input: MeteredCall<MarketCall>, page: number, rows: number, delivered: number[]): Promise<MeterOutcome> {
  input.onReserved?.();
  const listings = Array.from({ length: rows }, (_, row) => listingRow(String(100_000_000_000 + page * 1000 + row), `item ${page}.${row}`));
  const { items } = compsOfListings(listings, { keyword: 'item', site: 'market.com', basis: 'sold', include: [] });
  // Even pages took a unit of an allowance: the stored page keeps it until its charge is handed over.
  const received = await input.deliver({ value: { items } as never, quota, allowanceId: page % 2 === 0 ? 'alw_of_even_pages' : null });
  if (received === true) {
    delivered.push(page);
    const row = await db.selectFrom('jobPages').select(['chargePendingSince', 'chargeAllowanceId']).where('requestId', '=', input.requestId).executeTakeFirstOrThrow();
    waitingAtDelivery.set(input.requestId, { waiting: row.chargePendingSince !== null, allowanceId: row.chargeAllowanceId });
  }
  return received === true ? { kind: 'delivered', charged: true, quota } : { kind: 'undelivered', quota };
}

async function startJob(meter: ReturnType<typeof meterDouble>['meter'], maxPages: number) {
  const jobId = randomUUID();
  const workspaceId = `ws_${jobId.slice(0, 8)}`;
  const now = new Date();
  await withTransaction(db, async (trx) => {
    await insertJob(trx, {
      id: jobId, workspaceId, apiKeyId: null, apiKeyPrefix: null, status: 'queued', stopReason: null, keyword: 'lamp', marketSite: 'market.com', maxPages, count: 60,
      resultType: 'inline', errorCode: null, errorMessage: null, idempotencyKeyHash: null, requestFingerprint: 'x'.repeat(64), activeWorkspaceId: workspaceId,
      createdAt: now, startedAt: null, finishedAt: null, expiresAt: null,
    });
    await insertTask(trx, { id: newTaskId(), kind: SCRAPE_JOB_TASK, taskKey: jobTaskKey(jobId), payload: { jobId }, runAt: now, createdAt: now });
  });
  const handler = new ScrapeJobHandler({ db, meter, concurrencyOf: async () => 10, logger, now: () => new Date(), random: () => 0 }, { pagesAhead: 4, retry: { retries: 2, baseDelayMs: 20, maxDelayMs: 1000, jitter: 0 } });
  const runner = new TaskRunner({ db, logger, now: () => new Date(), random: () => 0 }, { concurrency: 8, leaseMs: 2000, pollMs: 50, retry: { retries: 1, baseDelayMs: 20, maxDelayMs: 100, jitter: 0 } }).handle(handler);
  await runner.start();
  let ended;
  try {
    ended = await eventually(`job ${jobId} ends`, async () => {
      const job = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
      return job && job.finishedAt ? job : undefined;
    });
  } finally {
    // Each job has a runner of its own (with its own meter): none may outlive it and take the next one.
    await runner.stop(500);
  }
  const events = (await db.selectFrom('events').selectAll().where('subjectId', '=', jobId).execute()).map((event) => ({ type: event.type, payload: JSON.parse(event.payload) as Record<string, unknown> }));
  const pages = (await sql<{ page: number }>`SELECT DISTINCT page FROM job_items WHERE job_id = ${jobId} ORDER BY page`.execute(db)).rows.map((row) => row.page);
  const task = await db.selectFrom('tasks').selectAll().where('taskKey', '=', jobTaskKey(jobId)).executeTakeFirst();
  return { ended, events, pages, task, handler, jobId };
}

t.test('a page whose charge could be handed neither to the outbox nor to accounts stays counted, waiting for the sweep', async (t) => {
  const double = meterDouble(async (page, input) => {
    const outcome = await answer(input, page, 5, double.delivered);
    return page === 2 && outcome.kind === 'delivered' ? { ...outcome, charged: false } : outcome;
  });
  const { ended, jobId } = await startJob(double.meter, 3);
  t.match(ended, { status: 'completed', pagesFetched: 3, pagesCharged: 3 }, 'counted with its store: the sweep decides it, by request id');
  const waiting = await db.selectFrom('jobPages').select(['page', 'chargeAllowanceId']).where('jobId', '=', jobId).where('chargePendingSince', 'is not', null).execute();
  t.strictSame(waiting, [{ page: 2, chargeAllowanceId: 'alw_of_even_pages' }], 'it alone still waits, with the allowance its unit came from');
});

t.test('pages are stored and charged in order, even when a later one is read first; the job ends once, with one event', async (t) => {
  const double = meterDouble(async (page, input) => {
    // Page 1 answers last: page 2 and 3 wait for it before they are stored.
    await new Promise((resolve) => setTimeout(resolve, page === 1 ? 150 : 10));
    return answer(input, page, 5, double.delivered);
  });
  const { ended, events, pages, task, jobId } = await startJob(double.meter, 3);
  t.match(ended, { status: 'completed', stopReason: 'max_pages', pagesFetched: 3, pagesCharged: 3, itemsCollected: 15, activeWorkspaceId: null });
  const pageRows = await db.selectFrom('jobPages').select(['requestId', 'chargePendingSince']).where('jobId', '=', jobId).orderBy('page').execute();
  t.strictSame(
    pageRows.map((row) => waitingAtDelivery.get(row.requestId)),
    [{ waiting: true, allowanceId: null }, { waiting: true, allowanceId: 'alw_of_even_pages' }, { waiting: true, allowanceId: null }],
    'each stored page said its charge waited, with its allowance, until the meter handed it over',
  );
  t.ok(pageRows.every((row) => row.chargePendingSince === null), 'none waits once the meter answered');
  t.strictSame(double.delivered, [1, 2, 3], 'delivered in page order');
  t.strictSame(pages, [1, 2, 3]);
  t.equal(task, undefined, 'the job\'s task is gone with it');
  t.equal(events.length, 1, 'one job.ended event');
  t.match(events[0], { type: 'job.ended', payload: { status: 'completed', stopReason: 'max_pages', progress: { pagesFetched: 3, pagesCharged: 3, itemsCollected: 15 } } });
});

t.test('a page is stored as soon as the one before it is, not once that one\'s charge is handed over', async (t) => {
  const events: string[] = [];
  const double = meterDouble(async (page, input) => {
    const outcome = await answer(input, page, 5, double.delivered);
    events.push(`stored ${page}`);
    // Page 1's charge is handed over only once page 3 is stored, or after 10 s (a slow outbox): the pages after it need
    // not wait for that. (Had they waited, page 1 would be handed over at 10 s, before page 3 is stored.)
    if (page === 1) for (let waited = 0; !events.includes('stored 3') && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    events.push(`handed over ${page}`);
    return outcome;
  });
  const { ended, pages, jobId } = await startJob(double.meter, 3);
  t.match(ended, { status: 'completed', stopReason: 'max_pages', pagesFetched: 3, pagesCharged: 3 });
  t.strictSame(pages, [1, 2, 3]);
  t.strictSame(double.delivered, [1, 2, 3], 'delivered in page order');
  const waiting = await db.selectFrom('jobPages').select('page').where('jobId', '=', jobId).where('chargePendingSince', 'is not', null).execute();
  t.strictSame(waiting, [], 'every charge handed over, none left waiting');
  t.strictSame(events.filter((event) => event.startsWith('stored')), ['stored 1', 'stored 2', 'stored 3'], 'stored in page order');
  t.ok(events.indexOf('stored 3') < events.indexOf('handed over 1'), `pages 2 and 3 were stored while page 1's charge was on its way (${events.join(', ')})`);
});

t.test('an empty page ends the job mid-turn: the page fetched after it is given back, not stored', async (t) => {
  const double = meterDouble(async (page, input) => answer(input, page, page === 2 ? 0 : 5, double.delivered));
  const { ended, events, pages } = await startJob(double.meter, 10);
  t.match(ended, { status: 'completed', stopReason: 'empty_page', pagesFetched: 2, itemsCollected: 5 });
  t.strictSame(double.delivered, [1, 2], 'pages 3 and 4 were read and not wanted');
  t.strictSame(pages, [1]);
  t.equal(events.length, 1);
});

t.test('a failure that may pass is retried with backoff; one that will not ends the job, failed, with its event', async (t) => {
  const flaky = meterDouble(async (page, input, tries) =>
    page === 1 && tries <= 2 ? { kind: 'failed', error: new AppError('upstream_timeout', 'slow'), quota } : answer(input, page, 5, flaky.delivered),
  );
  const retried = await startJob(flaky.meter, 1);
  t.match(retried.ended, { status: 'completed', stopReason: 'max_pages', pagesFetched: 1, attempts: 0 }, 'two timeouts, then the page: the count of tries reset');

  const blocked = meterDouble(async () => ({ kind: 'failed', error: new AppError('upstream_blocked', 'a bot check'), quota }));
  const failed = await startJob(blocked.meter, 5);
  t.match(failed.ended, { status: 'failed', stopReason: 'error', errorCode: 'upstream_blocked', pagesFetched: 0 });
  t.match(failed.events, [{ type: 'job.ended', payload: { status: 'failed', error: { code: 'upstream_blocked' } } }]);

  const exhausted = meterDouble(async () => ({ kind: 'failed', error: new AppError('upstream_timeout', 'slow'), quota }));
  const gaveUp = await startJob(exhausted.meter, 5);
  t.match(gaveUp.ended, { status: 'failed', stopReason: 'error', errorCode: 'upstream_timeout', attempts: 2 }, 'the first try and two retries, then failed');
});

t.test('a cancellation ends a job whose page waits for its turn: nothing fetched, one event', async (t) => {
  let jobOf: (() => string) | undefined;
  const waiting = meterDouble(async (_page, input) => {
    // The page waits for admission until the job is cancelled.
    await new Promise<void>((resolve) => input.stopWaiting!.addEventListener('abort', () => resolve(), { once: true }));
    return { kind: 'abandoned', error: new AppError('service_unavailable', 'stopped waiting'), quota: null };
  });
  const started = startJob(waiting.meter, 5);
  // Cancel as the api does: the flag, then this process's waits stop (another process would see it at its next renewal).
  await eventually('the job runs', async () => {
    const job = await db.selectFrom('jobs').select(['id', 'status']).where('status', '=', 'running').where('keyword', '=', 'lamp').orderBy('createdAt', 'desc').executeTakeFirst();
    if (job) jobOf = () => job.id;
    return job;
  });
  const jobId = jobOf!();
  await requestCancel(db, jobId);
  const cancelled = await started;
  t.equal(cancelled.jobId, jobId);
  t.match(cancelled.ended, { status: 'cancelled', stopReason: 'cancelled', pagesFetched: 0 });
  t.equal(cancelled.events.length, 1);
});
