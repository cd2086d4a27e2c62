import t from 'tap';
import type { Run, SaleList, TrackedSearch } from '@comps/shared/contract/tracked-search';
import { createDb } from '@comps/shared/db/create-db';
import type { JobsDatabase } from '../../../services/jobs/src/db/database.js';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { usedOf, wholeHistoryOf } from '../../helpers/usage-of.js';
import { TEST_DATABASE_URL } from '../../helpers/test-env.js';
import { startTestStack, type TestStack } from '../../helpers/test-stack.js';

// Through Caddy on the simulator: tracked searches created, run by the jobs processes, read back. One stack for the
// file (each test has workspaces of its own) with a scheduler that looks for due searches often, for the missed runs;
// a short lease, for the kill of the jobs process, a short claim of a dead process's charges (the default 30 s
// would make the settled usage wait for it when the kill fell while it settled some) and a short quota allowance
// lease, swept often (the dead process's allowance is held until its lease runs out, 60 s by default). The test of two jobs processes
// has its own stack, with the default lease: a short one lapses on a busy machine, and the processes then take each
// other's tasks over and over.
const SCHEDULER_ENV = { MARKET_SIM_PAGE_STYLE: 'lean', TRACKED_SCHEDULER_INTERVAL_MS: '300' };
const stack = await startTestStack(t, {
  env: { ...SCHEDULER_ENV, SETTLEMENT_CLAIM_IDLE_MS: '3000', ALLOWANCE_LEASE_MS: '10000' },
  serviceEnv: { jobs: { JOBS_LEASE_MS: '1500', QUOTA_SWEEP_INTERVAL_MS: '500' } },
});

const create = (stack: TestStack, apiKey: string, body: unknown) => request<TrackedSearch>(stack.baseUrl, '/v1/tracked-searches', { method: 'POST', apiKey, body });
/** The id of a tracked search created with `body`; a refusal fails the test with its answer, rather than a wait on no id. */
async function createdId(stack: TestStack, apiKey: string, body: unknown): Promise<string> {
  const created = await create(stack, apiKey, body);
  if (created.status !== 201) throw new Error(`creating a tracked search answered ${created.status}: ${created.text}`);
  return created.body.trackedSearchId;
}
const read = async (stack: TestStack, apiKey: string, id: string) => (await request<TrackedSearch>(stack.baseUrl, `/v1/tracked-searches/${id}`, { apiKey })).body;

/** Polls the tracked search until its last run has ended (and is not `runId`'s predecessor). */
function lastRunEnded(stack: TestStack, apiKey: string, id: string, runId?: string, timeoutMs = 60_000): Promise<Run> {
  return eventually(`the run of ${id} ends`, async () => {
    const run = (await read(stack, apiKey, id)).lastRun;
    return run && run.status !== 'running' && (!runId || run.runId === runId) ? run : undefined;
  }, { timeoutMs, intervalMs: 150 });
}

async function allSales(stack: TestStack, apiKey: string, id: string) {
  const sales: SaleList['sales'] = [];
  let cursor: string | null = null;
  do {
    const page: SaleList = (await request<SaleList>(stack.baseUrl, `/v1/tracked-searches/${id}/sales?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, { apiKey })).body;
    sales.push(...page.sales);
    cursor = page.nextCursor;
  } while (cursor);
  return sales;
}

t.test('create, run, read: sales and statistics; a second run is caught up after one charged page and stores no sale twice', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const created = await create(stack, apiKey, { keyword: 'vintage brass lamp -shade', name: 'Brass lamps', maxPagesPerRun: 2, minPrice: 20 });
  t.equal(created.status, 201);
  t.equal(created.headers.get('location'), `/v1/tracked-searches/${created.body.trackedSearchId}`);
  t.match(created.body, { name: 'Brass lamps', status: 'active', schedule: 'daily', maxPagesPerRun: 2, query: { keyword: 'vintage brass lamp -shade', minPrice: 20 }, lastRun: { trigger: 'schedule' } });
  const id = created.body.trackedSearchId;
  const first = await lastRunEnded(stack, apiKey, id);
  t.match(first, { status: 'completed', stopReason: 'max_pages', pagesFetched: 2, pagesCharged: 2 });
  const afterFirst = await read(stack, apiKey, id);
  t.equal(afterFirst.archive.sales, first.newSales, 'the archive holds what the run found');
  t.ok(first.newSales > 300, `${first.newSales} sales from two pages of 200`);
  t.equal(await usedOf(stack, workspaceId), 2, 'each page charged once');

  const sales = await allSales(stack, apiKey, id);
  t.equal(sales.length, afterFirst.archive.sales);
  t.equal(new Set(sales.map((sale) => sale.itemId)).size, sales.length, 'no sale twice');
  t.notOk(sales.some((sale) => /shade/i.test(sale.title)), '-shade is respected');
  t.ok(sales.every((sale) => sale.price === null || sale.price.value >= 20), 'minPrice is respected');
  t.ok(sales.every((sale) => typeof sale.firstSeenAt === 'string' && sale.comps !== undefined));

  const manual = await request<Run>(stack.baseUrl, `/v1/tracked-searches/${id}/runs`, { method: 'POST', apiKey });
  t.equal(manual.status, 202);
  t.equal(manual.body.trigger, 'manual');
  const second = await lastRunEnded(stack, apiKey, id, manual.body.runId);
  t.match(second, { status: 'completed', stopReason: 'caught_up', pagesFetched: 1, pagesCharged: 1, newSales: 0 });
  t.equal(await usedOf(stack, workspaceId), 3, 'the caught-up page is charged');
  t.equal((await read(stack, apiKey, id)).archive.sales, afterFirst.archive.sales, 'no sale stored twice');
  const history = (await wholeHistoryOf(stack, workspaceId)).filter((entry) => entry.path === '/v1/tracked-searches/{trackedSearchId}/runs');
  t.strictSame(
    history.map((entry) => [entry.charged, entry.jobId]).sort(),
    [[0, second.runId], [1, first.runId], [1, first.runId], [1, second.runId]].sort(),
    "the runs' three pages, charged, with their run as jobId; and the request that started the second run, free",
  );

  const stats = await request(stack.baseUrl, `/v1/tracked-searches/${id}/stats?interval=day`, { apiKey });
  t.equal(stats.status, 200);
  t.equal(stats.body.stats.listings, afterFirst.archive.sales, 'statistics over the whole archive');
  t.ok(stats.body.series.length > 0, 'one entry per day with sales');
  t.equal(stats.body.series.reduce((sum: number, entry: { counted: number }) => sum + entry.counted, 0), stats.body.stats.counted);

  const csv = await fetch(`${stack.baseUrl}/v1/tracked-searches/${id}/sales.csv`, { headers: { authorization: `Bearer ${apiKey}` } });
  t.equal(csv.status, 200);
  t.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
  const lines = (await csv.text()).split('\r\n');
  t.match(lines[0], /^firstSeenAt,itemId,title,url,/);
  t.equal(lines.length, sales.length + 2, 'the header, a row per sale, and the last CRLF');
});

t.test("another workspace gets 404 on every tracked-search route; the plan's number gives 409; one run at a time", async (t) => {
  const owner = await createWorkspace(stack, { plan: 'pro' });
  const stranger = await createWorkspace(stack, { plan: 'pro' });
  const slow = await create(stack, owner.apiKey, { keyword: 'desk lamp sim:slow=1500', maxPagesPerRun: 2 });
  t.equal(slow.status, 201);
  const id = slow.body.trackedSearchId;
  assertError(t, await request(stack.baseUrl, `/v1/tracked-searches/${id}/runs`, { method: 'POST', apiKey: owner.apiKey }), 409, 'run_in_progress');
  const routes: Array<[string, string, unknown?]> = [
    ['GET', ''],
    ['PATCH', '', { name: 'mine' }],
    ['DELETE', ''],
    ['POST', '/runs'],
    ['GET', '/runs'],
    ['GET', '/sales'],
    ['GET', '/sales.csv'],
    ['GET', '/stats'],
  ];
  for (const [method, suffix, body] of routes) {
    assertError(t, await request(stack.baseUrl, `/v1/tracked-searches/${id}${suffix}`, { method, apiKey: stranger.apiKey, ...(body ? { body } : {}) }), 404, 'tracked_search_not_found');
  }
  t.equal((await request(stack.baseUrl, '/v1/tracked-searches', { apiKey: stranger.apiKey })).body.trackedSearches.length, 0, "the other's list is empty");

  const limited = await createWorkspace(stack, { plan: 'free' });
  t.equal((await create(stack, limited.apiKey, { keyword: 'lamp' })).status, 201, "the free plan's one tracked search");
  assertError(t, await create(stack, limited.apiKey, { keyword: 'another lamp' }), 409, 'tracked_search_limit');
  await lastRunEnded(stack, owner.apiKey, id);
});

t.test('SIGKILL of the jobs process during a run: the run completes, every page charged once, no sale twice', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const id = await createdId(stack, apiKey, { keyword: 'vintage lamp sim:slow=400', maxPagesPerRun: 8 });
  await eventually('two pages are stored', async () => ((await read(stack, apiKey, id)).lastRun?.pagesFetched ?? 0) >= 2 || undefined, { timeoutMs: 30_000, intervalMs: 100 });
  await stack.processes.jobs.kill();
  await stack.processes.jobs.start();
  const run = await lastRunEnded(stack, apiKey, id);
  t.match(run, { status: 'completed', stopReason: 'max_pages', pagesFetched: 8, pagesCharged: 8 });
  t.equal(await usedOf(stack, workspaceId), 8, 'every page charged exactly once (the page in flight at the kill too)');
  const sales = await allSales(stack, apiKey, id);
  t.equal(new Set(sales.map((sale) => sale.itemId)).size, sales.length, 'no duplicate sale');
  t.equal(sales.length, run.newSales, 'the run counted each stored sale once');
  t.equal((await read(stack, apiKey, id)).archive.sales, sales.length);
});

t.test('two jobs processes and many due tracked searches: each runs exactly once per due time', async (t) => {
  // The file's stack shares the database: its jobs process, with the short lease, would run these searches too.
  await stack.processes.jobs.stop();
  t.teardown(() => stack.processes.jobs.start());
  const pair = await startTestStack(t, { env: SCHEDULER_ENV });
  await pair.startExtraJobs();
  const { workspaceId, apiKey } = await createWorkspace(pair, { plan: 'pro' });
  const ids: string[] = [];
  for (let index = 0; index < 12; index += 1) ids.push(await createdId(pair, apiKey, { keyword: `lamp number ${index}`, maxPagesPerRun: 1 }));
  for (const id of ids) await lastRunEnded(pair, apiKey, id);
  // All due again at once (as after a day, or a stack that was down for a week).
  const db = createDb<JobsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 1, isolation: 'read committed' });
  t.teardown(() => db.destroy());
  await db.updateTable('trackedSearches').set({ nextRunAt: new Date(Date.now() - 7 * 86_400_000) }).where('id', 'in', ids).execute();
  const runsOf = async (id: string) => (await request<{ runs: Run[] }>(pair.baseUrl, `/v1/tracked-searches/${id}/runs`, { apiKey })).body.runs;
  await eventually('every tracked search ran again', async () => ((await Promise.all(ids.map(runsOf))).every((runs) => runs.length === 2 && runs[0]!.status !== 'running') ? true : undefined), { timeoutMs: 60_000, intervalMs: 200 });
  // Several scheduler periods later, still exactly one run per due time.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const runs = await Promise.all(ids.map(runsOf));
  t.strictSame(runs.map((list) => list.length), Array(12).fill(2), 'two runs each: at creation, and once when due');
  t.ok(runs.every((list) => list[0]!.trigger === 'schedule' && list[0]!.stopReason === 'caught_up'), 'the due run found nothing new and stopped after one page');
  t.equal(await usedOf(pair, workspaceId), 24, 'one page a run');
  const next = await db.selectFrom('trackedSearches').select('nextRunAt').where('id', 'in', ids).execute();
  t.ok(next.every((row) => row.nextRunAt!.getTime() > Date.now() + 86_400_000 * 0.99), 'the next run a day from now, not from the missed slots');
});
