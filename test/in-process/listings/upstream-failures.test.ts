import t from 'tap';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { historyOf, usedOf } from '../../helpers/usage-of.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// A short deadline, so "slow" means past it.
const stack = await startInProcessStack(t);
const api = await stack.startApi({ env: { MARKET_TIMEOUT_MS: '1000' } });

t.test('blocked, throttled, failing and slow upstream answers: the contract\'s status and code, nothing charged', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const cases: Array<[string, number, string]> = [
    ['/v1/scrape?keyword=x+sim:block', 502, 'upstream_blocked'],
    ['/v1/scrape?keyword=x+sim:throttle', 503, 'upstream_rate_limited'],
    ['/v1/scrape?keyword=x+sim:error', 502, 'upstream_error'],
    ['/v1/scrape?keyword=x+sim:slow=3000', 504, 'upstream_timeout'],
    ['/v1/scrape/category?categoryId=1&sold=false&count=5', 200, ''],
    ['/v1/item/123456789012', 404, 'item_not_found'],
  ];
  for (const [path, status, code] of cases) {
    const started = Date.now();
    const response = await request(api.baseUrl, path, { apiKey });
    if (code) {
      const body = assertError(t, response, status, code);
      if (code === 'upstream_rate_limited') t.equal(body.retryAfter, 2, 'the marketplace\'s own Retry-After');
      if (code === 'upstream_timeout') t.ok(Date.now() - started < 2500, 'gave up at the deadline');
    } else {
      t.equal(response.status, status);
    }
  }
  t.equal(await usedOf(stack, workspaceId), 1, 'only the success was charged');
  const history = await historyOf(stack, workspaceId, cases.length);
  t.strictSame(
    history.map((entry) => [entry.status, entry.code, entry.charged]).reverse(),
    cases.map(([, status, code]) => [status, code || null, status === 200 ? 1 : 0]),
    'a history entry each',
  );
});

t.test('after the failures, the same workspace still has its whole concurrency and quota', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'free', quota: 2 });
  for (let i = 0; i < 3; i += 1) await request(api.baseUrl, '/v1/scrape?keyword=x+sim:error', { apiKey });
  t.equal((await request(api.baseUrl, '/v1/scrape?keyword=ok', { apiKey })).status, 200, 'the failed requests released their lease (free plan: one at a time)');
  t.equal((await request(api.baseUrl, '/v1/scrape?keyword=ok2', { apiKey })).status, 200, 'and their quota');
  assertError(t, await request(api.baseUrl, '/v1/scrape?keyword=ok3', { apiKey }), 403, 'quota_exhausted');
});
