import t from 'tap';
import { jobRecordSchema } from '@comps/shared/contract/job';
import { assertError, assertShape } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { createJob, jobResults, waitForJob } from '../../helpers/jobs.js';
import { historyOf, usedOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';

// Lean simulator pages keep 100-page jobs quick; quick retries keep the failure paths short.
const stack = await startTestStack(t, {
  env: { MARKET_SIM_PAGE_STYLE: 'lean' },
  serviceEnv: { jobs: { JOBS_RETRY_BACKOFF_MS: '50' } },
});

t.test('a job runs to max_pages; its partial results are readable while it runs; pages, charges, usage and history agree', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  // Eight slow pages: two turns of four (JOBS_PAGES_AHEAD), so the job is seen between them (for over a second, by polls
  // that take a while on a loaded machine).
  const created = await createJob(stack, apiKey, { keyword: 'vintage camera sim:slow=1200', maxPages: 8, count: 30 });
  t.equal(created.status, 202);
  assertShape(t, jobRecordSchema, created.body, 'the job record');
  t.match(created.body, { status: 'queued', stopReason: null, request: { keyword: 'vintage camera sim:slow=1200', marketSite: 'market.com', maxPages: 8, count: 30, resultType: 'inline' }, progress: { pagesFetched: 0, pagesCharged: 0, itemsCollected: 0 }, items: [] });
  t.equal(created.headers.get('location'), created.body.resultsUrl);
  t.equal(created.body.resultsUrl, `/v1/scrape/max/results/${created.body.jobId}`);
  const jobId = created.body.jobId;

  const partial = await waitForJob(stack, apiKey, jobId, (job) => job.progress.pagesFetched >= 1 && job.status === 'running');
  // By its own times (the polls through Caddy are no measure of it on a loaded machine): a worker took it at once.
  const startedAfterMs = Date.parse(partial.startedAt!) - Date.parse(created.body.createdAt);
  t.ok(startedAfterMs >= 0 && startedAfterMs < 2000, `the job started at once (${startedAfterMs} ms after it was created)`);
  t.equal(partial.items.length, partial.progress.itemsCollected, 'what is collected so far is readable while it runs');
  t.ok(partial.items.every((item) => item.page <= partial.progress.pagesFetched));

  const done = await waitForJob(stack, apiKey, jobId);
  t.match(done, { status: 'completed', stopReason: 'max_pages', progress: { pagesFetched: 8, pagesCharged: 8, itemsCollected: 240 }, error: null });
  t.ok(done.finishedAt && done.expiresAt, 'ended, with its retention');
  t.equal(Date.parse(done.expiresAt!) - Date.parse(done.finishedAt!), 24 * 3_600_000, 'kept 24 hours after it ended');
  t.equal(done.items.length, 240);
  t.strictSame([...new Set(done.items.map((item) => item.page))], [1, 2, 3, 4, 5, 6, 7, 8], 'each item names its page, in order');
  t.equal(new Set(done.items.map((item) => item.itemId)).size, 240, 'no item twice');
  t.match(done.itemsPage, { offset: 0, limit: 1000, total: 240 });

  const slice = await jobResults(stack, apiKey, jobId, '?offset=50&limit=20');
  t.strictSame(slice.items, done.items.slice(50, 70), 'offset and limit page the items');
  t.match(slice.itemsPage, { offset: 50, limit: 20, total: 240 });

  t.equal(await usedOf(stack, workspaceId), 8, 'eight pages, eight requests charged');
  const history = await historyOf(stack, workspaceId, 8);
  const pages = history.filter((entry) => entry.path === '/v1/scrape/max' && entry.charged === 1);
  t.equal(pages.length, 8, 'one charged history entry per page');
  t.ok(pages.every((entry) => entry.keyword === '[redacted]' && entry.resultCount === 30 && (entry as { jobId?: string }).jobId === jobId), 'with the job id, the result count, the keyword redacted');
  const usage = await request(stack.baseUrl, '/usage', { apiKey });
  t.equal(usage.body.used, 8, 'GET /usage agrees');
});

t.test('a search with fewer results than maxPages stops by itself, without duplicate items', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  // 130 results in pages of 60: 60, 60, 10, then the marketplace repeats its last page.
  const { body } = await createJob(stack, apiKey, { keyword: 'lamp sim:total=130', maxPages: 10, count: 60 });
  const done = await waitForJob(stack, apiKey, body.jobId);
  t.match(done, { status: 'completed', stopReason: 'repeated_page', progress: { pagesFetched: 4, pagesCharged: 4, itemsCollected: 130 } });
  t.equal(new Set(done.items.map((item) => item.itemId)).size, 130);
  t.equal(await usedOf(stack, workspaceId), 4, 'the repeated page was fetched, so it is charged');
});

t.test('an empty page ends the job; the pages fetched ahead of it cost nothing', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const { body } = await createJob(stack, apiKey, { keyword: 'lamp sim:empty', maxPages: 10 });
  t.match(await waitForJob(stack, apiKey, body.jobId), { status: 'completed', stopReason: 'empty_page', progress: { pagesFetched: 1, pagesCharged: 1, itemsCollected: 0 } });
  t.equal(await usedOf(stack, workspaceId), 1, 'only the empty page is charged');
});

t.test('a page that ends the job in the middle of a turn: the pages after it are neither stored nor charged', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  // 70 results in pages of 60: 60, 10, then the last page again (repeated_page at page 3); a turn
  // fetches pages 1 to 4 together (JOBS_PAGES_AHEAD 4), so page 4 is read and given back.
  const { body } = await createJob(stack, apiKey, { keyword: 'lamp sim:total=70', maxPages: 10, count: 60 });
  const done = await waitForJob(stack, apiKey, body.jobId);
  t.match(done, { status: 'completed', stopReason: 'repeated_page', progress: { pagesFetched: 3, pagesCharged: 3, itemsCollected: 70 } });
  t.strictSame([...new Set(done.items.map((item) => item.page))], [1, 2], 'items from the pages before the stop, in order');
  t.equal(await usedOf(stack, workspaceId), 3, 'three pages stored, three charged');
  // Page 4 starts once page 3 holds its quota, so it is always fetched; page 3 ended the job, so it is given back.
  const pages = await eventually('the four pages\' entries', async () => {
    const entries = (await historyOf(stack, workspaceId, 5)).filter((entry) => entry.path === '/v1/scrape/max' && entry.status !== 202);
    return entries.length >= 4 ? entries : undefined;
  });
  t.strictSame(pages.map((entry) => [entry.status, entry.charged]).sort(), [[200, 1], [200, 1], [200, 1], [499, 0]], 'one charged entry per stored page; the page given back is recorded as not delivered (499), uncharged');
});

t.test('a blocked upstream fails the job at once, nothing charged', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const { body } = await createJob(stack, apiKey, { keyword: 'lamp sim:block', maxPages: 10 });
  const done = await waitForJob(stack, apiKey, body.jobId);
  t.match(done, { status: 'failed', stopReason: 'error', error: { code: 'upstream_blocked' }, progress: { pagesFetched: 0, pagesCharged: 0 } });
  t.equal(await usedOf(stack, workspaceId), 0);
});

t.test('a throttled upstream is retried with backoff, then fails the job, nothing charged', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const { body } = await createJob(stack, apiKey, { keyword: 'lamp sim:throttle', maxPages: 10 });
  const done = await waitForJob(stack, apiKey, body.jobId);
  t.match(done, { status: 'failed', stopReason: 'error', error: { code: 'upstream_rate_limited' }, progress: { pagesFetched: 0, pagesCharged: 0 } });
  t.equal(await usedOf(stack, workspaceId), 0);
  const history = await historyOf(stack, workspaceId, 2);
  t.ok(history.some((entry) => entry.code === 'upstream_rate_limited' && entry.charged === 0), 'the failed page is in the history, uncharged');
});

t.test('a quota that runs out mid-job fails it with quota_exhausted after the pages it could pay for', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro', quota: 3 });
  const { body } = await createJob(stack, apiKey, { keyword: 'vintage lamp', maxPages: 10, count: 20 });
  const done = await waitForJob(stack, apiKey, body.jobId);
  t.match(done, { status: 'failed', stopReason: 'quota_exhausted', error: { code: 'quota_exhausted' }, progress: { pagesFetched: 3, pagesCharged: 3, itemsCollected: 60 } });
  t.equal(await usedOf(stack, workspaceId), 3);
  const refused = await createJob(stack, apiKey, { keyword: 'another' });
  assertError(t, refused, 403, 'quota_exhausted');
  const list = await request(stack.baseUrl, '/v1/scrape/max', { apiKey });
  t.equal(list.body.jobs.length, 1, 'no job was created');
});

t.test('resultType download: items only through the CSV', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const { body } = await createJob(stack, apiKey, { keyword: 'vintage lamp', maxPages: 2, count: 10, resultType: 'download' });
  const done = await waitForJob(stack, apiKey, body.jobId);
  t.match(done, { status: 'completed', items: [], progress: { itemsCollected: 20 }, itemsPage: { total: 20 } });
  const csv = await request(stack.baseUrl, done.downloadUrl, { apiKey });
  t.equal(csv.text.trimEnd().split('\r\n').length, 21, 'header and 20 rows');
});
