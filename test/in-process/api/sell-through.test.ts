import t from 'tap';
import { sellThroughSchema } from '@comps/shared/contract/sell-through';
import { assertError, assertShape } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// In-process: a sell-through is two metered calls answered together.
const stack = await startInProcessStack(t);
const api = await stack.startApi();
const accounts = accountsClient(stack);

async function settledUsage(workspaceId: string) {
  return eventually(`every unit of ${workspaceId} settled`, async () => {
    const usage = await accounts.usage.get.query({ workspaceId });
    return usage.used + usage.remaining === usage.plan.monthlyQuota ? usage : undefined;
  });
}

t.test('both calls succeed: the ratio of the counts, charged 2, two history entries', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const response = await request(api.baseUrl, '/v1/sell-through?keyword=vintage+lamp&marketSite=market.de', { apiKey });
  t.equal(response.status, 200);
  const body = assertShape(t, sellThroughSchema, response.body);
  const sold = body.sold.totalResults!;
  const active = body.active.totalResults!;
  t.ok(sold > 0 && active > sold, `sold ${sold}, active ${active} (the simulator's sold searches find 60 % of its active ones)`);
  t.equal(body.sellThrough, Math.round((sold / (sold + active)) * 10_000) / 10_000);
  t.match(body.query, { keyword: 'vintage lamp', marketSite: 'market.de', categoryId: '0', itemCondition: 'any', minPrice: null, buyingFormat: 'all', exactMatch: true });
  t.equal(body.requestId, response.headers.get('x-request-id'));
  t.equal(response.headers.get('x-quota-remaining'), String((await settledUsage(workspaceId)).remaining), 'the quota header counts both units');
  t.equal((await settledUsage(workspaceId)).used, 2, 'charged 2');
  const entries = await eventually('two entries', async () => {
    const page = await accounts.history.list.query({ workspaceId, limit: 10 });
    return page.entries.length >= 2 ? page.entries : undefined;
  });
  t.strictSame(entries.map((entry) => [entry.path, entry.status, entry.charged, entry.marketSite, entry.keyword]), [
    ['/v1/sell-through', 200, 1, 'market.de', '[redacted]'],
    ['/v1/sell-through', 200, 1, 'market.de', '[redacted]'],
  ]);
  t.ok(entries.some((entry) => entry.requestId === body.requestId), 'one of them under the request\'s own id');
});

t.test('either call failing fails the whole: its error, nothing charged, both calls recorded uncharged', async (t) => {
  const activeClosed = await stack.startApi({ env: { DATA_GATE_ACTIVE: 'closed' } });
  const { workspaceId, apiKey } = await createWorkspace(stack);
  assertError(t, await request(activeClosed.baseUrl, '/v1/sell-through?keyword=vintage+lamp', { apiKey }), 503, 'data_gate_closed');
  assertError(t, await request(api.baseUrl, '/v1/sell-through?keyword=vintage+lamp+sim:error', { apiKey }), 502, 'upstream_error');
  t.equal((await settledUsage(workspaceId)).used, 0, 'nothing charged');
  const entries = await eventually('four entries', async () => {
    const page = await accounts.history.list.query({ workspaceId, limit: 10 });
    return page.entries.length >= 4 ? page.entries : undefined;
  });
  t.strictSame(entries.map((entry) => [entry.status, entry.code, entry.charged]).sort(), [
    [502, 'upstream_error', 0],
    [502, 'upstream_error', 0],
    [503, 'data_gate_closed', 0],
    [503, 'data_gate_closed', 0],
  ], 'the sold call that succeeded beside a refused one is given back with the whole\'s error');
});

t.test('it takes two of the workspace\'s concurrent requests and counts twice against its rate', async (t) => {
  const single = await createWorkspace(stack, { concurrency: 1 });
  assertError(t, await request(api.baseUrl, '/v1/sell-through?keyword=lamp', { apiKey: single.apiKey }), 429, 'concurrency_limited');
  const paced = await createWorkspace(stack, { rate: 3 });
  t.equal((await request(api.baseUrl, '/v1/sell-through?keyword=lamp', { apiKey: paced.apiKey })).status, 200, 'the first takes two of three');
  assertError(t, await request(api.baseUrl, '/v1/sell-through?keyword=lamp', { apiKey: paced.apiKey }), 429, 'rate_limited');
});
