import t from 'tap';
import { assertError } from '../../helpers/contract-assertions.js';
import { createClient } from '@redis/client';
import { newRequestId } from '@comps/shared/ids';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { TEST_REDIS_URL } from '../../helpers/test-env.js';
import { eventually, request } from '../../helpers/http-client.js';
import { historyOf, usedOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';

const stack = await startTestStack(t);

t.test('a success is charged once, also when empty or short; a failure is free', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { quota: 100 });
  const cases: Array<[string, number, number]> = [
    ['/v1/scrape?keyword=sony+headphones', 200, 1],
    ['/v1/scrape?keyword=nothing+sim:empty', 200, 1],
    ['/v1/scrape?keyword=few+sim:total=3&count=60', 200, 1],
    ['/v1/scrape/category?categoryId=1', 200, 1],
    ['/v1/scrape?keyword=broken+sim:error', 502, 0],
    ['/v1/scrape?keyword=bad&count=0', 400, 0],
    ['/v1/item/123456789012', 404, 0],
  ];
  let expected = 0;
  for (const [path, status, charge] of cases) {
    const response = await request(stack.baseUrl, path, { apiKey });
    t.equal(response.status, status, path);
    expected += charge;
    t.equal(await usedOf(stack, workspaceId), expected, `${path}: ${charge ? 'charged' : 'free'}`);
    t.equal(Number(response.headers.get('x-quota-remaining')), 100 - expected, `${path}: X-Quota-Remaining right after`);
  }
  const usage = (await request(stack.baseUrl, '/usage', { apiKey })).body;
  t.strictSame([usage.used, usage.remaining], [4, 96], 'usage lookups cost nothing');
});

t.test('50 concurrent searches with 10 requests of quota left: exactly 10 succeed and are charged', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { quota: 15, concurrency: 100, rate: 10_000 });
  for (let i = 0; i < 5; i += 1) t.equal((await request(stack.baseUrl, `/v1/scrape?keyword=warmup${i}`, { apiKey })).status, 200);
  const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => request(stack.baseUrl, `/v1/scrape?keyword=burst${i}&count=5`, { apiKey })));
  const ok = responses.filter((response) => response.status === 200);
  const refused = responses.filter((response) => response.status === 403);
  t.equal(ok.length, 10, 'ten succeed');
  t.equal(refused.length, 40, 'forty are refused');
  for (const response of refused) t.equal(response.body.code, 'quota_exhausted');
  assertError(t, refused[0]!, 403, 'quota_exhausted');
  t.equal(refused[0]!.headers.get('x-quota-remaining'), '0');

  t.equal(await usedOf(stack, workspaceId), 15, 'the ledger charged 15 in all');
  const usage = (await request(stack.baseUrl, '/usage', { apiKey })).body;
  t.strictSame([usage.used, usage.remaining], [15, 0], '/usage agrees');
  const history = await historyOf(stack, workspaceId, 56);
  const searches = history.filter((entry) => entry.path === '/v1/scrape');
  t.equal(searches.length, 55);
  t.equal(searches.filter((entry) => entry.charged === 1).length, 15, '/requests agrees: 15 charged entries');
  t.equal(searches.filter((entry) => entry.code === 'quota_exhausted' && entry.charged === 0).length, 40);
  const okIds = new Set(ok.map((response) => response.headers.get('x-request-id')));
  t.ok(searches.filter((entry) => okIds.has(entry.requestId)).every((entry) => entry.charged === 1), 'the charged entries are the ten that succeeded');
});

t.test('quota_exhausted comes before any upstream call', async (t) => {
  const { apiKey } = await createWorkspace(stack, { quota: 0 });
  const started = Date.now();
  const response = await request(stack.baseUrl, '/v1/scrape?keyword=slow+sim:slow=3000', { apiKey });
  assertError(t, response, 403, 'quota_exhausted');
  t.ok(Date.now() - started < 1500, 'answered without waiting for the (slow) marketplace');
});

t.test('one history entry per request: status, code, charged, duration, site, redacted keyword, result count', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const secret = 'my+secret+product+search';
  await request(stack.baseUrl, `/v1/scrape?keyword=${secret}+sim:total=7+sim:slow=150&marketSite=market.de`, { apiKey });
  await request(stack.baseUrl, `/v1/scrape?keyword=${secret}+sim:block`, { apiKey });
  await request(stack.baseUrl, `/v1/scrape?keyword=${secret}&page=0`, { apiKey });
  await request(stack.baseUrl, '/v1/scrape/category?categoryId=9&count=4', { apiKey });
  const [category, invalid, blocked, ok] = await historyOf(stack, workspaceId, 4);
  t.match(ok, { path: '/v1/scrape', status: 200, code: null, charged: 1, marketSite: 'market.de', keyword: '[redacted]', resultCount: 7 });
  t.ok(ok!.durationMs >= 150 && ok!.durationMs < 10_000, `the duration covers the marketplace's 150 ms (${ok!.durationMs} ms)`);
  t.match(blocked, { status: 502, code: 'upstream_blocked', charged: 0, keyword: '[redacted]', resultCount: null });
  t.match(invalid, { status: 400, code: 'invalid_request', charged: 0, keyword: '[redacted]' });
  t.match(category, { path: '/v1/scrape/category', status: 200, charged: 1, keyword: null, resultCount: 4 });
  const { readFile } = await import('node:fs/promises');
  t.notOk((await readFile(stack.logFile, 'utf8')).includes('secret'), 'the search text is in no log line either');
});

t.test('charges a dead process left in the settlement outbox are taken over and settled once', async (t) => {
  const quick = await startTestStack(t, { serviceEnv: { api: { SETTLEMENT_CLAIM_IDLE_MS: '1500' } } });
  const { workspaceId } = await createWorkspace(quick);
  const accounts = accountsClient(quick);
  const requestIds = [newRequestId(), newRequestId()];
  for (const requestId of requestIds) t.ok((await accounts.quota.reserve.mutate({ workspaceId, requestId })).ok);
  // As an api process would: add to the outbox, read as its consumer, then die before settling.
  const redis = await createClient({ url: TEST_REDIS_URL }).connect();
  try {
    const key = `${quick.redisKeyPrefix}settlements`;
    try {
      await redis.xGroupCreate(key, 'settlers', '0', { MKSTREAM: true });
    } catch {
      // The running api made the group already.
    }
    // In one MULTI, so the live settlers cannot read the entries before the "dead" consumer does.
    await redis
      .multi()
      .xAdd(key, '*', { r: requestIds[0]! })
      .xAdd(key, '*', { r: requestIds[1]! })
      .xAdd(key, '*', { r: requestIds[0]! })
      .xReadGroup('settlers', 'dead-process', { key, id: '>' }, { COUNT: 10 })
      .exec();
    const pending = await redis.xPending(key, 'settlers');
    t.strictSame(pending.consumers, [{ name: 'dead-process', deliveriesCounter: 3 }], 'the dead process holds all three');
    t.equal(await usedOf(quick, workspaceId), 2, 'both charged once, the duplicate entry changing nothing');
    t.ok(await eventually('the outbox is emptied', async () => ((await redis.xLen(key)) === 0 ? true : undefined)), 'and the outbox is emptied');
  } finally {
    redis.destroy();
  }
});
