import t from 'tap';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { usedOf } from '../../helpers/usage-of.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

const stack = await startInProcessStack(t);
const api = await stack.startApi({ env: { DATA_GATE_SOLD: 'closed', DATA_GATE_ITEM: 'closed', ENABLED_SITES: 'market.com' } });

t.test('a closed gate answers that kind of data with 503 data_gate_closed, uncharged; capabilities say so', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const capabilities = (await request(api.baseUrl, '/v1/capabilities')).body;
  t.strictSame(capabilities.dataGate, { sold: 'closed', active: 'open', item: 'closed' });
  t.strictSame(capabilities.sites.filter((site: { enabled: boolean }) => site.enabled).map((site: { marketSite: string }) => site.marketSite), ['market.com']);
  for (const path of ['/v1/scrape?keyword=a', '/public/scrape?keyword=a&sold=true', '/v1/scrape/category?categoryId=1', '/v1/item/123456789012']) {
    assertError(t, await request(api.baseUrl, path, { apiKey }), 503, 'data_gate_closed');
  }
  t.equal((await request(api.baseUrl, '/v1/scrape?keyword=a&sold=false', { apiKey })).status, 200, 'active listings stay open');
  assertError(t, await request(api.baseUrl, '/v1/scrape?keyword=a&sold=false&marketSite=market.de', { apiKey }), 403, 'site_not_enabled');
  t.equal(await usedOf(stack, workspaceId), 1);
});

t.test('a job or a bulk search the gate or the site would refuse is refused at once, in one JSON answer', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const job = (body: unknown) => request(api.baseUrl, '/v1/scrape/max', { method: 'POST', apiKey, body });
  const bulk = (body: unknown) => request(api.baseUrl, '/api/bulk-search', { method: 'POST', apiKey, body });
  assertError(t, await job({ keyword: 'lamp' }), 503, 'data_gate_closed');
  assertError(t, await bulk({ keywords: ['lamp', 'camera'] }), 503, 'data_gate_closed');
  assertError(t, await bulk({ keywords: ['lamp'], sold: false, marketSite: 'market.de' }), 403, 'site_not_enabled');
  const active = await bulk({ keywords: ['lamp'], sold: false, count: 5 });
  t.equal(active.status, 200, 'an open gate streams');
  t.strictSame((await request(api.baseUrl, '/v1/scrape/max', { apiKey })).body.jobs, [], 'no job was created');
  t.equal(await usedOf(stack, workspaceId), 1);
});
