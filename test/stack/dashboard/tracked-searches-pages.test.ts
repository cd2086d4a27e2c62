import t from 'tap';
import type { Stats } from '@comps/shared/contract/comps';
import type { ArchiveStats, Run, SaleList, TrackedSearch } from '@comps/shared/contract/tracked-search';
import { formatMoney } from '../../../services/accounts/src/web/views/charts/chart-kit.js';
import { confidenceInWords } from '../../../services/accounts/src/web/views/comps-summary.js';
import { launchBrowser, openPage, saveScreenshot } from '../../helpers/browser.js';
import { setLimitsInForce } from '../../helpers/accounts-client.js';
import { createKeyInBrowser, FormClient, signUpInBrowser, uniqueEmail } from '../../helpers/dashboard.js';
import { eventually, request } from '../../helpers/http-client.js';
import { usedOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';

// The dashboard's tracked-search pages, in Chromium, through Caddy on the simulator; the API with a
// key made in the browser says what the pages should show.

const stack = await startTestStack(t, { env: { MARKET_SIM_PAGE_STYLE: 'lean' } });
const browser = await launchBrowser(t);

/** Slow pages (the simulator waits before each), so that the first run is still running when Run now is pressed. */
const KEYWORD = 'vintage brass lamp sim:slow=1500';

t.test('tracked searches from the dashboard: create, run now, read the series, statistics, sales and runs, pause, delete', async (t) => {
  const { context, page, problems } = await openPage(browser, stack.baseUrl);
  await signUpInBrowser(page, uniqueEmail('tracked'));
  const apiKey = await createKeyInBrowser(page, 'tracked');
  const api = async <T>(path: string) => (await request<T>(stack.baseUrl, path, { apiKey })).body;
  const { workspaceId } = await api<{ workspaceId: string }>('/usage');
  // The free plan's 10 requests a minute would hold up the test's own reads of the API (its tracked-search number, 1, stays).
  await setLimitsInForce(stack, { workspaceId, apiKey }, { rateLimit: 1000 });

  await page.goto('/dashboard/tracked-searches');
  t.match(await page.getByTestId('tracked-count').textContent(), /0 of 1 tracked searches of the Free plan/, "the free plan's number");

  // A refused form comes back with its values and says why.
  await page.getByLabel('Keyword').fill(KEYWORD);
  await page.getByLabel('Name').fill('Brass lamps');
  await page.getByLabel('Lowest price').fill('50');
  await page.getByLabel('Highest price').fill('10');
  await page.getByLabel('Pages per run').fill('2');
  const [refused] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Track this search' }).click()]);
  t.equal(refused.status(), 400, 'a refused form: 400');
  t.match(await page.getByRole('alert').textContent(), /Lowest price must not be above the highest price/);
  t.equal(await page.getByLabel('Keyword').inputValue(), KEYWORD, 'the values are kept');
  t.equal(await page.getByLabel('Highest price').inputValue(), '10');
  t.equal(await page.getByLabel('Pages per run').inputValue(), '2');

  await page.getByLabel('Lowest price').fill('');
  await page.getByLabel('Highest price').fill('');
  await page.getByRole('button', { name: 'Track this search' }).click();
  await page.waitForURL(/\/dashboard\/tracked-searches\/ts_[0-9A-Z]{26}$/);
  const id = page.url().split('/').pop()!;
  t.match(await api<TrackedSearch>(`/v1/tracked-searches/${id}`), { name: 'Brass lamps', maxPagesPerRun: 2, schedule: 'daily', query: { keyword: KEYWORD, minPrice: null }, lastRun: { trigger: 'schedule' } }, 'created as the form said');

  // Its first run (at creation) is still fetching its slow pages.
  const [busy] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Run now' }).click()]);
  t.equal(busy.status(), 409, 'Run now while a run runs: 409');
  t.match(await page.getByRole('alert').textContent(), /already running/, 'and the page says so');

  const runEnded = (check: (run: Run) => boolean) =>
    eventually('the run ends', async () => {
      const run = (await api<TrackedSearch>(`/v1/tracked-searches/${id}`)).lastRun;
      return run && run.status !== 'running' && check(run) ? run : undefined;
    }, { timeoutMs: 60_000, intervalMs: 400 });
  const first = await runEnded(() => true);
  t.match(first, { trigger: 'schedule', status: 'completed', stopReason: 'max_pages', pagesCharged: 2 });

  await page.goto(`/dashboard/tracked-searches/${id}`);
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.waitForURL(/\?done=run$/);
  t.match(await page.getByRole('status').first().textContent(), /A run has started/);
  const manual = await runEnded((run) => run.trigger === 'manual');
  t.match(manual, { status: 'completed', stopReason: 'caught_up', pagesFetched: 1, pagesCharged: 1, newSales: 0 });
  t.equal(await usedOf(stack, workspaceId), 3, "each page charged once, the dashboard's run as the API's");

  // Runs with their stop reasons in words.
  await page.goto(`/dashboard/tracked-searches/${id}`);
  const runRow = (run: Run) => page.locator(`tr[data-run-id="${run.runId}"]`);
  t.match(await runRow(manual).textContent(), /Run now\s*completed\s*1\s*1\s*0\s*caught up: a page with no new sale/);
  t.match(await runRow(first).textContent(), new RegExp(`Schedule\\s*completed\\s*2\\s*2\\s*${first.newSales.toLocaleString('en-US')}\\s*reached its pages per run`));

  // The series chart: a band and a line, with its table behind "Show as a table".
  const trackedSearch = await api<TrackedSearch>(`/v1/tracked-searches/${id}`);
  const weekly = await api<ArchiveStats>(`/v1/tracked-searches/${id}/stats`);
  const chart = page.locator('#price svg.chart');
  t.equal(await chart.locator('.series-band').count() > 0, true, 'the band is drawn');
  t.equal(await chart.locator('.series-median, .series-point').count() > 0, true, 'and the median');
  const priceLabels = (await chart.locator('text').allTextContents()).filter((label) => label.startsWith('$'));
  t.ok(priceLabels.length >= 2, `the price axis in dollars: ${priceLabels.join(', ')}`);
  await saveScreenshot(page, 'tracked-search-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  t.ok(await page.evaluate('document.documentElement.scrollWidth <= 375'), 'nothing wider than a phone');
  await saveScreenshot(page, 'tracked-search-375');
  await page.setViewportSize({ width: 1280, height: 900 });
  const table = page.locator('#price table');
  t.notOk(await table.isVisible(), 'the table is folded');
  await page.locator('#price summary', { hasText: 'Show as a table' }).click();
  t.ok(await table.isVisible(), 'and unfolds');
  t.equal(await table.locator('tbody tr').count(), weekly.series.length, 'a row per week of the series');

  await page.getByRole('link', { name: 'By day' }).click();
  await page.waitForURL(/interval=day/);
  const daily = await api<ArchiveStats>(`/v1/tracked-searches/${id}/stats?interval=day`);
  t.ok(daily.series.length >= 2, `${daily.series.length} days with sales`);
  t.equal(await page.locator('#price table tbody tr').count(), daily.series.length, 'a row per day');
  t.equal(await page.locator('#price svg.chart path.series-median').count() > 0, true, 'a line over the days');

  // The statistics of a chosen period are the API's.
  const to = trackedSearch.archive.lastSoldDate!;
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(new RegExp(`from=${from}&to=${to}&interval=day`));
  const period = (await api<ArchiveStats>(`/v1/tracked-searches/${id}/stats?from=${from}&to=${to}`)).stats as Stats;
  t.ok(period.counted > 0 && period.listings < trackedSearch.archive.sales, `the period holds ${period.listings} of ${trackedSearch.archive.sales} sales`);
  const summary = page.locator('#period-stats');
  t.equal(await summary.getByTestId('median').textContent(), formatMoney(period.unitPrice!.median, period.currency), 'the median of the API');
  t.equal(await summary.getByTestId('confidence').textContent(), confidenceInWords(period), 'its count and confidence');
  t.match(await summary.textContent(), new RegExp(`${period.counted} items? counted of ${period.listings} listings`));
  t.match(await page.getByRole('heading', { name: /^Statistics of/ }).textContent(), `Statistics of sold ${from} to ${to}`);

  // Recent sales: the newest of the period, each linking to its listing, and the next page.
  const sales = await api<SaleList>(`/v1/tracked-searches/${id}/sales?from=${from}&to=${to}&limit=20`);
  const rows = page.locator('#sales tbody tr');
  t.strictSame(await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-item-id'))), sales.sales.map((sale) => sale.itemId), 'the newest 20, in order');
  t.equal(await rows.first().getByRole('link').getAttribute('href'), sales.sales[0]!.url, 'linked to its listing');
  t.ok(sales.nextCursor, 'more than one page of sales');
  await page.getByRole('link', { name: 'Older sales →' }).click();
  await page.waitForURL(/cursor=/);
  const older = await api<SaleList>(`/v1/tracked-searches/${id}/sales?from=${from}&to=${to}&limit=20&cursor=${sales.nextCursor}`);
  t.equal(await rows.first().getAttribute('data-item-id'), older.sales[0]!.itemId, 'the next page');
  t.equal(await page.locator('#period-from').inputValue(), from, 'the period kept');

  // The archive as CSV, with the session.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  t.equal(download.suggestedFilename(), `sales-${id}.csv`);
  let csv = '';
  for await (const chunk of await download.createReadStream()) csv += String(chunk);
  t.match(csv, /^firstSeenAt,itemId,title,url,/);
  t.equal(csv.trim().split('\r\n').length - 1, trackedSearch.archive.sales, 'a row per archived sale');

  // A period the API would refuse is a 400 page that says why.
  for (const [query, message] of [
    ['interval=year', /The step must be one of day, week, month/],
    ['from=2026-02-30', /The start date must be a calendar date/],
    ['from=2026-11-20&to=2026-11-01', /The start date must not be after the end date/],
  ] as const) {
    const answer = await page.goto(`/dashboard/tracked-searches/${id}?${query}`);
    t.equal(answer?.status(), 400, `${query}: 400`);
    t.match(await page.locator('main').textContent(), message);
  }

  // Pause and resume.
  await page.goto(`/dashboard/tracked-searches/${id}`);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.waitForURL(/\?done=paused$/);
  t.match(await page.getByTestId('tracked-status').textContent(), /paused/);
  t.match(await api<TrackedSearch>(`/v1/tracked-searches/${id}`), { status: 'paused', nextRunAt: null });
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.waitForURL(/\?done=resumed$/);
  t.match(await page.getByTestId('tracked-status').textContent(), /active/);
  t.equal((await api<TrackedSearch>(`/v1/tracked-searches/${id}`)).status, 'active');
  // Resumed, it is due at once: its run finds nothing new.
  t.match(await runEnded((run) => run.runId !== manual.runId && run.trigger === 'schedule'), { status: 'completed', stopReason: 'caught_up' }, 'resumed: run by its schedule at once');

  // The list, and the plan's number reached.
  await page.goto('/dashboard/tracked-searches');
  t.match(await page.getByTestId('tracked-count').textContent(), /1 of 1 tracked searches/);
  const listed = page.locator(`tr[data-tracked-search-id="${id}"]`);
  t.match(await listed.textContent(), /Brass lamps[\s\S]*Every day[\s\S]*active[\s\S]*caught up: a page with no new sale/);
  t.match(await listed.locator('td.num').textContent(), new RegExp(`^${trackedSearch.archive.sales}`), 'its sales archived');
  await saveScreenshot(page, 'tracked-searches-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  t.ok(await page.evaluate('document.documentElement.scrollWidth <= 375'), 'nothing wider than a phone');
  await saveScreenshot(page, 'tracked-searches-375');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByLabel('Keyword').fill('another lamp');
  const [limited] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Track this search' }).click()]);
  t.equal(limited.status(), 409, "the plan's number reached: 409");
  t.match(await page.getByRole('alert').textContent(), /Your plan allows 1 tracked search, and it is in use/);
  t.equal(await page.getByLabel('Keyword').inputValue(), 'another lamp', 'the value kept');

  // Another workspace: the 404 page on every route, and nothing listed.
  const stranger = new FormClient(stack.baseUrl);
  await stranger.signUp(uniqueEmail('stranger'));
  const strangerCsrf = await stranger.sessionCsrf();
  for (const path of ['', '/delete', '/sales.csv']) {
    const answer = await stranger.get(`/dashboard/tracked-searches/${id}${path}`);
    t.equal(answer.status, 404, `GET ${path || 'the page'}: 404`);
    t.match(answer.headers.get('content-type'), /^text\/html/);
  }
  for (const action of ['run', 'pause', 'resume', 'delete']) {
    t.equal((await stranger.post(`/dashboard/tracked-searches/${id}/${action}`, { _csrf: strangerCsrf })).status, 404, `POST ${action}: 404`);
  }
  t.notMatch((await stranger.get('/dashboard/tracked-searches')).text, new RegExp(id), 'not in its list');

  // The owner's own session, without the form's token: refused, nothing deleted.
  const forger = new FormClient(stack.baseUrl);
  for (const cookie of await context.cookies()) forger.cookies.set(cookie.name, cookie.value);
  const forged = await forger.post(`/dashboard/tracked-searches/${id}/delete`, {});
  t.equal(forged.status, 403, 'a POST without _csrf: 403');
  t.match(forged.text, /This form has expired/);
  t.equal((await request(stack.baseUrl, `/v1/tracked-searches/${id}`, { apiKey })).status, 200, 'still there');

  // Delete, after a confirmation that says the archive goes with it.
  await page.goto(`/dashboard/tracked-searches/${id}`);
  await page.getByRole('button', { name: 'Delete Brass lamps' }).click();
  await page.waitForURL(/\/delete\??$/);
  t.match(await page.locator('main').textContent(), new RegExp(`its archive of ${trackedSearch.archive.sales.toLocaleString('en-US')} sales is deleted with it`));
  await page.getByRole('button', { name: 'Delete tracked search and archive' }).click();
  await page.waitForURL(/\/dashboard\/tracked-searches\?deleted=1$/);
  t.match(await page.getByRole('status').first().textContent(), /deleted/);
  t.match(await page.getByTestId('tracked-count').textContent(), /0 of 1/);
  t.equal((await request(stack.baseUrl, `/v1/tracked-searches/${id}`, { apiKey })).status, 404, 'gone from the API');
  t.equal((await page.goto(`/dashboard/tracked-searches/${id}`))?.status(), 404, 'and its page is the 404 page');
  t.strictSame(problems, []);
});
