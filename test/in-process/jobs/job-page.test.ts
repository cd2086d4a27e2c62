import t from 'tap';
import { compsOfListings, statsItemOf } from '@comps/shared/comps/listing-comps';
import type { ListingRow } from '@comps/shared/contract/listing';
import { createDb } from '@comps/shared/db/create-db';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { newRequestId } from '@comps/shared/ids';
import { createLogger } from '@comps/shared/logging/create-logger';
import { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import { randomUUID } from 'node:crypto';
import type { JobsDatabase } from '../../../services/jobs/src/db/database.js';
import { insertJob, insertNewItems, pageRequestId, recordPage } from '../../../services/jobs/src/jobs/job-repository.js';
import type { JobServiceDeps } from '../../../services/jobs/src/jobs/job-service.js';
import { encodeStatsItem } from '../../../services/jobs/src/jobs/stats-item-column.js';
import { jobsRouter } from '../../../services/jobs/src/trpc/router.js';
import { createCallerFactory } from '../../../services/jobs/src/trpc/trpc.js';
import { codeOf } from '../../helpers/procedure-errors.js';
import { prepareTestDatabase, TEST_DATABASE_URL } from '../../helpers/test-env.js';

// jobs.page, what a job's dashboard page reads: the job with a page of its items, and each counted
// item's unit price and sold date, in the order collected, over every item (a job of more than the
// 2,000 items the page once drew), the same items and verdicts as the job's own items say, from one
// computation of its statistics; cached statistics give the same; another workspace's job is not found.
await prepareTestDatabase();
const db = createDb<JobsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 4, isolation: 'read committed' });
t.teardown(() => db.destroy());
/** The jobs procedures with a statistics cache of their own (a new one computes them; the same one finds them). */
const jobsWith = (compsCache: ExpiringMap<unknown>) =>
  createCallerFactory(jobsRouter)({
    jobs: { db, now: () => new Date(), compsCache } as unknown as JobServiceDeps,
    tracked: undefined as never,
    deliveries: undefined as never,
    explore: undefined as never,
    handover: undefined as never,
    logger: createLogger('counted-sales-test', 'silent'),
  }).jobs;
const jobs = jobsWith(new ExpiringMap(60_000, 10));

const PAGES = 11;
const ROWS = 200;
const KEYWORD = 'brass lamp';

/** A sold row; every seventh titled as a part, every thirteenth far above the rest (an outlier), dates over a month. */
function row(page: number, index: number): ListingRow {
  const n = page * ROWS + index;
  const price = n % 13 === 0 ? 4000 + n : 40 + (n % 37);
  const soldDate = `2026-10-${String(1 + (n % 30)).padStart(2, '0')}`;
  const title = n % 7 === 0 ? `${KEYWORD} shade replacement glass ${n}` : `Vintage ${KEYWORD} ${n}`;
  return {
    itemId: String(100_000_000_000 + n), title, url: `https://market.example/itm/${100_000_000_000 + n}`, imageUrl: null, condition: 'Pre-Owned', sold: true, soldDate,
    soldDateText: `Sold ${soldDate}`, soldDateVerified: false, price: { value: price, currency: 'USD' }, priceText: `$${price.toFixed(2)}`, priceIsDisplayedOnly: false,
    bestOfferAccepted: false, buyingFormat: 'buyItNow', bidCount: null, shipping: { value: 0, currency: 'USD' }, shippingText: 'Free delivery', seller: null, location: null, looseMatch: false,
  };
}

const workspaceId = `ws_counted_${Date.now()}`;
const jobId = randomUUID();
const now = new Date();
await insertJob(db, {
  id: jobId, workspaceId, apiKeyId: null, apiKeyPrefix: null, status: 'running', stopReason: null, keyword: KEYWORD, marketSite: 'market.com', maxPages: PAGES, count: ROWS,
  resultType: 'inline', statsInclude: '', errorCode: null, errorMessage: null, idempotencyKeyHash: null, requestFingerprint: 'test', activeWorkspaceId: null, createdAt: now,
  startedAt: now, finishedAt: null, expiresAt: null,
});
// Stored as the worker stores a page: its items (each with its own comps) and their compact array.
for (let page = 1; page <= PAGES; page += 1) {
  await pageRequestId(db, jobId, page, newRequestId());
  const { items } = compsOfListings(Array.from({ length: ROWS }, (_, index) => row(page, index)), { keyword: KEYWORD, site: 'market.com', basis: 'sold', include: [] });
  const { newItems, statsItems } = await insertNewItems(db, jobId, page, items.map((item) => ({ itemId: item.itemId, item: JSON.stringify({ ...item, page }), statsItem: encodeStatsItem(statsItemOf(item, item.comps)) })));
  await recordPage(db, jobId, { page, newItems, statsItems, chargePending: { since: now, allowanceId: null } });
}

t.test('every counted item, in order, as the job\'s items and statistics say', async (t) => {
  // First with statistics not computed yet (the page computes them), then from those cached.
  const cache = new ExpiringMap<unknown>(60_000, 10);
  const page = await jobsWith(cache).page({ workspaceId, jobId, offset: 100, limit: 100 });
  const computed = page.sales;
  const cached = (await jobsWith(cache).page({ workspaceId, jobId, offset: 0, limit: 1 })).sales;
  const job = await jobs.get({ workspaceId, jobId, offset: 0, limit: 5000 });
  t.strictSame(page.job.items, job.items.slice(100, 200), 'the page of items asked for');
  t.strictSame(page.job.stats, job.stats, 'the statistics jobs.get gives');
  t.equal(job.items.length, PAGES * ROWS, `every item of the job (${PAGES * ROWS}, more than the 2,000 once drawn)`);
  const expected = job.items.filter((item) => item.comps.counted && item.comps.unitPrice).map((item) => [item.comps.unitPrice!.value, item.soldDate]);
  t.ok(expected.length > 2000 && expected.length < job.items.length, `most counted, the outliers not (${expected.length})`);
  t.strictSame(computed, expected, 'the same prices and dates, in the same order');
  t.equal(computed.length, page.job.stats.counted, 'as many as the statistics of the same answer count');
  t.strictSame(cached, expected, 'the same again from the cached statistics');
  // The outliers of the fixture (every thirteenth row, priced 4,000 and up) are left out, as the fences say.
  t.ok(job.items.filter((item) => item.price!.value >= 4000).length > 150, 'the fixture has outliers');
  t.notOk(computed.some(([price]) => price >= 4000), 'no outlier among the prices');
});

t.test('the sales come cached with the statistics, as jobs.get computed them', async (t) => {
  const cache = new ExpiringMap<unknown>(60_000, 10);
  const job = await jobsWith(cache).get({ workspaceId, jobId, offset: 0, limit: 5000 });
  const expected = job.items.filter((item) => item.comps.counted && item.comps.unitPrice).map((item) => [item.comps.unitPrice!.value, item.soldDate]);
  // The stored arrays emptied: a read of them now would find no sale.
  const stored = await db.selectFrom('jobPages').select(['page', 'statsItems']).where('jobId', '=', jobId).execute();
  await db.updateTable('jobPages').set({ statsItems: '[]' }).where('jobId', '=', jobId).execute();
  try {
    t.strictSame((await jobsWith(cache).page({ workspaceId, jobId, offset: 0, limit: 1 })).sales, expected, 'every sale, from the cache');
    t.strictSame((await jobsWith(new ExpiringMap(60_000, 10)).page({ workspaceId, jobId, offset: 0, limit: 1 })).sales, [], 'a cache of its own reads the arrays (emptied here)');
  } finally {
    for (const page of stored) await db.updateTable('jobPages').set({ statsItems: page.statsItems }).where('jobId', '=', jobId).where('page', '=', page.page).execute();
  }
});

t.test('another workspace\'s job, or one that does not exist, is not found', async (t) => {
  t.equal(await codeOf(jobs.page({ workspaceId: 'ws_someone_else', jobId, offset: 0, limit: 1 })), 'job_not_found');
  t.equal(await codeOf(jobs.page({ workspaceId, jobId: randomUUID(), offset: 0, limit: 1 })), 'job_not_found');
});

t.test('a page is recorded once: a second store of it throws, and its transaction, items included, rolls back', async (t) => {
  const before = await db.selectFrom('jobs').select(['pagesFetched', 'pagesCharged', 'itemsCollected', 'nextPage']).where('id', '=', jobId).executeTakeFirstOrThrow();
  const statsBefore = await db.selectFrom('jobPages').select('statsItems').where('jobId', '=', jobId).where('page', '=', 1).executeTakeFirstOrThrow();
  const itemsBefore = await db.selectFrom('jobItems').select((eb) => eb.fn.countAll<number>().as('count')).where('jobId', '=', jobId).executeTakeFirstOrThrow();
  // Page 1 again, as the worker stores a page (items the job does not have yet, then the record), in one transaction.
  const { items } = compsOfListings(Array.from({ length: 3 }, (_, index) => row(PAGES + 5, index)), { keyword: KEYWORD, site: 'market.com', basis: 'sold', include: [] });
  const again = withTransaction(db, async (trx) => {
    const stored = await insertNewItems(trx, jobId, 1, items.map((item) => ({ itemId: item.itemId, item: JSON.stringify({ ...item, page: 1 }), statsItem: encodeStatsItem(statsItemOf(item, item.comps)) })));
    t.equal(stored.newItems, 3, 'its items were new to the job');
    await recordPage(trx, jobId, { page: 1, ...stored, chargePending: { since: now, allowanceId: null } });
  });
  await t.rejects(again, { message: `page 1 of job ${jobId} was stored already, or was never asked for` });
  await t.rejects(recordPage(db, jobId, { page: PAGES + 1, newItems: 3, statsItems: '[]', chargePending: { since: now, allowanceId: null } }), { message: /was never asked for/ }, 'a page without its request id');
  t.strictSame(await db.selectFrom('jobs').select(['pagesFetched', 'pagesCharged', 'itemsCollected', 'nextPage']).where('id', '=', jobId).executeTakeFirstOrThrow(), before);
  t.strictSame(await db.selectFrom('jobPages').select('statsItems').where('jobId', '=', jobId).where('page', '=', 1).executeTakeFirstOrThrow(), statsBefore);
  t.strictSame(await db.selectFrom('jobItems').select((eb) => eb.fn.countAll<number>().as('count')).where('jobId', '=', jobId).executeTakeFirstOrThrow(), itemsBefore, 'none of its items was kept');
  t.match(before, { pagesFetched: PAGES, pagesCharged: PAGES, itemsCollected: PAGES * ROWS });
});
