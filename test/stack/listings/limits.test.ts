import t from 'tap';
import { testRedis } from '../../helpers/test-redis.js';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { permitsKey, untilPermitsHeld } from '../../helpers/permits.js';
import { usedOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';

/** The permits' lease (the default, set here so that the test below reads it as the stack runs it). */
const LEASE_MS = 3000;
const stack = await startTestStack(t, { env: { LEASE_MS: String(LEASE_MS) }, serviceEnv: { api: { MARKET_TIMEOUT_MS: '8000' } } });

const redis = await testRedis(t);

const slow = (apiKey: string, base = stack.baseUrl, ms = 1500) => request(base, `/v1/scrape?keyword=slow+sim:slow=${ms}&count=5`, { apiKey });

/** Until the workspace holds `count` permits: the calls sent are under way, however slowly the machine got them there. */
const holding = (workspaceId: string, count: number) => untilPermitsHeld(redis, stack.redisKeyPrefix, count, workspaceId);

t.test('with a concurrency of 2 and slow answers, a third parallel request is 429 concurrency_limited', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 2 });
  // Calls of 4 s: the third is sent once the first two hold their permits, while they still run on any machine.
  const responses = await Promise.all([slow(apiKey, stack.baseUrl, 4000), slow(apiKey, stack.baseUrl, 4000), holding(workspaceId, 2).then(() => slow(apiKey, stack.baseUrl, 4000))]);
  t.strictSame(responses.map((response) => response.status), [200, 200, 429]);
  const body = assertError(t, responses[2]!, 429, 'concurrency_limited');
  t.ok(body.retryAfter! >= 1);
  t.ok(responses[2]!.headers.get('ratelimit'), 'RateLimit fields on the refusal too');
  t.equal(await usedOf(stack, workspaceId), 2, 'the refused one is not charged');
  t.equal((await slow(apiKey, stack.baseUrl, 10)).status, 200, 'once they finish, the next is admitted');
});

t.test('two api processes sharing Redis still admit only 2', async (t) => {
  const second = await stack.startExtraApi();
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 2 });
  // The key known to the new process first, and calls of 4 s: the last two are sent while the first two still run.
  t.equal((await request(second.url, '/usage', { apiKey })).status, 200);
  const under = holding(workspaceId, 2);
  const responses = await Promise.all([
    slow(apiKey, stack.baseUrl, 4000),
    slow(apiKey, second.url, 4000),
    under.then(() => slow(apiKey, second.url, 4000)),
    under.then(() => slow(apiKey, stack.baseUrl, 4000)),
  ]);
  t.strictSame(responses.map((response) => response.status).sort(), [200, 200, 429, 429]);
  await second.process.stop();
});

t.test('a process killed with SIGKILL while holding permits gives them back within a lease (short leases, renewed while held)', async (t) => {
  // Its call hangs past the kill, however slow the machine: the kill comes about 5 s after it is sent.
  const doomed = await stack.startExtraApi({ MARKET_TIMEOUT_MS: '20000' });
  const { workspaceId, apiKey } = await createWorkspace(stack, { concurrency: 1 });
  const hanging = slow(apiKey, doomed.url, 15_000).catch(() => null);
  await holding(workspaceId, 1);
  assertError(t, await slow(apiKey, stack.baseUrl, 10), 429, 'concurrency_limited');
  // The hanging call holds its permit: its first lease lapses at most a lease from now.
  const admittedBy = Date.now();
  // Held longer than a lease: renewal keeps it while the process lives.
  await new Promise((resolve) => setTimeout(resolve, 4000));
  assertError(t, await slow(apiKey, stack.baseUrl, 10), 429, 'concurrency_limited');
  await doomed.process.kill();
  const killedAt = Date.now();
  await hanging;
  // The permit is a member scored by its expiry: renewed past its first lease, and lapsing at most a lease after the
  // kill (its last renewal came before it). Read from Redis, not timed, so a loaded machine cannot fail it.
  const permits = await redis.zRangeWithScores(permitsKey(stack.redisKeyPrefix, workspaceId), 0, -1);
  t.equal(permits.length, 1, 'the dead process still holds its one permit');
  const expiresAt = permits[0]!.score;
  t.ok(expiresAt > admittedBy + LEASE_MS, `it was renewed while the process lived (lapsing ${expiresAt - admittedBy} ms after it was first seen held)`);
  t.ok(expiresAt <= killedAt + LEASE_MS, `it lapses ${expiresAt - killedAt} ms after the kill, within a lease of ${LEASE_MS} ms`);
  await eventually('a slow search is admitted again', async () => ((await slow(apiKey, stack.baseUrl, 10)).status === 200 ? true : undefined), { timeoutMs: 15_000, intervalMs: 200 });
  t.ok(Date.now() >= expiresAt, 'admitted once it lapsed, not before');
});

t.test('the workspace rate limit applies to the data endpoints, with the RateLimit fields on every answer', async (t) => {
  const { apiKey } = await createWorkspace(stack, { rate: 4 });
  const statuses: number[] = [];
  for (const path of ['/v1/scrape?keyword=a', '/v1/scrape?keyword=a&page=0', '/v1/item/123456789012', '/usage']) {
    const response = await request(stack.baseUrl, path, { apiKey });
    statuses.push(response.status);
    t.match(response.headers.get('ratelimit-policy'), /^"minute";q=4;w=60$/, `${path}: RateLimit-Policy`);
    t.match(response.headers.get('ratelimit'), /^"minute";r=\d+;t=\d+$/, `${path}: RateLimit`);
  }
  t.strictSame(statuses, [200, 400, 404, 200]);
  const limited = await request(stack.baseUrl, '/v1/scrape?keyword=a', { apiKey });
  assertError(t, limited, 429, 'rate_limited');
  t.match(limited.headers.get('ratelimit'), /^"minute";r=0;t=\d+$/);
});

t.test('shared upstream capacity: past a wait for a permit, many workspaces against a low capacity get 503 upstream_rate_limited, uncharged', async (t) => {
  // No wait for a permit here: the refusal itself is under test (the wait has a test of its own).
  // An api process of the stack's with its own settings (the capacity is the deployment's, in the shared Redis;
  // nothing else calls the marketplace meanwhile).
  const narrow = await stack.startExtraApi({ UPSTREAM_MAX_IN_FLIGHT: '2', UPSTREAM_CALLS_PER_SECOND: '100', UPSTREAM_WAIT_MS: '0' });
  t.teardown(() => narrow.process.stop());
  const workspaces = await Promise.all(Array.from({ length: 8 }, () => createWorkspace(stack)));
  // Each key known to the new process first, so that the eight reach their admission together (the first two then
  // hold the capacity 5 s, however slow the machine), not one by one behind their keys' first lookups.
  for (const { apiKey } of workspaces) t.equal((await request(narrow.url, '/usage', { apiKey })).status, 200);
  const responses = await Promise.all(workspaces.map(({ apiKey }) => request(narrow.url, '/v1/scrape?keyword=x+sim:slow=5000', { apiKey })));
  const statuses = responses.map((response) => response.status);
  t.equal(statuses.filter((status) => status === 200).length, 2, 'two calls in flight at most');
  const refused = responses.filter((response) => response.status === 503);
  t.equal(refused.length, 6, `statuses ${JSON.stringify(responses.map((response) => [response.status, response.body?.code]))}`);
  for (const response of refused) assertError(t, response, 503, 'upstream_rate_limited');
  const charges = await Promise.all(workspaces.map(({ workspaceId }) => usedOf(stack, workspaceId)));
  t.strictSame(charges.sort(), [0, 0, 0, 0, 0, 0, 1, 1], 'only the two that ran are charged');
});

t.test('shared upstream capacity: the deployment\'s calls per second', async (t) => {
  // Exact admission counts are the metering tests' (on a fixed clock); this checks the setting reaches the
  // api: at 1 a second, a second search sent as soon as the first answered, within the same clock second, is refused.
  const perSecond = await stack.startExtraApi({ UPSTREAM_MAX_IN_FLIGHT: '100', UPSTREAM_CALLS_PER_SECOND: '1', UPSTREAM_WAIT_MS: '0' });
  t.teardown(() => perSecond.process.stop());
  const { apiKey: paced } = await createWorkspace(stack);
  let pair: Array<{ status: number; body: { code?: string } }> = [];
  for (let attempt = 0; attempt < 5 && pair.length === 0; attempt += 1) {
    // Start just after a clock second begins, so both calls fit in it; a pair that straddles one is tried again.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    const second = Math.floor(Date.now() / 1000);
    const answers = [await request(perSecond.url, '/v1/scrape?keyword=x', { apiKey: paced }), await request(perSecond.url, '/v1/scrape?keyword=y', { apiKey: paced })];
    if (Math.floor(Date.now() / 1000) === second) pair = answers;
  }
  t.strictSame(pair.map((response) => response.status), [200, 503], 'one call a second: the first runs, the second is refused');
  assertError(t, pair[1] as never, 503, 'upstream_rate_limited');
});
