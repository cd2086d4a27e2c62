import t from 'tap';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { createJob, waitForJob } from '../../helpers/jobs.js';
import { historyOf, usedOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';

/** A pass-through in front of the simulator that counts the pages asked for, by URL. */
async function countingProxy(): Promise<{ url: string; target: { url: string }; counts: Map<string, number>; server: Server }> {
  const counts = new Map<string, number>();
  const target = { url: '' };
  const server = createServer((incoming, outgoing) => {
    if (incoming.url?.includes('/sch/')) counts.set(incoming.url, (counts.get(incoming.url) ?? 0) + 1);
    const upstream = httpRequest(`${target.url}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, target, counts, server };
}

// One stack for the kill and the CSV (a short lease, so the killed process's job is taken over soon; a short claim of
// a dead process's charges, which the default 30 s would make the settled usage wait for when the kill fell while it
// settled some; and a short quota allowance lease, swept often, as the units of the dead process's allowance are held
// until its lease runs out: 60 s by default, which a CI run's settled usage waited for in vain); the test of two
// processes has its own, with the default lease: a short one could lapse on a busy machine and let a page be fetched
// twice, which is what that test says never happens.
const stack = await startTestStack(t, {
  env: { MARKET_SIM_PAGE_STYLE: 'lean', SETTLEMENT_CLAIM_IDLE_MS: '3000', ALLOWANCE_LEASE_MS: '10000' },
  serviceEnv: { jobs: { JOBS_LEASE_MS: '1500', QUOTA_SWEEP_INTERVAL_MS: '500' } },
});

t.test('the jobs process killed with SIGKILL mid-job: the job still completes, every page charged once, no duplicate items', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const { body } = await createJob(stack, apiKey, { keyword: 'vintage lamp sim:slow=400', maxPages: 8, count: 20 });
  await waitForJob(stack, apiKey, body.jobId, (job) => job.progress.pagesFetched >= 3);
  await stack.processes.jobs.kill();
  // As npm start would: the process comes back (on its port); the job is taken over when the dead one's lease expires.
  await stack.processes.jobs.start();
  const done = await waitForJob(stack, apiKey, body.jobId, undefined, 60_000);
  t.match(done, { status: 'completed', stopReason: 'max_pages', progress: { pagesFetched: 8, pagesCharged: 8, itemsCollected: 160 } });
  t.equal(new Set(done.items.map((item) => item.itemId)).size, 160, 'no duplicate items');
  t.strictSame([...new Set(done.items.map((item) => item.page))], [1, 2, 3, 4, 5, 6, 7, 8], 'it went on from the first page not yet stored');
  t.equal(await usedOf(stack, workspaceId), 8, 'every page charged exactly once (the page in flight at the kill too)');
  const history = await historyOf(stack, workspaceId, 9);
  t.equal(history.filter((entry) => entry.path === '/v1/scrape/max' && entry.charged === 1).length, 8);
});

t.test('two jobs processes running together on many jobs never fetch the same page twice', async (t) => {
  // The file's stack shares the database: its jobs process would take these jobs too, past the counting proxy.
  await stack.processes.jobs.stop();
  t.teardown(() => stack.processes.jobs.start());
  const proxy = await countingProxy();
  t.teardown(() => new Promise((resolve) => proxy.server.close(resolve)));
  const pair = await startTestStack(t, { env: { MARKET_SIM_PAGE_STYLE: 'lean' }, serviceEnv: { jobs: { MARKET_SIM_URL: proxy.url, JOBS_CONCURRENCY: '3' } } });
  proxy.target.url = `http://127.0.0.1:${pair.ports.marketSim}`;
  await pair.startExtraJobs({ MARKET_SIM_URL: proxy.url, JOBS_CONCURRENCY: '3' });
  const workspaces = await Promise.all(Array.from({ length: 10 }, () => createWorkspace(pair, { plan: 'pro' })));
  const jobs = await Promise.all(workspaces.map(({ apiKey }, i) => createJob(pair, apiKey, { keyword: `lamp number ${i} sim:slow=50`, maxPages: 4, count: 10 })));
  const done = await Promise.all(jobs.map(({ body }, i) => waitForJob(pair, workspaces[i]!.apiKey, body.jobId, undefined, 60_000)));
  t.ok(done.every((job) => job.status === 'completed' && job.progress.pagesFetched === 4), 'all ten completed, four pages each');
  const fetched = [...proxy.counts.values()];
  const pagesOf = [...proxy.counts.keys()].map((url) => `${/_nkw=([^&]*)/.exec(url)?.[1]}#${/_pgn=(\d+)/.exec(url)?.[1]}`).sort();
  t.equal(fetched.length, 40, 'forty distinct pages asked for', { pages: pagesOf });
  t.ok(fetched.every((count) => count === 1), `each exactly once (${JSON.stringify([...proxy.counts.entries()].filter(([, count]) => count > 1))})`);
  const used = await Promise.all(workspaces.map(({ workspaceId }) => usedOf(pair, workspaceId)));
  t.strictSame(used, Array(10).fill(4));
});

t.test('a CSV of about 20,000 rows streams, header first, one row per item', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const { body } = await createJob(stack, apiKey, { keyword: 'camera sim:total=50000', maxPages: 100, count: 200, resultType: 'download' });
  const done = await waitForJob(stack, apiKey, body.jobId, undefined, 120_000);
  t.match(done, { status: 'completed', stopReason: 'max_pages', progress: { pagesFetched: 100 } });
  // 100 pages of 200 rows; a listing the marketplace (and the simulator) shows again on a later page is kept once.
  const collected = done.progress.itemsCollected;
  t.ok(collected >= 19_500 && collected <= 20_000, `${collected} items collected`);
  const response = await fetch(`${stack.baseUrl}${done.downloadUrl}`, { headers: { authorization: `Bearer ${apiKey}` } });
  t.equal(response.status, 200);
  t.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.equal(response.headers.get('content-length'), null, 'streamed, not buffered to a length');
  t.match(response.headers.get('content-disposition'), /attachment; filename="job-.*\.csv"/);
  let rows = 0;
  let header = '';
  let carry = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    const lines = (carry + decoder.decode(chunk, { stream: true })).split('\r\n');
    carry = lines.pop() ?? '';
    if (!header) header = lines[0] ?? '';
    rows += lines.length;
  }
  t.equal(carry, '', 'every row ends with CRLF');
  t.match(header, /^page,itemId,title,url,/);
  t.equal(rows, collected + 1, `the header and ${collected} rows`);
});
