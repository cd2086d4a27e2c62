import t from 'tap';
import { sql } from 'kysely';
import { createRawDb } from '@comps/shared/db/create-db';
import { testRedis } from '../../helpers/test-redis.js';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { createJob, jobResults, waitForJob } from '../../helpers/jobs.js';
import { permitsKey, untilPermitsHeld } from '../../helpers/permits.js';
import { usedOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';
import { TEST_DATABASE_URL } from '../../helpers/test-env.js';

// One page at a time in this worker, so a second job stays queued behind a slow one; a quick purge.
const stack = await startTestStack(t, {
  env: { MARKET_SIM_PAGE_STYLE: 'lean' },
  serviceEnv: { jobs: { JOBS_CONCURRENCY: '1', JOBS_PURGE_INTERVAL_MS: '300' } },
});
const db = createRawDb({ url: TEST_DATABASE_URL, connectionLimit: 1 });
t.teardown(() => db.destroy());
const redis = await testRedis(t);

/** A workspace's marketplace calls in flight (the api's and the jobs'). */
const callsInFlight = (workspaceId: string) => redis.zCard(permitsKey(stack.redisKeyPrefix, workspaceId));
/** Until the workspace has `count` marketplace calls in flight: what was sent is under way, however slow the machine. */
const holding = (workspaceId: string, count: number) => untilPermitsHeld(redis, stack.redisKeyPrefix, count, workspaceId);

t.test('20 concurrent creations from one workspace make exactly one job', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => createJob(stack, apiKey, { keyword: `lamp ${i} sim:slow=300`, maxPages: 2, count: 5 })));
  const created = answers.filter((answer) => answer.status === 202);
  t.equal(created.length, 1, 'one 202');
  const refused = answers.filter((answer) => answer.status === 409);
  t.equal(refused.length, 19, 'nineteen 409');
  for (const answer of refused) {
    const body = assertError(t, answer, 409, 'active_job_exists');
    t.equal(body.jobId, created[0]!.body.jobId, 'naming the active job');
  }
  const list = await request(stack.baseUrl, '/v1/scrape/max', { apiKey });
  t.equal(list.body.jobs.length, 1, 'one job in the list');
  await waitForJob(stack, apiKey, created[0]!.body.jobId);
  t.equal((await createJob(stack, apiKey, { keyword: 'next', maxPages: 1, count: 5 })).status, 202, 'once it ended, the next one is accepted');
});

t.test('Idempotency-Key: the same body answers 200 with the same job; another body is 409', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const key = { 'idempotency-key': 'nightly-2026-11-21' };
  const first = await createJob(stack, apiKey, { keyword: 'lamp', maxPages: 1, count: 5 }, key);
  t.equal(first.status, 202);
  const repeat = await createJob(stack, apiKey, { keyword: 'lamp', maxPages: 1, count: 5, marketSite: 'market.com' }, key);
  t.equal(repeat.status, 200, 'a repeat (defaults spelled out) is 200');
  t.equal(repeat.body.jobId, first.body.jobId, 'with the same job');
  t.equal(repeat.headers.get('idempotent-replayed'), 'true');
  assertError(t, await createJob(stack, apiKey, { keyword: 'lamp', maxPages: 2, count: 5 }, key), 409, 'idempotency_key_reused');
  await waitForJob(stack, apiKey, first.body.jobId);
  const later = await createJob(stack, apiKey, { keyword: 'lamp', maxPages: 1, count: 5 }, key);
  t.strictSame([later.status, later.body.jobId], [200, first.body.jobId], 'after the job ended too: nothing new');
  const list = await request(stack.baseUrl, '/v1/scrape/max', { apiKey });
  t.equal(list.body.jobs.length, 1, 'one job in all');
  for (const bad of ['', 'x'.repeat(256), 'tab\there']) {
    assertError(t, await createJob(stack, apiKey, { keyword: 'lamp' }, { 'idempotency-key': bad }), 400, 'invalid_idempotency_key');
  }
});

t.test('every bad body is 400 invalid_request with details; a non-JSON body 415; nothing created', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const cases: Array<[unknown, string]> = [
    [{}, 'keyword'],
    [{ keyword: '' }, 'keyword'],
    [{ keyword: '   ' }, 'keyword'],
    [{ keyword: 7 }, 'keyword'],
    [{ keyword: 'x'.repeat(351) }, 'keyword'],
    [{ keyword: 'lamp', maxPages: 0 }, 'maxPages'],
    [{ keyword: 'lamp', maxPages: 101 }, 'maxPages'],
    [{ keyword: 'lamp', maxPages: 2.5 }, 'maxPages'],
    [{ keyword: 'lamp', maxPages: '5' }, 'maxPages'],
    [{ keyword: 'lamp', count: 0 }, 'count'],
    [{ keyword: 'lamp', count: 201 }, 'count'],
    [{ keyword: 'lamp', marketSite: 'ebay.com' }, 'marketSite'],
    [{ keyword: 'lamp', resultType: 'email' }, 'resultType'],
    [[], '(root)'],
    ['lamp', '(root)'],
  ];
  for (const [body, path] of cases) {
    const response = await createJob(stack, apiKey, body);
    const error = assertError(t, response, 400, 'invalid_request');
    t.ok(error.details?.some((detail) => detail.path === path), `${JSON.stringify(body).slice(0, 40)}: details name ${path}`);
  }
  assertError(t, await request(stack.baseUrl, '/v1/scrape/max', { method: 'POST', apiKey }), 400, 'invalid_request');
  assertError(t, await request(stack.baseUrl, '/v1/scrape/max', { method: 'POST', apiKey, rawBody: 'keyword=lamp', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  assertError(t, await request(stack.baseUrl, '/v1/scrape/max', { method: 'POST', apiKey, rawBody: '{"keyword":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
  assertError(t, await request(stack.baseUrl, '/v1/scrape/max', { method: 'POST', apiKey, rawBody: JSON.stringify({ keyword: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
  assertError(t, await request(stack.baseUrl, '/v1/scrape/max', { method: 'POST', body: { keyword: 'lamp' } }), 401, 'unauthorized');
  const list = await request(stack.baseUrl, '/v1/scrape/max', { apiKey });
  t.strictSame(list.body.jobs, [], 'no job was created');
});

t.test('cancel: a queued job at once, a running one after its page in flight (charged), an ended one 409', async (t) => {
  const busy = await createWorkspace(stack, { plan: 'pro' });
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro' });
  // The worker's one slot is taken by a slow page of another workspace's job: this job stays queued.
  const blocker = await createJob(stack, busy.apiKey, { keyword: 'lamp sim:slow=6000', maxPages: 1, count: 5 });
  await waitForJob(stack, busy.apiKey, blocker.body.jobId, (job) => job.status === 'running');
  const queued = await createJob(stack, apiKey, { keyword: 'queued lamp', maxPages: 3, count: 5 });
  t.equal((await jobResults(stack, apiKey, queued.body.jobId)).status, 'queued');
  const cancelled = await request(stack.baseUrl, `/v1/scrape/max/${queued.body.jobId}`, { method: 'DELETE', apiKey });
  t.equal(cancelled.status, 200);
  t.match(cancelled.body, { jobId: queued.body.jobId, status: 'cancelled', stopReason: 'cancelled', progress: { pagesFetched: 0 } });
  assertError(t, await request(stack.baseUrl, `/v1/scrape/max/${queued.body.jobId}`, { method: 'DELETE', apiKey }), 409, 'job_finished');
  await waitForJob(stack, busy.apiKey, blocker.body.jobId);

  // Its first page takes 5 s, so that the cancel below comes while it is in flight on any machine.
  const running = await createJob(stack, apiKey, { keyword: 'running lamp sim:slow=5000', maxPages: 5, count: 5 });
  await waitForJob(stack, apiKey, running.body.jobId, (job) => job.status === 'running');
  await holding(workspaceId, 1);
  const asked = await request(stack.baseUrl, `/v1/scrape/max/${running.body.jobId}`, { method: 'DELETE', apiKey });
  t.equal(asked.status, 200);
  t.equal(asked.body.status, 'running', 'the page in flight finishes first');
  const done = await waitForJob(stack, apiKey, running.body.jobId);
  t.match(done, { status: 'cancelled', stopReason: 'cancelled', progress: { pagesFetched: 1, pagesCharged: 1, itemsCollected: 5 } }, 'the page in flight was stored and charged; nothing after it');
  t.equal(await usedOf(stack, workspaceId), 1);
});

t.test("another workspace's job, an unknown id and an expired job are the same 404; a malformed id is 400", async (t) => {
  const owner = await createWorkspace(stack, { plan: 'pro' });
  const other = await createWorkspace(stack, { plan: 'pro' });
  const { body: job } = await createJob(stack, owner.apiKey, { keyword: 'lamp', maxPages: 1, count: 5 });
  await waitForJob(stack, owner.apiKey, job.jobId);
  const unknown = '00000000-0000-4000-8000-000000000000';
  const routes = (jobId: string): Array<[string, string]> => [
    ['GET', `/v1/scrape/max/results/${jobId}`],
    ['DELETE', `/v1/scrape/max/${jobId}`],
    ['GET', `/v1/scrape/max/${jobId}/download.csv`],
  ];
  for (const [[method, path], [, unknownPath]] of routes(job.jobId).map((route, i) => [route, routes(unknown)[i]!] as const)) {
    const theirs = await request(stack.baseUrl, path, { method, apiKey: other.apiKey });
    const missing = await request(stack.baseUrl, unknownPath, { method, apiKey: other.apiKey });
    const a = assertError(t, theirs, 404, 'job_not_found');
    const b = assertError(t, missing, 404, 'job_not_found');
    t.strictSame({ ...a, requestId: '' }, { ...b, requestId: '' }, `${method} ${path.split('/').slice(0, 4).join('/')}: identical apart from the request id`);
  }
  const list = await request(stack.baseUrl, '/v1/scrape/max', { apiKey: other.apiKey });
  t.strictSame(list.body.jobs, [], "the other workspace's list is empty");
  for (const [method, path] of routes('not-a-uuid')) {
    const response = await request(stack.baseUrl, path, { method, apiKey: owner.apiKey });
    const body = assertError(t, response, 400, 'invalid_request');
    t.ok(body.details?.some((detail) => detail.path === 'jobId'));
  }
  for (const query of ['?limit=0', '?limit=5001', '?offset=-1', '?limit=x']) {
    assertError(t, await request(stack.baseUrl, `/v1/scrape/max/results/${job.jobId}${query}`, { apiKey: owner.apiKey }), 400, 'invalid_request');
  }

  // 24 hours later (the clock moved by hand): gone for its owner too, and purged.
  await sql`UPDATE jobs SET expires_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ${job.jobId}`.execute(db);
  for (const [method, path] of routes(job.jobId)) assertError(t, await request(stack.baseUrl, path, { method, apiKey: owner.apiKey }), 404, 'job_not_found');
  await eventually('the periodic purge deletes the expired job and its items', async () => {
    const rows = await sql<{ n: number }>`SELECT (SELECT COUNT(*) FROM jobs WHERE id = ${job.jobId}) + (SELECT COUNT(*) FROM job_items WHERE job_id = ${job.jobId}) AS n`.execute(db);
    return Number(rows.rows[0]?.n) === 0 ? true : undefined;
  }, { timeoutMs: 5000, intervalMs: 200 });
  t.pass('the job, its keyword and its items are deleted by the periodic purge');
});

t.test('a job cancelled while its page waits for the workspace\'s concurrency ends at once, nothing fetched or charged', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'pro', concurrency: 1 });
  // The workspace's one request in flight: the job's page has to wait for it.
  const search = request(stack.baseUrl, '/v1/scrape?keyword=lamp+sim:slow=8000&count=5', { apiKey });
  await holding(workspaceId, 1);
  const { body } = await createJob(stack, apiKey, { keyword: 'waiting lamp', maxPages: 3, count: 5 });
  await waitForJob(stack, apiKey, body.jobId, (job) => job.status === 'running');
  const cancelled = await request(stack.baseUrl, `/v1/scrape/max/${body.jobId}`, { method: 'DELETE', apiKey });
  t.equal(cancelled.status, 200);
  const done = await waitForJob(stack, apiKey, body.jobId, undefined, 15_000);
  t.match(done, { status: 'cancelled', stopReason: 'cancelled', progress: { pagesFetched: 0, pagesCharged: 0 } });
  t.equal(await callsInFlight(workspaceId), 1, 'ended while the search still held the workspace: without waiting for the turn it never got');
  t.equal((await search).status, 200);
  t.equal(await usedOf(stack, workspaceId), 1, 'only the search that held the workspace is charged');
});
