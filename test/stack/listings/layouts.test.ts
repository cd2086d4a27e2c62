import { readFile } from 'node:fs/promises';
import t from 'tap';
import type { ListingCollection, ListingItem } from '@comps/shared/contract/listing';
import { listingCollectionSchema } from '@comps/shared/contract/listing';
import { assertError, assertShape } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { postEventStream } from '../../helpers/event-stream.js';
import { eventually, request } from '../../helpers/http-client.js';
import { createJob, waitForJob } from '../../helpers/jobs.js';
import { historyOf, usedOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';

// The stack on every result layout the simulator serves (`sim:layout=…`): the three the marketplace
// uses read alike, rows of an unknown layout in a known list read by their structure, and a page
// nothing of which is recognized an error for a search, a bulk keyword and a job, never charged.

const stack = await startTestStack(t);

const search = (apiKey: string, keyword: string, extra = '') =>
  request<ListingCollection>(stack.baseUrl, `/v1/scrape?keyword=${encodeURIComponent(keyword)}&marketSite=market.com.au&count=20${extra}`, { apiKey });

/** What every layout shows of a listing (the structural reader does not read condition, seller or location). */
const essentials = (items: ListingItem[]) =>
  items.map(({ itemId, title, url, price, sold, soldDate, bestOfferAccepted, shipping, buyingFormat, bidCount }) => ({
    itemId, title, url, price, sold, soldDate, bestOfferAccepted, shipping, buyingFormat, bidCount,
  }));

t.test('a sold search answers the same listings on the s-card, s-item and su-item-card layouts', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { quota: 100 });
  const answers = [];
  for (const layout of ['card', 'item', 'su']) {
    const response = await search(apiKey, `super mario 64 sim:layout=${layout}`);
    t.equal(response.status, 200, layout);
    assertShape(t, listingCollectionSchema, response.body, `${layout}: the contract's collection`);
    t.equal(response.body.items.length, 20, `${layout}: a full page`);
    t.strictSame([response.body.dataQuality.rowsDropped, response.body.dataQuality.rowsReadStructurally], [0, 0], `${layout}: every row read by its layout`);
    answers.push(response.body);
  }
  const [card, item, su] = answers as [ListingCollection, ListingCollection, ListingCollection];
  // s-item rows show a seller's exact feedback score ("(1,234)"), cards a rounded one ("1.2K").
  const roundedScores = (items: ListingItem[]) => items.map((entry) => ({ ...entry, seller: entry.seller && { ...entry.seller, feedbackScore: null } }));
  t.strictSame(roundedScores(item.items), roundedScores(card.items), 's-item: every field alike but the seller\'s score');
  t.strictSame(su.items, card.items, 'su-item-card: every field alike');
  t.strictSame([item.pagination, su.pagination], [card.pagination, card.pagination], 'and the same count and next page');
  t.equal(await usedOf(stack, workspaceId), 3, 'each charged once');
});

t.test('rows of an unknown layout in the known results list are read by their structure, and say so', async (t) => {
  const { apiKey } = await createWorkspace(stack, { quota: 100 });
  const card = await search(apiKey, 'super mario 64 sim:layout=card');
  const tiles = await search(apiKey, 'super mario 64 sim:layout=tiles');
  t.equal(tiles.status, 200);
  t.strictSame(essentials(tiles.body.items), essentials(card.body.items), 'the same listings, titles, prices, dates and formats');
  t.strictSame([tiles.body.dataQuality.rowsReadStructurally, tiles.body.dataQuality.rowsDropped], [20, 0], 'each returned row counted as read by structure');
});

t.test('a page whose layout is not recognized: 502, nothing charged, one log line without the search text, counted per site', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { quota: 100 });
  const keyword = 'quokkaplush sim:layout=unknown';
  const response = await request(stack.baseUrl, `/v1/scrape?keyword=${encodeURIComponent(keyword)}`, { apiKey });
  const body = assertError(t, response, 502, 'upstream_error');
  t.equal(body.error, "the marketplace's page layout was not recognized");
  t.equal(await usedOf(stack, workspaceId), 0, 'not charged');
  const [entry] = await historyOf(stack, workspaceId, 1);
  t.match(entry, { status: 502, code: 'upstream_error', charged: 0 });

  const lines = await eventually('the api logged the unrecognized layout', async () => {
    const found = (await readFile(stack.logFile, 'utf8')).split('\n').filter((line) => line.includes('"layoutUnrecognized":true'));
    return found.length > 0 ? found : undefined;
  });
  t.equal(lines.length, 1, 'one line');
  t.match(JSON.parse(lines[0]!), { level: 'error', service: 'api', site: 'market.com', rowClasses: 'q-tile q-tile--horizontal', msg: "the marketplace's page layout was not recognized" });
  t.notOk(lines[0]!.includes('quokkaplush'), 'without the search text');

  const metrics = await fetch(`http://127.0.0.1:${stack.ports.apiInternal}/metrics`);
  t.equal(metrics.status, 200);
  const text = await metrics.text();
  t.match(text, /^comps_layout_unrecognized_total\{site="market\.com"\} 1$/m, 'the metric counts it for the site');
  const resident = Number(/^process_resident_memory_bytes (\d+)$/m.exec(text)?.[1]);
  t.ok(resident > 20_000_000 && resident < 2_000_000_000, `and the api's own resident memory (${resident} bytes)`);
});

t.test('a bulk keyword and a job meeting such a page fail the same way, uncharged', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { quota: 100, plan: 'pro' });
  const call = await postEventStream(`${stack.baseUrl}/api/bulk-search`, { apiKey, body: { keywords: ['lamp', 'lamp sim:layout=unknown'], count: 5 } });
  await call.done;
  const outcomes = call.events.filter((event) => event.event === 'result' || event.event === 'error');
  t.strictSame(outcomes.map((event) => [event.event, event.payload.index]).sort(), [['error', 1], ['result', 0]]);
  t.match(outcomes.find((event) => event.event === 'error')!.payload, { index: 1, code: 'upstream_error', error: "the marketplace's page layout was not recognized" });
  t.equal(await usedOf(stack, workspaceId), 1, 'only the keyword answered is charged');

  const created = await createJob(stack, apiKey, { keyword: 'lamp sim:layout=unknown', maxPages: 3 });
  t.equal(created.status, 202);
  const done = await waitForJob(stack, apiKey, created.body.jobId);
  t.match(done, { status: 'failed', stopReason: 'error', error: { code: 'upstream_error', error: "the marketplace's page layout was not recognized" }, progress: { pagesFetched: 0, pagesCharged: 0 } });
  t.equal(await usedOf(stack, workspaceId), 1, 'the job charged nothing');
});
