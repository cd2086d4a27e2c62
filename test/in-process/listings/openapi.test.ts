import t from 'tap';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

const stack = await startInProcessStack(t);
const api = await stack.startApi();
const { apiKey } = await createWorkspace(stack);
const response = await request(api.baseUrl, '/v1/openapi.json');
const document = response.body as {
  openapi: string;
  paths: Record<string, Record<string, { security: unknown[]; parameters: Array<{ name?: string; in?: string; required?: boolean; $ref?: string }>; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
};

t.test('served without a key, as a valid OpenAPI 3.1 document', async (t) => {
  t.equal(response.status, 200);
  t.match(response.headers.get('content-type'), /application\/json/);
  const validator = new Validator();
  const result = await validator.validate(document as never);
  t.ok(result.valid, `valid: ${JSON.stringify(result.errors ?? null)}`);
  t.equal(validator.version, '3.1');
});

t.test('it documents exactly the public routes that exist', async (t) => {
  const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
  t.strictSame(documented.sort(), [
    'DELETE /v1/scrape/max/{jobId}',
    'DELETE /v1/tracked-searches/{trackedSearchId}',
    'DELETE /v1/webhooks/{webhookId}',
    'GET /partner/scrape-market',
    'GET /public/scrape',
    'GET /requests',
    'GET /usage',
    'GET /v1/capabilities',
    'GET /v1/item/{itemId}',
    'GET /v1/openapi.json',
    'GET /v1/scrape',
    'GET /v1/scrape/category',
    'GET /v1/scrape/max',
    'GET /v1/scrape/max/results/{jobId}',
    'GET /v1/scrape/max/{jobId}/download.csv',
    'GET /v1/sell-through',
    'GET /v1/tracked-searches',
    'GET /v1/tracked-searches/{trackedSearchId}',
    'GET /v1/tracked-searches/{trackedSearchId}/runs',
    'GET /v1/tracked-searches/{trackedSearchId}/sales',
    'GET /v1/tracked-searches/{trackedSearchId}/sales.csv',
    'GET /v1/tracked-searches/{trackedSearchId}/stats',
    'GET /v1/webhooks',
    'GET /v1/webhooks/{webhookId}',
    'GET /v1/webhooks/{webhookId}/deliveries',
    'PATCH /v1/tracked-searches/{trackedSearchId}',
    'PATCH /v1/webhooks/{webhookId}',
    'POST /api/bulk-search',
    'POST /v1/scrape/max',
    'POST /v1/tracked-searches',
    'POST /v1/tracked-searches/{trackedSearchId}/runs',
    'POST /v1/webhooks',
    'POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    'POST /v1/webhooks/{webhookId}/secret',
    'POST /v1/webhooks/{webhookId}/test',
  ]);
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const concrete = path.replace('{itemId}', '123456789012').replace('{jobId}', '00000000-0000-4000-8000-000000000000').replace('{trackedSearchId}', `ts_${'0'.repeat(26)}`)
        .replace('{webhookId}', `wh_${'0'.repeat(26)}`).replace('{deliveryId}', `msg_${'0'.repeat(26)}`);
      const answer = await request(api.baseUrl, concrete, { method: method.toUpperCase(), apiKey });
      t.not(answer.body?.code, 'not_found', `${method.toUpperCase()} ${path} is routed (${answer.status})`);
      const anonymous = await request(api.baseUrl, concrete, { method: method.toUpperCase() });
      t.equal(anonymous.status === 401, operation.security.length > 0, `${path}: security matches (${anonymous.status})`);
    }
  }
});

t.test('parameters and responses come from the contract schemas', async (t) => {
  const search = document.paths['/v1/scrape']!.get!;
  const byName = Object.fromEntries(search.parameters.filter((parameter) => parameter.name).map((parameter) => [parameter.name, parameter]));
  t.strictSame(Object.keys(byName).sort(), ['buyingFormat', 'categoryId', 'count', 'exactMatch', 'itemCondition', 'keyword', 'marketSite', 'maxPrice', 'minPrice', 'page', 'sold', 'sortOrder', 'statsInclude']);
  t.match(byName.count, { in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 60 } });
  t.match(byName.keyword, { required: true, schema: { type: 'string' } });
  t.match(byName.sold, { schema: { type: 'boolean', default: true } });
  t.match(byName.sortOrder, { schema: { enum: ['endedRecently', 'timeNewlyListed', 'pricePlusPostageLowest', 'pricePlusPostageHighest'] } });
  t.ok(search.parameters.some((parameter) => parameter.$ref === '#/components/parameters/Idempotency-Key'));
  t.strictSame(Object.keys(search.responses).sort(), ['200', '400', '401', '403', '405', '409', '429', '500', '502', '503', '504']);
  t.match(document.paths['/v1/item/{itemId}']!.get!.parameters[0], { name: 'itemId', in: 'path', required: true, schema: { pattern: '^[0-9]{9,15}$' } });
  for (const name of ['ListingCollection', 'ListingItem', 'ItemDetails', 'Capabilities', 'Usage', 'HistoryPage', 'Error', 'Money']) {
    t.ok(document.components.schemas[name], `component ${name}`);
  }
  t.match(document.components.schemas.ListingItem, { properties: { soldDateVerified: { const: false }, price: { anyOf: [{ $ref: '#/components/schemas/Money' }, { type: 'null' }] } } });
});
