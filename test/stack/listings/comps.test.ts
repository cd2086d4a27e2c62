import t, { type Test } from 'tap';
import { bulkResultEventSchema } from '@comps/shared/contract/bulk-events';
import { EXCLUSION_REASONS } from '@comps/shared/contract/comps';
import { jobRecordSchema } from '@comps/shared/contract/job';
import { CSV_COLUMNS } from '@comps/shared/contract/job-csv';
import { itemDetailsSchema, listingCollectionSchema, type ListingCollection } from '@comps/shared/contract/listing';
import { assertError, assertShape } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { postEventStream } from '../../helpers/event-stream.js';
import { request } from '../../helpers/http-client.js';
import { createJob, jobResults, waitForJob } from '../../helpers/jobs.js';
import { startTestStack } from '../../helpers/test-stack.js';

// Comps through Caddy on every answer that carries them: each item's `comps` and the collection's
// `stats` on searches, category browses, bulk results and jobs (over every item they collected),
// `comps` on item details; `statsInclude` echoed, and refused when it names an unknown reason.

const stack = await startTestStack(t, { env: { MARKET_SIM_PAGE_STYLE: 'lean' } });

/** What every collection's comps must satisfy, beyond the schema: the counts add up, verdicts and stats agree. */
function assertConsistent(t: Test, items: ListingCollection['items'], stats: ListingCollection['stats']) {
  t.equal(stats.listings, items.length, 'stats are drawn from every item');
  t.equal(stats.counted, items.filter((item) => item.comps.counted).length, 'counted agrees with the items');
  t.strictSame(Object.keys(stats.excluded), [...EXCLUSION_REASONS], 'every reason listed, in order');
  for (const reason of EXCLUSION_REASONS) {
    t.equal(stats.excluded[reason], items.filter((item) => item.comps.excludedBecause === reason).length, `excluded.${reason} agrees with the items`);
  }
  t.ok(items.every((item) => item.comps.counted === (item.comps.excludedBecause === null)), 'counted exactly when no reason excludes it');
}

t.test('a sold search: comps on every item and stats on the collection; statsInclude counts a reason anyway', async (t) => {
  const { apiKey } = await createWorkspace(stack, { quota: 100 });
  const plain = await request<ListingCollection>(stack.baseUrl, '/v1/scrape?keyword=nintendo+switch+oled&count=120', { apiKey });
  t.equal(plain.status, 200);
  const body = assertShape(t, listingCollectionSchema, plain.body);
  t.strictSame(body.query.statsInclude, []);
  t.equal(body.stats.basis, 'sold');
  t.equal(body.stats.currency, 'USD');
  assertConsistent(t, body.items, body.stats);
  t.equal(body.stats.excluded.bestOfferAccepted > 0, true, 'best offers accepted are left out by default');

  const included = await request<ListingCollection>(stack.baseUrl, '/v1/scrape?keyword=nintendo+switch+oled&count=120&statsInclude=bestOfferAccepted', { apiKey });
  t.strictSame(included.body.query.statsInclude, ['bestOfferAccepted']);
  t.equal(included.body.stats.excluded.bestOfferAccepted, 0, 'counted anyway when asked');
  assertConsistent(t, included.body.items, included.body.stats);

  const active = await request<ListingCollection>(stack.baseUrl, '/v1/scrape?keyword=nintendo+switch+oled&sold=false', { apiKey });
  t.strictSame([active.body.stats.basis, active.body.stats.soldDates, active.body.stats.daily], ['asking', null, []], 'active listings: asking prices, no sold dates');
});

t.test('a category browse and an item: comps in the contract shape', async (t) => {
  const { apiKey } = await createWorkspace(stack, { quota: 100 });
  const category = await request<ListingCollection>(stack.baseUrl, '/v1/scrape/category?categoryId=9355&count=30', { apiKey });
  const body = assertShape(t, listingCollectionSchema, category.body);
  assertConsistent(t, body.items, body.stats);
  const row = body.items[0]!;
  const item = await request(stack.baseUrl, `/v1/item/${row.itemId}`, { apiKey });
  t.equal(item.status, 200);
  const { comps } = assertShape(t, itemDetailsSchema, item.body);
  const { counted: _counted, excludedBecause: _excluded, ...classification } = row.comps;
  t.match(comps, classification, 'the item is what its row in the browse said it is');
});

t.test('bulk results carry stats; an unknown statsInclude is refused before anything runs', async (t) => {
  const { apiKey } = await createWorkspace(stack, { quota: 100 });
  const call = await postEventStream(`${stack.baseUrl}/api/bulk-search`, { apiKey, body: { keywords: ['sony wh-1000xm4', 'lego minifigure'], count: 40, statsInclude: ['lot'] } });
  await call.done;
  const results = call.events.filter((event) => event.event === 'result');
  t.equal(results.length, 2);
  for (const result of results) {
    const payload = assertShape(t, bulkResultEventSchema, result.payload, 'a result event');
    assertConsistent(t, payload.items, payload.stats);
    t.equal(payload.stats.excluded.lot, payload.items.filter((item) => item.comps.kind === 'lot' && item.comps.units === null).length, 'lots counted when asked (those stating no size never)');
  }
  const refused = await request(stack.baseUrl, '/api/bulk-search', { method: 'POST', apiKey, body: { keywords: ['lamp'], statsInclude: ['lots'] } });
  const error = assertError(t, refused, 400, 'invalid_request');
  t.ok(error.details?.some((detail) => detail.path === 'statsInclude'), 'the details name statsInclude');
});

t.test('a job: stats over every item it collected whatever offset and limit, per-item comps among all, and the CSV columns', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const refused = await createJob(stack, apiKey, { keyword: 'lamp', statsInclude: 'lot,everything' });
  assertError(t, refused, 400, 'invalid_request');

  const created = await createJob(stack, apiKey, { keyword: 'vintage pyrex bowl', maxPages: 3, count: 50, statsInclude: 'outlier' });
  t.equal(created.status, 202);
  t.strictSame(created.body.request.statsInclude, ['outlier']);
  t.equal(created.body.stats.listings, 0, 'no item yet');
  const done = await waitForJob(stack, apiKey, created.body.jobId);
  const record = assertShape(t, jobRecordSchema, done);
  t.equal(record.stats.listings, record.progress.itemsCollected, 'stats over every item collected');
  t.equal(record.stats.excluded.outlier, 0, 'outliers counted, as asked');
  assertConsistent(t, record.items, record.stats);

  const window = await jobResults(stack, apiKey, created.body.jobId, '?offset=10&limit=5');
  t.strictSame(window.stats, record.stats, 'the same stats whatever the window');
  t.strictSame(window.items, record.items.slice(10, 15), 'and the same comps for the same items');

  const csv = await fetch(`${stack.baseUrl}/v1/scrape/max/${created.body.jobId}/download.csv`, { headers: { authorization: `Bearer ${apiKey}` } });
  const lines = (await csv.text()).trim().split('\r\n');
  t.strictSame(lines[0]!.split(',').slice(-7), ['kind', 'conditionGroup', 'units', 'unitPrice', 'landedUnitPrice', 'counted', 'excludedBecause']);
  t.equal(lines.length, record.progress.itemsCollected + 1, 'one line per item');
  const first = record.items[0]!;
  const cells = lines[1]!.split(',');
  t.equal(lines[0]!.split(',').length, CSV_COLUMNS.length);
  t.strictSame(cells.slice(-7), [
    first.comps.kind,
    first.comps.condition ?? '',
    first.comps.units === null ? '' : String(first.comps.units),
    first.comps.unitPrice === null ? '' : String(first.comps.unitPrice.value),
    first.comps.landedUnitPrice === null ? '' : String(first.comps.landedUnitPrice.value),
    String(first.comps.counted),
    first.comps.excludedBecause ?? '',
  ], 'the first item\'s comps, as the results give them');
});
