import t from 'tap';
import { compsOfListings } from '@comps/shared/comps/listing-comps';
import type { ListingRow } from '@comps/shared/contract/listing';
import { createDb } from '@comps/shared/db/create-db';
import { AppError } from '@comps/shared/errors/app-error';
import { createLogger } from '@comps/shared/logging/create-logger';
import { newTrackedSearchId } from '@comps/shared/ids';
import { REPEATED_CREATION_WINDOW_MS } from '@comps/shared/internal/created-once';
import { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import type { MeteredCall, MeterOutcome } from '@comps/shared/metering/meter';
import type { MarketCall } from '@comps/shared/market/market-call';
import type { JobsDatabase } from '../../../services/jobs/src/db/database.js';
import { TaskRunner } from '../../../services/jobs/src/tasks/task-runner.js';
import { archiveDeletionHandler } from '../../../services/jobs/src/tracked/purge-archive.js';
import { RunHandler } from '../../../services/jobs/src/tracked/run-handler.js';
import { runPageRequestId } from '../../../services/jobs/src/tracked/run-repository.js';
import { scheduleDueRuns } from '../../../services/jobs/src/tracked/schedule-due-runs.js';
import type { TrackedSearchDeps } from '../../../services/jobs/src/tracked/tracked-search-service.js';
import { jobsRouter } from '../../../services/jobs/src/trpc/router.js';
import { createCallerFactory } from '../../../services/jobs/src/trpc/trpc.js';
import { eventually } from '../../helpers/http-client.js';
import { codeOf } from '../../helpers/procedure-errors.js';
import { prepareTestDatabase, TEST_DATABASE_URL } from '../../helpers/test-env.js';

// In-process: the tracked-search procedures through tRPC's caller, runs on the task runner with a
// meter double whose pages are scripted, the scheduler, on the file's own database.
await prepareTestDatabase();
const db = createDb<JobsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 10, isolation: 'read committed' });
t.teardown(() => db.destroy());
const logger = createLogger('tracked-searches-test', 'silent');
const quota = { limit: 1000, used: 0, remaining: 1000 };
const tracked: TrackedSearchDeps = { db, now: () => new Date(), random: () => 0.5, wake: () => undefined, statsCache: new ExpiringMap(60_000, 100), refusalFor: () => null };
const call = createCallerFactory(jobsRouter)({ jobs: undefined as never, tracked, deliveries: undefined as never, explore: undefined as never, handover: undefined as never, logger }).trackedSearches;
const caller = { apiKeyId: 'key_test', apiKeyPrefix: 'sk_test' };
let workspaces = 0;
const newWorkspace = () => `ws_tracked_${++workspaces}_${Date.now()}`;

/** A sold listing as a page shows it. */
function listingRow(itemId: string, price: number, soldDate: string, title = `lamp ${itemId}`): ListingRow {
  return {
    itemId, title, url: `https://market.example/itm/${itemId}`, imageUrl: null, condition: 'Pre-Owned', sold: true, soldDate, soldDateText: `Sold ${soldDate}`,
    soldDateVerified: false, price: { value: price, currency: 'USD' }, priceText: `$${price.toFixed(2)}`, priceIsDisplayedOnly: false, bestOfferAccepted: false, buyingFormat: 'buyItNow',
    bidCount: null, shipping: { value: 0, currency: 'USD' }, shippingText: 'Free delivery', seller: null, location: null, looseMatch: false,
  };
}

/** The marketplace as the meter double serves it: pages of listings by page number (a page past the end: none, or what `beyond` says). */
type Market = (page: number) => ListingRow[] | AppError;

interface Ran {
  requests: Array<{ page: number; requestId: string; path: string; jobId: string | null }>;
}

/** Runs the task runner with a run handler on `market` until `done` says so. */
async function runWith<T>(market: Market, done: () => Promise<T | undefined>): Promise<T & Ran> {
  const requests: Ran['requests'] = [];
  const meter = {
    run: async (input: MeteredCall<MarketCall>): Promise<MeterOutcome> => {
      if (input.call.kind !== 'search') throw new Error('a run only searches');
      const { page } = input.call.query;
      requests.push({ page, requestId: input.requestId, path: input.history.path, jobId: input.history.jobId });
      const rows = market(page);
      if (rows instanceof AppError) return { kind: 'failed', error: rows, quota };
      const { items } = compsOfListings(rows, { keyword: input.call.query.keyword, site: 'market.com', basis: 'sold', include: input.call.query.statsInclude });
      const received = await input.deliver({ value: { items } as never, quota, allowanceId: null });
      return received === true ? { kind: 'delivered', charged: true, quota } : { kind: 'undelivered', quota };
    },
  };
  const rateLimiter = { consume: async () => ({ allowed: true, limit: 100, remaining: 99, windowSeconds: 60, resetSeconds: 60 }) };
  const plan = { id: 'starter' as const, name: 'Starter', monthlyQuota: 1000, rateLimit: { requests: 100, windowSeconds: 60 }, concurrency: 5, activeJobs: 1 } as never;
  const handler = new RunHandler({ db, meter, planOf: async () => plan, rateLimiter, logger, now: () => new Date(), random: () => 0 }, { retries: 1, baseDelayMs: 10, maxDelayMs: 50, jitter: 0 });
  const runner = new TaskRunner({ db, logger, now: () => new Date(), random: () => 0 }, { concurrency: 4, leaseMs: 2000, pollMs: 30, retry: { retries: 1, baseDelayMs: 20, maxDelayMs: 100, jitter: 0 } }).handle(handler).handle(archiveDeletionHandler(db));
  await runner.start();
  try {
    // A bound, not a speed: the runs take about 300 ms, and 5 s ran out once in CI with the machine at load 9.
    return { ...(await eventually('the runs end', done, { timeoutMs: 30_000 })), requests };
  } finally {
    await runner.stop(500);
  }
}

const DATES = ['2026-11-20', '2026-11-19', '2026-11-18', '2026-11-12', '2026-11-05'];
/** A market of `pages` pages of 10 sales each, newest first, ids from `base`. */
function pagesOf(base: number, pages: number): Market {
  return (page) => (page > pages ? [] : Array.from({ length: 10 }, (_, row) => listingRow(String(base + page * 100 + row), 20 + ((page * 7 + row * 3) % 11), DATES[(page + row) % DATES.length]!)));
}

async function runOf(workspaceId: string, trackedSearchId: string) {
  return (await call.get({ workspaceId, trackedSearchId })).lastRun;
}
const ended = (workspaceId: string, trackedSearchId: string) => async () => {
  const run = await runOf(workspaceId, trackedSearchId);
  return run && run.status !== 'running' ? run : undefined;
};

t.test('a new tracked search runs at once: its pages are stored and charged in order, then a second run is caught up after one page, storing no sale twice', async (t) => {
  const workspaceId = newWorkspace();
  const created = await call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 10, body: { keyword: 'lamp', schedule: 'daily', maxPagesPerRun: 3 } });
  t.match(created, { name: 'lamp', status: 'active', schedule: 'daily', maxPagesPerRun: 3, lastRun: { trigger: 'schedule', status: 'running' }, archive: { sales: 0, firstSoldDate: null } });
  t.match(created.query, { keyword: 'lamp', marketSite: 'market.com', categoryId: '0', itemCondition: 'any', buyingFormat: 'all', exactMatch: true, statsInclude: [] });
  const nextRun = Date.parse(created.nextRunAt!) - Date.parse(created.createdAt);
  t.equal(nextRun, 86_400_000 * 1.05, 'the next run one day on, plus the jitter (half of 10 % here)');
  const market = pagesOf(310_000_000_000, 5);
  const first = await runWith(market, ended(workspaceId, created.trackedSearchId));
  t.match(first, { status: 'completed', stopReason: 'max_pages', pagesFetched: 3, pagesCharged: 3, newSales: 30, error: null });
  t.strictSame(first.requests.map((request) => request.page), [1, 2, 3]);
  t.ok(first.requests.every((request) => request.path === '/v1/tracked-searches/{trackedSearchId}/runs' && request.jobId === first.runId), 'each page recorded under the run');
  const afterFirst = await call.get({ workspaceId, trackedSearchId: created.trackedSearchId });
  t.strictSame(afterFirst.archive, { sales: 30, firstSoldDate: '2026-11-05', lastSoldDate: '2026-11-20' });

  const manual = await call.runNow({ workspaceId, trackedSearchId: created.trackedSearchId, ...caller });
  t.match(manual, { trigger: 'manual', status: 'running', pagesFetched: 0 });
  t.equal(await codeOf(call.runNow({ workspaceId, trackedSearchId: created.trackedSearchId, ...caller })), 'run_in_progress', 'one run at a time');
  const second = await runWith(market, ended(workspaceId, created.trackedSearchId));
  t.match(second, { runId: manual.runId, status: 'completed', stopReason: 'caught_up', pagesFetched: 1, pagesCharged: 1, newSales: 0 });
  const sales = await call.sales({ workspaceId, trackedSearchId: created.trackedSearchId, limit: 1000 });
  t.equal(sales.sales.length, 30, 'every sale once');
  t.equal(new Set(sales.sales.map((sale) => sale.itemId)).size, 30);
  const runs = await call.runs({ workspaceId, trackedSearchId: created.trackedSearchId });
  t.strictSame(runs.runs.map((run) => [run.trigger, run.stopReason]), [['manual', 'caught_up'], ['schedule', 'max_pages']], 'newest first');
});

t.test('a run stops at an empty page, at a page that repeats what it stored, and fails on quota; new sales on a later page are still stored', async (t) => {
  const workspaceId = newWorkspace();
  const empty = await call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 10, body: { keyword: 'lamp', maxPagesPerRun: 10 } });
  t.match(await runWith(pagesOf(320_000_000_000, 2), ended(workspaceId, empty.trackedSearchId)), { stopReason: 'empty_page', pagesFetched: 3, pagesCharged: 3, newSales: 20 });

  const repeating = await call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 10, body: { keyword: 'lamp', maxPagesPerRun: 10 } });
  const base = pagesOf(330_000_000_000, 2);
  // Past its last page the marketplace repeats it.
  t.match(await runWith((page) => base(Math.min(page, 2)), ended(workspaceId, repeating.trackedSearchId)), { stopReason: 'repeated_page', pagesFetched: 3, newSales: 20 });

  const broke = await call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 10, body: { keyword: 'lamp', maxPagesPerRun: 10 } });
  const quotaGone = (page: number) => (page === 2 ? new AppError('quota_exhausted', 'The monthly quota of 1000 requests is used up') : pagesOf(340_000_000_000, 5)(page));
  t.match(await runWith(quotaGone, ended(workspaceId, broke.trackedSearchId)), { status: 'failed', stopReason: 'quota_exhausted', pagesFetched: 1, pagesCharged: 1, newSales: 10, error: { code: 'quota_exhausted' } });
});

t.test('three runs blocked in a row pause the tracked search, with the reason; resuming makes it due at once', async (t) => {
  const workspaceId = newWorkspace();
  const created = await call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 10, body: { keyword: 'lamp' } });
  const blocked = () => new AppError('upstream_blocked', 'The marketplace asked for a captcha');
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    if (attempt > 1) await call.runNow({ workspaceId, trackedSearchId: created.trackedSearchId, ...caller });
    t.match(await runWith(blocked, ended(workspaceId, created.trackedSearchId)), { status: 'failed', stopReason: 'error', error: { code: 'upstream_blocked' } });
  }
  const paused = await call.get({ workspaceId, trackedSearchId: created.trackedSearchId });
  t.equal(paused.status, 'paused');
  t.equal(paused.nextRunAt, null);
  t.match(paused.pausedReason, /3 runs in a row were blocked/);
  const before = Date.now();
  const resumed = await call.update({ workspaceId, trackedSearchId: created.trackedSearchId, changes: { status: 'active' } });
  t.match(resumed, { status: 'active', pausedReason: null });
  t.ok(Date.parse(resumed.nextRunAt!) >= before - 5 && Date.parse(resumed.nextRunAt!) <= Date.now(), 'due at once');
});

t.test('the plan limit holds under concurrent creations; another workspace gets tracked_search_not_found everywhere', async (t) => {
  const workspaceId = newWorkspace();
  const results = await Promise.all(Array.from({ length: 6 }, () => codeOf(call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 3, body: { keyword: 'lamp' } }))));
  t.strictSame(results.sort(), ['none', 'none', 'none', 'tracked_search_limit', 'tracked_search_limit', 'tracked_search_limit']);
  const { trackedSearches } = await call.list({ workspaceId });
  t.equal(trackedSearches.length, 3);
  const trackedSearchId = trackedSearches[0]!.trackedSearchId;
  const other = { workspaceId: newWorkspace(), trackedSearchId };
  const codes = await Promise.all([
    codeOf(call.get(other)),
    codeOf(call.update({ ...other, changes: { name: 'mine' } })),
    codeOf(call.delete(other)),
    codeOf(call.runNow({ ...other, ...caller })),
    codeOf(call.runs(other)),
    codeOf(call.sales({ ...other, limit: 10 })),
    codeOf(call.stats({ ...other, interval: 'week' })),
  ]);
  t.strictSame(codes, Array(7).fill('tracked_search_not_found'));
  t.equal((await call.list({ workspaceId: other.workspaceId })).trackedSearches.length, 0);
  t.equal(await codeOf(call.get({ workspaceId, trackedSearchId: 'ts_00000000000000000000000000' })), 'tracked_search_not_found', 'an unknown id');
});

t.test('a creation made again with its id (the first timed out at the api) answers the first: one tracked search, one first run, at once or within a minute', async (t) => {
  const workspaceId = newWorkspace();
  const input = { workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 2, body: { keyword: 'lamp' } };
  const [first, again] = await Promise.all([call.create(input), call.create(input)]);
  t.equal(first.trackedSearchId, input.trackedSearchId);
  t.strictSame(again, first, 'both calls answer the same tracked search');
  const closedGate = () => new AppError('data_gate_closed', 'Sold data is closed here');
  const later = (ms: number) => createCallerFactory(jobsRouter)({
    jobs: undefined as never, tracked: { ...tracked, now: () => new Date(Date.now() + ms), refusalFor: closedGate }, deliveries: undefined as never, explore: undefined as never, handover: undefined as never, logger,
  }).trackedSearches;
  const withinTheMinute = await later(REPEATED_CREATION_WINDOW_MS - 2000).create(input);
  t.equal(withinTheMinute.trackedSearchId, input.trackedSearchId, 'one made again within the minute is answered, even where the data gate has closed since');
  t.equal(withinTheMinute.createdAt, first.createdAt);
  t.equal(withinTheMinute.lastRun?.runId, first.lastRun?.runId, 'its first run, not a second');
  const { trackedSearches } = await call.list({ workspaceId });
  t.strictSame(trackedSearches.map((search) => search.trackedSearchId), [input.trackedSearchId], 'one tracked search, one place of the plan taken');
  t.strictSame((await call.runs({ workspaceId, trackedSearchId: input.trackedSearchId })).runs.length, 1);
  const refused = /was given to another creation/;
  t.match(await codeOf(call.create({ ...input, workspaceId: newWorkspace() })), refused, "the id given to another workspace's creation is refused");
  t.match(await codeOf(call.create({ ...input, body: { keyword: 'desk lamp' } })), refused, "and to another search's");
  t.match(await codeOf(later(REPEATED_CREATION_WINDOW_MS + 2000).create(input)), refused, 'and past a minute');
  t.equal(await codeOf(call.create({ ...input, trackedSearchId: newTrackedSearchId() })), 'none', 'a new id is a new tracked search');
});

t.test('a closed data gate or a site not enabled refuses creation (the dashboard creates through here): nothing stored', async (t) => {
  const refusing: TrackedSearchDeps = {
    ...tracked,
    refusalFor: (marketCall) => (marketCall.kind === 'search' && marketCall.query.marketSite === 'market.de' ? new AppError('site_not_enabled', 'market.de is not enabled here') : null),
  };
  const guarded = createCallerFactory(jobsRouter)({ jobs: undefined as never, tracked: refusing, deliveries: undefined as never, explore: undefined as never, handover: undefined as never, logger }).trackedSearches;
  const workspaceId = newWorkspace();
  t.equal(await codeOf(guarded.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 3, body: { keyword: 'lamp', marketSite: 'market.de' } })), 'site_not_enabled');
  t.equal((await call.list({ workspaceId })).trackedSearches.length, 0, 'nothing was created');
  t.equal(await codeOf(guarded.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 3, body: { keyword: 'lamp' } })), 'none', 'an enabled site is taken');
});

t.test('changes: name, schedule from now, pause (no next run), pages per run; delete takes the tracked search, its runs and its archive', async (t) => {
  const workspaceId = newWorkspace();
  const created = await call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 10, body: { keyword: 'desk lamp', maxPagesPerRun: 2 } });
  await runWith(pagesOf(350_000_000_000, 3), ended(workspaceId, created.trackedSearchId));
  const before = Date.now();
  const changed = await call.update({ workspaceId, trackedSearchId: created.trackedSearchId, changes: { name: 'Desk lamps', schedule: 'hourly', maxPagesPerRun: 7 } });
  t.match(changed, { name: 'Desk lamps', schedule: 'hourly', maxPagesPerRun: 7, status: 'active' });
  const wait = Date.parse(changed.nextRunAt!) - before;
  t.ok(wait >= 3_600_000 * 1.05 - 5 && wait <= 3_600_000 * 1.05 + 1000, 'an hour from now, with its jitter');
  const paused = await call.update({ workspaceId, trackedSearchId: created.trackedSearchId, changes: { status: 'paused' } });
  t.match(paused, { status: 'paused', nextRunAt: null, pausedReason: null });
  t.strictSame(await call.delete({ workspaceId, trackedSearchId: created.trackedSearchId }), { trackedSearchId: created.trackedSearchId, deleted: true });
  t.equal(await codeOf(call.get({ workspaceId, trackedSearchId: created.trackedSearchId })), 'tracked_search_not_found');
  t.equal((await db.selectFrom('trackedSearchRuns').select('id').where('trackedSearchId', '=', created.trackedSearchId).execute()).length, 0, 'its runs are gone');
  // The archive goes by a task of its own.
  await runWith(() => [], async () => ((await db.selectFrom('soldArchive').select('itemId').where('trackedSearchId', '=', created.trackedSearchId).execute()).length === 0 ? true : undefined));
  t.equal((await db.selectFrom('soldArchive').select('itemId').where('trackedSearchId', '=', created.trackedSearchId).execute()).length, 0, 'its archive is gone');
});

t.test('statistics over the archive are those of a search over the same items; the series by day, week and month; sales filtered and paged', async (t) => {
  const workspaceId = newWorkspace();
  const created = await call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 10, body: { keyword: 'lamp', maxPagesPerRun: 5, statsInclude: ['bestOfferAccepted'] } });
  const market = pagesOf(360_000_000_000, 5);
  // One lot and one accessory among them, as real results have.
  const polluted: Market = (page) => {
    const rows = market(page);
    if (rows instanceof AppError || page !== 1) return rows;
    return [...rows, listingRow('360000000990', 150, '2026-11-19', 'lot of 10 lamp'), listingRow('360000000991', 3, '2026-11-18', 'lamp shade replacement')];
  };
  await runWith(polluted, ended(workspaceId, created.trackedSearchId));
  const every = [1, 2, 3, 4, 5].flatMap((page) => polluted(page) as ListingRow[]);
  const expected = compsOfListings(every, { keyword: 'lamp', site: 'market.com', basis: 'sold', include: ['bestOfferAccepted'] }).stats;
  const all = await call.stats({ workspaceId, trackedSearchId: created.trackedSearchId, interval: 'week' });
  t.strictSame(all.stats, expected, 'the same figures as a search over the same 52 items');
  t.equal(all.stats.listings, 52);
  t.strictSame(all.series.map((entry) => entry.start), ['2026-11-02', '2026-11-09', '2026-11-16'], 'weeks start on Monday, oldest first');
  t.equal(all.series.reduce((sum, entry) => sum + entry.counted, 0), all.stats.counted, 'every counted sale in one week');
  const days = await call.stats({ workspaceId, trackedSearchId: created.trackedSearchId, interval: 'day', from: '2026-11-18', to: '2026-11-19' });
  t.strictSame(days.series.map((entry) => entry.start), ['2026-11-18', '2026-11-19']);
  t.strictSame(days.stats.soldDates, { first: '2026-11-18', last: '2026-11-19' });
  const months = await call.stats({ workspaceId, trackedSearchId: created.trackedSearchId, interval: 'month' });
  t.strictSame(months.series.map((entry) => [entry.start, entry.counted]), [['2026-11-01', all.stats.counted]]);

  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await call.sales({ workspaceId, trackedSearchId: created.trackedSearchId, limit: 7, ...(cursor ? { cursor } : {}) });
    seen.push(...page.sales.map((sale) => `${sale.soldDate}/${sale.itemId}`));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  t.equal(seen.length, 52, 'every sale once across the pages');
  t.strictSame(seen, [...seen].sort().reverse(), 'newest sold first');
  const counted = await call.sales({ workspaceId, trackedSearchId: created.trackedSearchId, limit: 1000, counted: false });
  t.strictSame(
    counted.sales.map((sale) => sale.title),
    ['lot of 10 lamp'],
    'not counted by what it is: the lot (the $3 shade is an outlier on its page, which depends on the period: it counts by itself)',
  );
  const ranged = await call.sales({ workspaceId, trackedSearchId: created.trackedSearchId, limit: 1000, from: '2026-11-12', to: '2026-11-18' });
  t.ok(ranged.sales.length > 0 && ranged.sales.every((sale) => sale.soldDate! >= '2026-11-12' && sale.soldDate! <= '2026-11-18'));
  t.equal(await codeOf(call.sales({ workspaceId, trackedSearchId: created.trackedSearchId, limit: 10, cursor: 'bm90LWEtY3Vyc29y' })), 'invalid_request', 'a cursor that was never given');
});

t.test('the scheduler: two processes at once start each due tracked search exactly once; paused ones never; a running one only gets its next time', async (t) => {
  const workspaceId = newWorkspace();
  const ids: string[] = [];
  for (let index = 0; index < 30; index += 1) ids.push((await call.create({ workspaceId, trackedSearchId: newTrackedSearchId(), ...caller, limit: 100, body: { keyword: `lamp ${index}` } })).trackedSearchId);
  // Their first runs end; then every one is due, one paused, one with a run still going.
  await db.updateTable('trackedSearchRuns').set({ status: 'completed', stopReason: 'caught_up', activeTrackedSearchId: null, finishedAt: new Date() }).where('trackedSearchId', 'in', ids).execute();
  await db.deleteFrom('tasks').where('kind', '=', 'tracked-search-run').execute();
  const past = new Date(Date.now() - 3 * 86_400_000);
  await db.updateTable('trackedSearches').set({ nextRunAt: past }).where('id', 'in', ids).execute();
  await call.update({ workspaceId, trackedSearchId: ids[0]!, changes: { status: 'paused' } });
  await call.runNow({ workspaceId, trackedSearchId: ids[1]!, ...caller });
  // The other tests' tracked searches are out of the way (one was resumed: due now).
  await db.updateTable('trackedSearches').set({ status: 'paused', nextRunAt: null }).where('id', 'not in', ids).execute();
  const now = new Date();
  const started = await Promise.all([scheduleDueRuns(db, now, () => 0.5), scheduleDueRuns(db, now, () => 0.5)]);
  t.equal(started[0] + started[1], 28, 'each due one once, whichever process claimed it');
  const runs = await db.selectFrom('trackedSearchRuns').select(['trackedSearchId', 'runTrigger']).where('trackedSearchId', 'in', ids).where('status', '=', 'running').execute();
  t.equal(runs.length, 29, '28 scheduled and the manual one');
  t.equal(new Set(runs.map((run) => run.trackedSearchId)).size, 29, 'never two of one tracked search');
  t.notOk(runs.some((run) => run.trackedSearchId === ids[0]), 'not the paused one');
  const rows = await db.selectFrom('trackedSearches').select(['id', 'nextRunAt']).where('id', 'in', ids.slice(1)).execute();
  t.ok(rows.every((row) => row.nextRunAt!.getTime() === now.getTime() + 86_400_000 * 1.05), 'missed runs run once: the next is a period from now, not from the missed slot');
  t.equal(await scheduleDueRuns(db, now, () => 0.5), 0, 'nothing is due again');
});

t.test('a page keeps its request id however many times it is fetched (a run resumed elsewhere is charged once)', async (t) => {
  const first = await runPageRequestId(db, 'run_01JTEST00000000000000000000', 2, 'req_01JAAAAAAAAAAAAAAAAAAAAAAA');
  const again = await runPageRequestId(db, 'run_01JTEST00000000000000000000', 2, 'req_01JBBBBBBBBBBBBBBBBBBBBBBB');
  t.equal(first, 'req_01JAAAAAAAAAAAAAAAAAAAAAAA');
  t.equal(again, first);
});
