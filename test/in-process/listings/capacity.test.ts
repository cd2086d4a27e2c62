import t from 'tap';
import { testRedis } from '../../helpers/test-redis.js';
import { assertError } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { historyOf, usedOf } from '../../helpers/usage-of.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';
import { permitsKey, untilPermitsHeld } from '../../helpers/permits.js';

const slowSearch = (base: string, apiKey: string, ms: number) => request(base, `/v1/scrape?keyword=lamp+sim:slow=${ms}&count=5`, { apiKey });

t.test('a request waits briefly for a shared permit instead of being refused', async (t) => {
  const stack = await startInProcessStack(t);
  const api = await stack.startApi({ env: { UPSTREAM_MAX_IN_FLIGHT: '2', UPSTREAM_WORKSPACE_SHARE: '1', UPSTREAM_WAIT_MS: '4000' } });
  const workspaces = await Promise.all(Array.from({ length: 4 }, () => createWorkspace(stack)));
  const started = Date.now();
  const responses = await Promise.all(workspaces.map(({ apiKey }) => slowSearch(api.baseUrl, apiKey, 700)));
  const elapsed = Date.now() - started;
  t.strictSame(responses.map((response) => response.status), [200, 200, 200, 200], 'all four served');
  t.ok(elapsed >= 1300, `in two rounds of two (${elapsed} ms)`);
  t.strictSame(await Promise.all(workspaces.map(({ workspaceId }) => usedOf(stack, workspaceId))), [1, 1, 1, 1], 'each charged once');
});

t.test('one workspace saturating its concurrency cannot take the whole capacity: another is served while it holds its share', async (t) => {
  const stack = await startInProcessStack(t);
  const api = await stack.startApi({ env: { UPSTREAM_MAX_IN_FLIGHT: '4', UPSTREAM_WORKSPACE_SHARE: '0.5', UPSTREAM_WAIT_MS: '1000' } });
  const busy = await createWorkspace(stack, { plan: 'pro', concurrency: 20 });
  const other = await createWorkspace(stack);
  const finishedAt = (promise: Promise<Awaited<ReturnType<typeof slowSearch>>>) => promise.then((response) => ({ response, at: Date.now() }));
  const flood = Promise.all(Array.from({ length: 8 }, () => finishedAt(slowSearch(api.baseUrl, busy.apiKey, 3000))));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const served = await Promise.all([finishedAt(slowSearch(api.baseUrl, other.apiKey, 10)), finishedAt(slowSearch(api.baseUrl, other.apiKey, 10))]);
  t.strictSame(served.map(({ response }) => response.status), [200, 200], 'the other workspace is served');
  const floodAnswers = await flood;
  const busyServed = floodAnswers.filter(({ response }) => response.status === 200);
  const firstBusyAnswer = Math.min(...busyServed.map(({ at }) => at));
  t.ok(served.every(({ at }) => at < firstBusyAnswer), 'while the busy workspace still held its permits: it never took the other half');
  t.ok(busyServed.length >= 2, `the busy workspace had its share (${busyServed.length} served)`);
  for (const { response } of floodAnswers.filter((answer) => answer.response.status !== 200)) assertError(t, response, 503, 'upstream_rate_limited');
  t.equal(await usedOf(stack, busy.workspaceId), busyServed.length, 'only what ran is charged');
});

t.test('a client that disconnects mid-search is not charged, and everything it held is given back', async (t) => {
  const stack = await startInProcessStack(t);
  const api = await stack.startApi();
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 1, quota: 5 });
  const redis = await testRedis(t);
  const controller = new AbortController();
  const gone = fetch(`${api.baseUrl}/v1/scrape?keyword=lamp+sim:slow=5000&count=5`, {
    headers: { authorization: `Bearer ${apiKey}` },
    signal: controller.signal,
  }).catch((error: unknown) => error);
  // Gone while its marketplace call runs: once it holds its permit (a lease in Redis, scored by its expiry).
  await untilPermitsHeld(redis, stack.redisKeyPrefix, 1, workspaceId);
  const [permit] = await redis.zRangeWithScores(permitsKey(stack.redisKeyPrefix, workspaceId), 0, -1);
  controller.abort();
  await gone;
  // Its permit and its reservation come back at once, not when their leases expire.
  await untilPermitsHeld(redis, stack.redisKeyPrefix, 0, workspaceId);
  t.ok(Date.now() < permit!.score, 'its permit came back before its lease would have lapsed');
  const next = await eventually('the next slow search is admitted', async () => {
    const response = await slowSearch(api.baseUrl, apiKey, 10);
    return response.status === 200 ? response : undefined;
  }, { intervalMs: 100 });
  t.equal(next.status, 200, 'the next request is admitted (concurrency 1)');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  t.equal(await usedOf(stack, workspaceId), 1, 'only the answered request is charged');
  const usage = await accountsClient(stack).usage.get.query({ workspaceId });
  t.equal(usage.remaining, 4, 'no unit is held by the abandoned request');
  const history = await historyOf(stack, workspaceId, 2);
  const abandoned = history.find((entry) => entry.status !== 200);
  t.match(abandoned, { status: 499, code: null, charged: 0, path: '/v1/scrape' }, 'recorded as abandoned by the caller, uncharged');
});

t.test('right after a charged answer, GET /usage counts it (read your own writes)', async (t) => {
  // Settlement batches every 5 s here: the charges are still in the outbox when usage is read.
  const stack = await startInProcessStack(t);
  const api = await stack.startApi({ env: { SETTLEMENT_BATCH_INTERVAL_MS: '5000' } });
  const { apiKey } = await createWorkspace(stack, { concurrency: 10 });
  for (let round = 1; round <= 3; round += 1) {
    const answers = await Promise.all([slowSearch(api.baseUrl, apiKey, 0), slowSearch(api.baseUrl, apiKey, 0)]);
    t.strictSame(answers.map((answer) => answer.status), [200, 200]);
    const usage = await request(api.baseUrl, '/usage', { apiKey });
    t.equal(usage.body.used, round * 2, `round ${round}: used counts every answered success`);
    t.equal(usage.body.remaining, usage.body.plan.monthlyQuota - round * 2);
  }
});
