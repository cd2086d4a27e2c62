import t from 'tap';
import type { Locator } from 'playwright-core';
import type { JobRecord } from '@comps/shared/contract/job';
import type { HistoryPage } from '@comps/shared/contract/request-history';
import type { ListingCollection } from '@comps/shared/contract/listing';
import type { SellThrough } from '@comps/shared/contract/sell-through';
import type { Usage } from '@comps/shared/contract/usage';
import { accountsClient, setLimitsInForce } from '../../helpers/accounts-client.js';
import { launchBrowser, openPage, saveScreenshot } from '../../helpers/browser.js';
import { createKeyInBrowser, FormClient, signUpInBrowser, uniqueEmail } from '../../helpers/dashboard.js';
import { eventually, request } from '../../helpers/http-client.js';
import { createJob, waitForJob } from '../../helpers/jobs.js';
import { startTestStack } from '../../helpers/test-stack.js';

// The Explore page and a job's page, in a browser: one metered search for the signed-in workspace
// (the API's answer, charged as the API charges, in the history as the dashboard's), the sell-through
// (charged 2), a job's statistics, charts and items, and what another workspace may not see or do.

const stack = await startTestStack(t);
const browser = await launchBrowser(t);
const { page, problems } = await openPage(browser, stack.baseUrl);
await signUpInBrowser(page, uniqueEmail('explore'));
const apiKey = await createKeyInBrowser(page, 'explore');
const { workspaceId } = (await request<Usage>(stack.baseUrl, '/usage', { apiKey })).body;
// A free workspace runs one request at a time (a sell-through's two calls need two), ten a minute.
await setLimitsInForce(stack, { workspaceId, apiKey }, { concurrency: 4, rateLimit: 1000 });

const KEYWORD = 'sony wh-1000xm4';
const money = (value: number, currency: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);

async function settledUsed(): Promise<number> {
  return eventually('every unit settled', async () => {
    const answer = await request<Usage>(stack.baseUrl, '/usage', { apiKey });
    if (answer.status !== 200) throw new Error(`/usage answered ${answer.status}: ${answer.text}`);
    const usage = answer.body;
    return usage.used + usage.remaining === usage.plan.monthlyQuota ? usage.used : undefined;
  });
}

/** The counts of a histogram's "Show as a table", added up. */
async function binTotal(histogram: Locator): Promise<number> {
  await histogram.getByText('Show as a table').click();
  const counts = await histogram.locator('details table tbody tr td:nth-child(3)').allTextContents();
  return counts.reduce((sum, count) => sum + Number(count.replace(/,/g, '')), 0);
}

async function entriesOn(path: string, count: number) {
  return eventually(`${count} entries of ${path}`, async () => {
    const entries = (await request<HistoryPage>(stack.baseUrl, '/requests?limit=100', { apiKey })).body.entries.filter((entry) => entry.path === path);
    return entries.length >= count ? entries : undefined;
  });
}

t.test('a search on the Explore page: the API\'s statistics, the charts, the listings, charged 1 as the dashboard\'s', async (t) => {
  const usedBefore = await settledUsed();
  await page.getByRole('link', { name: 'Explore' }).click();
  await page.waitForURL('**/dashboard/explore');
  await page.getByLabel('Keyword').fill(KEYWORD);
  await page.getByLabel('Site').selectOption('market.com');
  await page.getByLabel('Condition').selectOption('any');
  await page.getByLabel('Sold').check();
  await page.getByRole('button', { name: 'Search (1 request)' }).click();
  await page.locator('#results').waitFor();

  const api = await request<ListingCollection>(stack.baseUrl, `/v1/scrape?keyword=${encodeURIComponent(KEYWORD)}&marketSite=market.com&itemCondition=any&sold=true`, { apiKey });
  t.equal(api.status, 200);
  const { stats, items } = api.body;
  t.ok(stats.unitPrice && stats.currency === 'USD' && stats.counted >= 3, `the search prices (${stats.counted} counted)`);
  t.equal(await page.getByTestId('median').textContent(), money(stats.unitPrice!.median, 'USD'), 'the median is the API\'s');
  t.equal(await page.getByTestId('confidence').textContent(), `${stats.counted} sales, ${stats.confidence} confidence`, 'its confidence in words');
  t.match(await page.locator('#explore-comps').textContent(), `${stats.counted} items counted of ${stats.listings} listings`, 'counted of listings');
  t.equal(await page.getByTestId('interval').textContent(), `95 % interval ${money(stats.medianInterval!.low, 'USD')} to ${money(stats.medianInterval!.high, 'USD')}`);

  // The charts: bars of counted prices with the median and the fences; a point per counted sale with a date.
  const histogram = page.locator('#explore-prices');
  const bars = await histogram.locator('svg rect.bar-counted').count();
  t.ok(bars >= 2, `the histogram has bars (${bars})`);
  t.equal(await histogram.locator('svg .marker-median').count(), 1, 'the median marked');
  t.equal(await histogram.locator('svg .marker-fence').count(), stats.fences ? 2 : 0, 'the fences marked');
  t.match(await histogram.locator('svg').textContent(), /\$\d/, 'prices in dollars on the axis');
  const datedSales = items.filter((item) => item.comps.counted && item.soldDate).length;
  t.equal(await page.locator('#explore-sales svg circle.sale-point').count(), datedSales, 'a point per counted sale with a date');
  t.equal(await page.locator('#explore-sales svg polyline.median-line').count(), stats.daily.filter((day) => day.median !== null).length > 1 ? 1 : 0, 'the daily median as a line');

  // "Show as a table": the bins' counts add up to the counted items.
  const binTable = histogram.locator('details table');
  t.notOk(await binTable.isVisible(), 'the table is folded away');
  await histogram.getByText('Show as a table').click();
  t.ok(await binTable.isVisible(), 'and shows when asked');
  const binCounts = await binTable.locator('tbody tr td:nth-child(3)').allTextContents();
  t.equal(binCounts.length, bars, 'a row per bar');
  t.equal(binCounts.reduce((sum, count) => sum + Number(count.replace(/,/g, '')), 0), stats.counted, 'every counted item in one bin');

  // The listings: a row per item, in order, linked to the listing, with its classification.
  const rows = page.locator('table.listings tbody tr');
  t.equal(await rows.count(), items.length, 'a row per listing');
  t.strictSame(await rows.evaluateAll((cells) => cells.map((row) => row.getAttribute('data-item-id'))), items.map((item) => item.itemId), 'in the API\'s order');
  const link = rows.first().getByRole('link');
  t.equal(await link.getAttribute('href'), items[0]!.url, 'each links to the listing');
  t.equal(await link.getAttribute('rel'), 'noopener noreferrer');
  t.equal(await link.getAttribute('target'), '_blank');
  const excluded = items.find((item) => item.comps.excludedBecause === 'accessory') ?? items.find((item) => !item.comps.counted);
  if (excluded) t.match(await page.locator(`tr[data-item-id="${excluded.itemId}"]`).textContent(), /Not counted/, 'a listing left out says so, and why');
  const counted = items.find((item) => item.comps.counted)!;
  t.match(await page.locator(`tr[data-item-id="${counted.itemId}"]`).textContent(), money(counted.comps.unitPrice!.value, 'USD'), 'a counted one its unit price');

  const entries = await entriesOn('/dashboard/explore', 1);
  t.strictSame(entries.map((entry) => [entry.method, entry.status, entry.charged, entry.apiKeyPrefix, entry.resultCount]), [['POST', 200, 1, null, items.length]], 'one entry, the dashboard\'s, charged 1');
  t.equal(await settledUsed(), usedBefore + 2, 'the dashboard\'s search and the API\'s: 1 each');

  await saveScreenshot(page, 'explore-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  t.ok(await page.evaluate('document.documentElement.scrollWidth <= 375'), 'nothing wider than a phone\'s screen');
  await saveScreenshot(page, 'explore-375');
  await page.setViewportSize({ width: 1280, height: 900 });
  t.strictSame(problems, []);
});

t.test('the sell-through button: the API\'s answer, charged 2', async (t) => {
  const usedBefore = await settledUsed();
  const button = page.getByRole('button', { name: 'Sell-through (2 requests)' });
  t.ok(await button.isVisible(), 'the button says what it costs');
  await button.click();
  await page.locator('#sell-through').waitFor();
  // The dashboard's two calls charged (and their slots given back) before the API's two are asked.
  t.equal(await settledUsed(), usedBefore + 2, 'the dashboard\'s sell-through charged 2');
  const answer = await request<SellThrough>(stack.baseUrl, `/v1/sell-through?keyword=${encodeURIComponent(KEYWORD)}&marketSite=market.com`, { apiKey });
  t.equal(answer.status, 200, `the API's sell-through answered: ${answer.text}`);
  const api = answer.body;
  t.equal(await page.getByTestId('sold-total').textContent(), api.sold.totalResults!.toLocaleString('en-US'), 'sold listings');
  t.equal(await page.getByTestId('active-total').textContent(), api.active.totalResults!.toLocaleString('en-US'), 'active listings');
  t.equal(await page.getByTestId('sell-through').textContent(), `${(api.sellThrough! * 100).toFixed(1)} %`, 'the ratio');
  const entries = await entriesOn('/dashboard/explore/sell-through', 2);
  t.strictSame(entries.map((entry) => [entry.method, entry.status, entry.charged, entry.apiKeyPrefix]), [
    ['POST', 200, 1, null],
    ['POST', 200, 1, null],
  ], 'two calls, each charged 1');
  t.equal(await settledUsed(), usedBefore + 4, 'the dashboard\'s 2 and the API\'s 2');
});

t.test('a failure is a message in words under the contract\'s status, and costs nothing', async (t) => {
  const usedBefore = await settledUsed();
  await page.getByLabel('Keyword').fill(`${KEYWORD} sim:error`);
  const [response] = await Promise.all([page.waitForResponse((answer) => answer.url().endsWith('/dashboard/explore')), page.getByRole('button', { name: 'Search (1 request)' }).click()]);
  t.equal(response.status(), 502, 'the status of upstream_error');
  t.match(await page.getByRole('alert').textContent(), /The marketplace answered with an error.*Nothing was charged/s);
  t.equal(await page.getByTestId('error-code').textContent(), 'Error 502 · upstream_error');
  t.equal(await page.getByLabel('Keyword').inputValue(), `${KEYWORD} sim:error`, 'the form keeps what was typed');
  t.equal(await settledUsed(), usedBefore, 'nothing charged');
});

t.test('a job\'s page: its progress while it runs, then its statistics, charts, items and CSV', async (t) => {
  const slow = await createJob(stack, apiKey, { keyword: 'vintage camera sim:slow=2500', maxPages: 1, count: 20 });
  t.equal(slow.status, 202);
  await page.goto(`/dashboard/jobs/${slow.body.jobId}`);
  t.equal(await page.locator('meta[http-equiv="refresh"]').getAttribute('content'), '3', 'a running job\'s page reloads itself');
  t.match(await page.getByTestId('job-status').textContent(), /queued|running/);
  await page.goto('/dashboard/jobs');
  await waitForJob(stack, apiKey, slow.body.jobId);

  const created = await createJob(stack, apiKey, { keyword: 'vintage camera', maxPages: 2, count: 60 });
  const job = await waitForJob(stack, apiKey, created.body.jobId);
  t.equal(job.status, 'completed');
  await page.goto('/dashboard/jobs');
  await page.getByRole('link', { name: 'vintage camera', exact: true }).click();
  await page.waitForURL(`**/dashboard/jobs/${job.jobId}`);
  t.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0, 'an ended job\'s page stays still');
  t.equal(await page.getByTestId('job-status').textContent(), 'completed');
  t.equal(await page.getByTestId('items-collected').textContent(), String(job.progress.itemsCollected));
  t.equal(await page.getByTestId('median').textContent(), money(job.stats.unitPrice!.median, job.stats.currency!), 'the median over every item');
  t.equal(await page.getByTestId('confidence').textContent(), `${job.stats.counted} sales, ${job.stats.confidence} confidence`);
  // The charts draw every counted item of the job: the bins' counts add up to them, a point per one with a date.
  const all = (await request<JobRecord>(stack.baseUrl, `/v1/scrape/max/results/${job.jobId}?limit=5000`, { apiKey })).body.items;
  const counted = all.filter((item) => item.comps.counted && item.comps.unitPrice);
  t.equal(counted.length, job.stats.counted, 'the items counted are the statistics\' count');
  t.ok((await page.locator('#job-prices svg rect.bar-counted').count()) >= 2, 'the histogram');
  t.equal(await binTotal(page.locator('#job-prices')), job.stats.counted, 'every counted item in one bin');
  t.equal(await page.locator('#job-sales svg circle.sale-point').count(), counted.filter((item) => item.soldDate).length, 'a point per counted sale with a date');
  t.equal(await page.locator('table.listings tbody tr').count(), Math.min(100, job.progress.itemsCollected), 'the first page of items');
  t.equal(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'), `/dashboard/jobs/${job.jobId}/download.csv`, 'the CSV link');
  await saveScreenshot(page, 'job-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  t.ok(await page.evaluate('document.documentElement.scrollWidth <= 375'), 'nothing wider than a phone\'s screen');
  await saveScreenshot(page, 'job-375');
  await page.setViewportSize({ width: 1280, height: 900 });
  // The next page of items.
  t.ok(job.progress.itemsCollected > 100, 'more items than a page of the table');
  await page.getByRole('link', { name: `Items 101–${job.progress.itemsCollected} →` }).click();
  await page.waitForURL(`**/dashboard/jobs/${job.jobId}?offset=100#items`);
  t.equal(await page.locator('table.listings tbody tr').count(), job.progress.itemsCollected - 100, 'the rest of the items');
  t.strictSame(problems, []);

  // Another workspace's job, even by its exact address, is not found; nor is a job that does not exist.
  const stranger = new FormClient(stack.baseUrl);
  await stranger.signUp(uniqueEmail('stranger'));
  const theirs = await stranger.get(`/dashboard/jobs/${job.jobId}`);
  t.equal(theirs.status, 404, 'another workspace\'s job: 404');
  t.match(theirs.headers.get('content-type'), /^text\/html/);
  t.match(theirs.text, /Page not found/);
  t.notMatch(theirs.text, /vintage camera/, 'nothing of it shows');
  const none = await page.goto('/dashboard/jobs/00000000-0000-4000-8000-000000000000');
  t.equal(none?.status(), 404, 'a job that does not exist: 404');

  // A job that keeps its items for its CSV only still has its charts: they come from its statistics.
  const download = await waitForJob(stack, apiKey, (await createJob(stack, apiKey, { keyword: 'vintage camera', maxPages: 1, count: 60, resultType: 'download' })).body.jobId);
  await page.goto(`/dashboard/jobs/${download.jobId}`);
  t.match(await page.locator('#items').textContent(), /keeps its items for its CSV only/);
  t.ok(download.stats.counted > 0, `the download job counted items (${download.stats.counted})`);
  t.equal(await binTotal(page.locator('#job-prices')), download.stats.counted, 'its histogram has every counted item');
  t.strictSame(problems, []);
});

t.test('the Explore forms without their CSRF token are refused, and nothing is searched', async (t) => {
  const stranger = new FormClient(stack.baseUrl);
  await stranger.signUp(uniqueEmail('forger'));
  for (const path of ['/dashboard/explore', '/dashboard/explore/sell-through']) {
    const refused = await stranger.post(path, { keyword: KEYWORD, marketSite: 'market.com' });
    t.equal(refused.status, 403, `${path}: 403`);
    t.match(refused.text, /This form has expired/);
  }
  t.notMatch((await stranger.get('/dashboard/requests')).text, /POST \/dashboard\/explore/, 'no search in its history');
  // With its token the same form works, and a workspace whose quota is used up is told so.
  const { key } = await stranger.createKey('forger');
  const theirs = (await request<Usage>(stack.baseUrl, '/usage', { apiKey: key })).body.workspaceId;
  await accountsClient(stack).workspaces.setLimits.mutate({ workspaceId: theirs, monthlyQuota: 0 });
  const spent = await stranger.post('/dashboard/explore', { _csrf: await stranger.sessionCsrf(), keyword: KEYWORD, marketSite: 'market.com', sold: 'true' });
  t.equal(spent.status, 403, 'quota_exhausted\'s status');
  t.match(spent.text, /monthly quota of requests is used up/);
  t.match(spent.text, /Error 403 · <code>quota_exhausted<\/code>/);
  t.match(await eventually('the refused search recorded', async () => {
    const text = (await stranger.get('/dashboard/requests')).text;
    return /POST \/dashboard\/explore/.test(text) ? text : undefined;
  }), /403/, 'the refused search is in its history, as the dashboard\'s');
});
