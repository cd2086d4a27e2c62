import t from 'tap';
import { capabilitiesSchema } from '@comps/shared/contract/capabilities';
import { MARKET_SITES } from '@comps/shared/contract/market-sites';
import { REQUEST_ID_PATTERN } from '@comps/shared/ids';
import { assertShape } from '../../helpers/contract-assertions.js';
import { request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

const stack = await startInProcessStack(t);
const api = await stack.startApi({ env: { DATA_GATE_ITEM: 'closed', ENABLED_SITES: 'market.com,market.de' } });

t.test('GET /v1/capabilities answers without a key, in the contract shape, from configuration', async (t) => {
  const response = await request(api.baseUrl, '/v1/capabilities');
  t.equal(response.status, 200);
  t.match(response.headers.get('x-request-id'), REQUEST_ID_PATTERN);
  const body = assertShape(t, capabilitiesSchema, response.body);
  t.strictSame(body.dataGate, { sold: 'open', active: 'open', item: 'closed' });
  t.strictSame(
    body.sites.map((site) => site.marketSite),
    [...MARKET_SITES],
    'all eight sites, in order',
  );
  t.strictSame(
    body.sites.filter((site) => site.enabled).map((site) => site.marketSite),
    ['market.com', 'market.de'],
  );
  t.equal(body.sites.find((site) => site.marketSite === 'market.co.uk')?.currency, 'GBP');
  t.strictSame(body.limits.count, { min: 1, max: 200, default: 60 });
  t.strictSame(body.limits.historyPageSize, { min: 1, max: 100, default: 50 });
  t.equal(body.limits.activeJobsPerWorkspace, 1);
  t.strictSame([body.limits.trackedSearches, body.limits.webhookEndpoints], [100, 20], 'the highest plan\'s');
  t.strictSame(body.unsupported, ['verifiedSaleDateFilter', 'acceptedOfferPriceHydration', 'emailedExports', 'thirdPartyGatewayAuth']);
  t.strictSame(body.features, ['comps', 'sellThrough', 'trackedSearches', 'webhooks'], 'the features beyond the specification that this build offers');
});

t.test('a key is not needed, and a bad one is not looked at', async (t) => {
  const response = await request(api.baseUrl, '/v1/capabilities', { apiKey: 'not-a-key' });
  t.equal(response.status, 200);
  t.equal(response.headers.get('ratelimit'), null, 'no rate-limit fields on an unauthenticated endpoint');
});
