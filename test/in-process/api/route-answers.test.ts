import t from 'tap';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { testRedis } from '../../helpers/test-redis.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';
import { untilPermitsHeld } from '../../helpers/permits.js';

// In-process: every error answer of every route, provoked; each must be in that route's operation,
// and every (status, code) an operation lists must be provoked here (the document says no more and no less).
const stack = await startInProcessStack(t);
// Slow enough that a second call is admitted while the first still runs, however slow the machine.
const slowSimulator = await stack.startSimulator({ MARKET_SIM_LATENCY_MS: '2000' });
const real = accountsClient(stack);
/** Accounts with a fault the service does not expect (a plain Error, not a contract error): every route's 500. */
const faulty: AccountsClient = { ...real, apiKeys: { ...real.apiKeys, authenticate: { query: async () => { throw new TypeError('a bug'); } } } };

const apis = {
  plain: await stack.startApi(),
  gateClosed: await stack.startApi({ env: { DATA_GATE_SOLD: 'closed', DATA_GATE_ACTIVE: 'closed', DATA_GATE_ITEM: 'closed' } }),
  oneSite: await stack.startApi({ env: { ENABLED_SITES: 'market.com' } }),
  noRedis: await stack.startApi({ env: { REDIS_URL: 'redis://127.0.0.1:9' } }),
  faulty: await stack.startApi({ overrides: { accounts: faulty } }),
  failingUpstream: await stack.startApi({ env: { MARKET_SIM_URL: await stack.startSimulator({ MARKET_SIM_ERROR_RATE: '1' }) } }),
  blockingUpstream: await stack.startApi({ env: { MARKET_SIM_URL: await stack.startSimulator({ MARKET_SIM_CHALLENGE_RATE: '1' }) } }),
  slowUpstream: await stack.startApi({ env: { MARKET_SIM_URL: slowSimulator } }),
  impatient: await stack.startApi({ env: { MARKET_SIM_URL: slowSimulator, MARKET_TIMEOUT_MS: '300' } }),
  oneCallAtATime: await stack.startApi({ env: { MARKET_SIM_URL: slowSimulator, UPSTREAM_MAX_IN_FLIGHT: '1', UPSTREAM_WAIT_MS: '0', UPSTREAM_WORKSPACE_SHARE: '1' } }),
};
type Api = keyof typeof apis;

const document = (await request(apis.plain.baseUrl, '/v1/openapi.json')).body as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: { allOf?: Array<{ properties?: { code?: { enum?: string[] } } }> } }> }> }>>;
};

/** Every (status, code) an operation lists. */
function documented(method: string, path: string): string[] {
  const responses = document.paths[path]?.[method.toLowerCase()]?.responses ?? {};
  return Object.entries(responses).flatMap(([status, response]) =>
    (response.content?.['application/json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? []).map((code) => `${status} ${code}`),
  );
}

interface Call {
  api?: Api;
  method?: string;
  path?: string;
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

async function answerOf(route: { method: string; path: string }, call: Call): Promise<string> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.rawBody !== undefined) headers['content-type'] ??= 'text/plain';
  const response = await request(apis[call.api ?? 'plain'].baseUrl, call.path ?? route.path, {
    method: call.method ?? route.method,
    ...(call.key ? { apiKey: call.key } : {}),
    ...(call.body !== undefined ? { body: call.body } : {}),
    ...(call.rawBody !== undefined ? { rawBody: call.rawBody } : {}),
    headers,
  });
  return `${response.status} ${response.body?.code ?? '(no error)'}`;
}

const redis = await testRedis(t);

/**
 * Two calls at once; the answer of the second, which starts once the first holds its marketplace call's permit,
 * however long the first took to get there. This file's calls otherwise run one at a time: the permits of every api
 * here are counted, from none (a call answered gives its permit back just after its answer).
 */
async function whileAnotherRuns(route: { method: string; path: string }, first: Call, second: Call): Promise<string> {
  await untilPermitsHeld(redis, stack.redisKeyPrefix, 0);
  const running = answerOf(route, first);
  await untilPermitsHeld(redis, stack.redisKeyPrefix, 1);
  const answer = await answerOf(route, second);
  await running;
  return answer;
}

// The key most provocations use: a rate no run of this file reaches.
const { apiKey: key } = await createWorkspace(stack, { rate: 100_000 });
const itemId = ((await request(apis.plain.baseUrl, '/v1/scrape?keyword=desk+lamp&count=1', { apiKey: key })).body as { items: Array<{ itemId: string }> }).items[0]!.itemId;
const fresh = async (limits: { quota?: number; rate?: number; concurrency?: number; trackedSearches?: number; webhookEndpoints?: number } = {}) => (await createWorkspace(stack, limits)).apiKey;

/** What every API-key route answers, whatever it does. */
async function common(route: { method: string; path: string }): Promise<string[]> {
  const limited = await fresh({ rate: 1 });
  await answerOf(route, { key: limited });
  return [
    await answerOf(route, { method: 'PUT', key }),
    await answerOf(route, { key: null }),
    await answerOf(route, { key: limited }),
    await answerOf(route, { api: 'noRedis', key }),
    await answerOf(route, { api: 'faulty', key }),
  ];
}

/** What a route answering with one marketplace call answers, beyond `common`: `path` gives the route's path for a search text or site. */
async function marketCall(route: { method: string; path: string }, pathOf: (site: string) => string): Promise<string[]> {
  const busy = await fresh({ concurrency: 1 });
  const other = await fresh();
  return [
    await answerOf(route, { api: 'gateClosed', key }),
    await answerOf(route, { api: 'oneSite', key, path: pathOf('market.de') }),
    await answerOf(route, { key: await fresh({ quota: 0 }) }),
    await whileAnotherRuns(route, { api: 'slowUpstream', key: busy }, { api: 'slowUpstream', key: busy }),
    await whileAnotherRuns(route, { api: 'oneCallAtATime', key: other }, { api: 'oneCallAtATime', key }),
    await answerOf(route, { api: 'failingUpstream', key }),
    await answerOf(route, { api: 'blockingUpstream', key }),
    await answerOf(route, { api: 'impatient', key }),
  ];
}

/** The Idempotency-Key's own answers on a search: malformed, reused with other parameters, still running. */
async function idempotency(route: { method: string; path: string }, variant: string): Promise<string[]> {
  const own = await fresh();
  await answerOf(route, { key: own, headers: { 'idempotency-key': 'k1' } });
  return [
    await answerOf(route, { key, headers: { 'idempotency-key': '' } }),
    await answerOf(route, { key: own, path: variant, headers: { 'idempotency-key': 'k1' } }),
    await whileAnotherRuns(route, { api: 'slowUpstream', key: own, headers: { 'idempotency-key': 'k2' } }, { api: 'slowUpstream', key: own, headers: { 'idempotency-key': 'k2' } }),
  ];
}

/** A JSON body's own answers: invalid, too large, not JSON. */
async function jsonBody(route: { method: string; path: string }): Promise<string[]> {
  return [
    await answerOf(route, { key, body: { unexpected: true, keyword: 42, keywords: 'x' } }),
    await answerOf(route, { key, rawBody: JSON.stringify({ padding: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } }),
    await answerOf(route, { key, rawBody: 'keyword=lamp' }),
  ];
}

async function jobOf(apiKey: string): Promise<string> {
  const created = await request(apis.plain.baseUrl, '/v1/scrape/max', { method: 'POST', apiKey, body: { keyword: 'desk lamp', maxPages: 1 } });
  return (created.body as { jobId: string }).jobId;
}

const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';

const TRACKED_SEARCH = { keyword: 'desk lamp', maxPagesPerRun: 1 };
/** Well-formed, and never issued. */
const UNKNOWN_TRACKED_SEARCH = `ts_${'0'.repeat(26)}`;

async function trackedSearchOf(apiKey: string): Promise<string> {
  const created = await request(apis.plain.baseUrl, '/v1/tracked-searches', { method: 'POST', apiKey, body: TRACKED_SEARCH });
  return (created.body as { trackedSearchId: string }).trackedSearchId;
}

/** What every route of one tracked search answers: the common answers, a malformed id, an unknown one (`body` when the route needs one to get that far). */
async function ofOneTrackedSearch(route: { method: string; path: string }, body?: unknown): Promise<string[]> {
  const at = (id: string) => route.path.replace('{trackedSearchId}', id);
  return [
    ...(await common({ ...route, path: at(UNKNOWN_TRACKED_SEARCH) })),
    await answerOf(route, { key, path: at('ts_123'), ...(body === undefined ? {} : { body }) }),
    await answerOf(route, { key, path: at(UNKNOWN_TRACKED_SEARCH), ...(body === undefined ? {} : { body }) }),
  ];
}

/**
 * An endpoint accounts registers: a public address written as one (no DNS asked), https. The one
 * below is the cloud metadata address, refused at registration whatever the resolver.
 */
const WEBHOOK = { url: 'https://93.184.216.34/comps-hooks', events: ['job.completed'] };
const REFUSED_URL = 'https://169.254.169.254/latest/meta-data';
/** Well-formed, and never issued. */
const UNKNOWN_WEBHOOK = `wh_${'0'.repeat(26)}`;
const UNKNOWN_DELIVERY = `msg_${'0'.repeat(26)}`;

async function webhookOf(apiKey: string): Promise<string> {
  const created = await request(apis.plain.baseUrl, '/v1/webhooks', { method: 'POST', apiKey, body: WEBHOOK });
  return (created.body as { webhookId: string }).webhookId;
}

/** What every route of one endpoint answers: the common answers, a malformed id, an unknown one (`body` when the route needs one to get that far). */
async function ofOneWebhook(route: { method: string; path: string }, body?: unknown): Promise<string[]> {
  const at = (id: string) => route.path.replace('{webhookId}', id).replace('{deliveryId}', UNKNOWN_DELIVERY);
  return [
    ...(await common({ ...route, path: at(UNKNOWN_WEBHOOK) })),
    await answerOf(route, { key, path: at('wh_123'), ...(body === undefined ? {} : { body }) }),
    await answerOf(route, { key, path: at(UNKNOWN_WEBHOOK), ...(body === undefined ? {} : { body }) }),
  ];
}

const routes: Array<{ method: string; path: string; provoke: (route: { method: string; path: string }) => Promise<string[]> }> = [
  ...['/v1/scrape', '/public/scrape', '/partner/scrape-market'].map((path) => ({
    method: 'GET',
    path,
    provoke: async (route: { method: string; path: string }) => {
      const search = { ...route, path: `${path}?keyword=desk+lamp` };
      return [
        ...(await common(search)),
        await answerOf(search, { key, path: `${path}?keyword=lamp&count=0` }),
        ...(await marketCall(search, (site) => `${path}?keyword=desk+lamp&marketSite=${site}`)),
        ...(await idempotency(search, `${path}?keyword=desk+lamp&count=5`)),
      ];
    },
  })),
  {
    method: 'GET',
    path: '/v1/scrape/category',
    provoke: async (route) => {
      const browse = { ...route, path: '/v1/scrape/category?categoryId=9' };
      return [
        ...(await common(browse)),
        await answerOf(browse, { key, path: '/v1/scrape/category' }),
        ...(await marketCall(browse, (site) => `/v1/scrape/category?categoryId=9&marketSite=${site}`)),
        ...(await idempotency(browse, '/v1/scrape/category?categoryId=10')),
      ];
    },
  },
  {
    method: 'GET',
    path: '/v1/item/{itemId}',
    provoke: async (route) => {
      const item = { ...route, path: `/v1/item/${itemId}` };
      return [
        ...(await common(item)),
        await answerOf(item, { key, path: '/v1/item/12' }),
        await answerOf(item, { key, path: '/v1/item/123456789012' }),
        ...(await marketCall(item, (site) => `/v1/item/${itemId}?marketSite=${site}`)),
      ];
    },
  },
  {
    method: 'GET',
    path: '/v1/sell-through',
    provoke: async (route) => {
      const both = { ...route, path: '/v1/sell-through?keyword=desk+lamp' };
      return [
        ...(await common(both)),
        await answerOf(both, { key, path: '/v1/sell-through' }),
        ...(await marketCall(both, (site) => `/v1/sell-through?keyword=desk+lamp&marketSite=${site}`)),
      ];
    },
  },
  { method: 'GET', path: '/v1/capabilities', provoke: async (route) => [await answerOf(route, { method: 'PUT' })] },
  { method: 'GET', path: '/v1/openapi.json', provoke: async (route) => [await answerOf(route, { method: 'PUT' })] },
  { method: 'GET', path: '/usage', provoke: (route) => common(route) },
  {
    method: 'GET',
    path: '/requests',
    provoke: async (route) => [...(await common(route)), await answerOf(route, { key, path: '/requests?limit=0' })],
  },
  {
    method: 'POST',
    path: '/v1/scrape/max',
    provoke: async (route) => {
      const busy = await fresh();
      await jobOf(busy);
      const keyed = await fresh();
      await answerOf(route, { key: keyed, body: { keyword: 'desk lamp' }, headers: { 'idempotency-key': 'job-1' } });
      return [
        ...(await common(route)),
        ...(await jsonBody(route)),
        await answerOf(route, { key, body: { keyword: 'lamp' }, headers: { 'idempotency-key': '' } }),
        await answerOf(route, { key: keyed, body: { keyword: 'another lamp' }, headers: { 'idempotency-key': 'job-1' } }),
        await answerOf(route, { key: await fresh({ quota: 0 }), body: { keyword: 'lamp' } }),
        await answerOf(route, { key: busy, body: { keyword: 'lamp' } }),
        await answerOf(route, { api: 'gateClosed', key, body: { keyword: 'lamp' } }),
        await answerOf(route, { api: 'oneSite', key, body: { keyword: 'lamp', marketSite: 'market.de' } }),
      ];
    },
  },
  { method: 'GET', path: '/v1/scrape/max', provoke: (route) => common(route) },
  ...(['/v1/scrape/max/results/{jobId}', '/v1/scrape/max/{jobId}/download.csv'] as const).map((path) => ({
    method: 'GET',
    path,
    provoke: async (route: { method: string; path: string }) => [
      ...(await common({ ...route, path: path.replace('{jobId}', UNKNOWN_JOB) })),
      await answerOf(route, { key, path: path.replace('{jobId}', 'not-a-job') }),
      await answerOf(route, { key, path: path.replace('{jobId}', UNKNOWN_JOB) }),
    ],
  })),
  {
    method: 'DELETE',
    path: '/v1/scrape/max/{jobId}',
    provoke: async (route) => {
      const owner = await fresh();
      const ended = await jobOf(owner);
      await answerOf(route, { key: owner, path: `/v1/scrape/max/${ended}` });
      return [
        ...(await common({ ...route, path: `/v1/scrape/max/${UNKNOWN_JOB}` })),
        await answerOf(route, { key, path: '/v1/scrape/max/not-a-job' }),
        await answerOf(route, { key, path: `/v1/scrape/max/${UNKNOWN_JOB}` }),
        await answerOf(route, { key: owner, path: `/v1/scrape/max/${ended}` }),
      ];
    },
  },
  {
    method: 'POST',
    path: '/v1/tracked-searches',
    provoke: async (route) => {
      const full = await fresh({ trackedSearches: 1 });
      await trackedSearchOf(full);
      return [
        ...(await common(route)),
        ...(await jsonBody(route)),
        await answerOf(route, { key: full, body: TRACKED_SEARCH }),
        await answerOf(route, { api: 'gateClosed', key, body: TRACKED_SEARCH }),
        await answerOf(route, { api: 'oneSite', key, body: { ...TRACKED_SEARCH, marketSite: 'market.de' } }),
      ];
    },
  },
  { method: 'GET', path: '/v1/tracked-searches', provoke: (route) => common(route) },
  ...(['/v1/tracked-searches/{trackedSearchId}', '/v1/tracked-searches/{trackedSearchId}/runs', '/v1/tracked-searches/{trackedSearchId}/sales', '/v1/tracked-searches/{trackedSearchId}/sales.csv', '/v1/tracked-searches/{trackedSearchId}/stats'] as const).map(
    (path) => ({ method: 'GET', path, provoke: (route: { method: string; path: string }) => ofOneTrackedSearch(route) }),
  ),
  { method: 'DELETE', path: '/v1/tracked-searches/{trackedSearchId}', provoke: (route) => ofOneTrackedSearch(route) },
  {
    method: 'PATCH',
    path: '/v1/tracked-searches/{trackedSearchId}',
    provoke: async (route) => [
      ...(await ofOneTrackedSearch(route, { name: 'renamed' })),
      ...(await jsonBody({ ...route, path: route.path.replace('{trackedSearchId}', UNKNOWN_TRACKED_SEARCH) })),
    ],
  },
  {
    method: 'POST',
    path: '/v1/tracked-searches/{trackedSearchId}/runs',
    provoke: async (route) => {
      const owner = await fresh();
      const runs = { ...route, path: route.path.replace('{trackedSearchId}', await trackedSearchOf(owner)) };
      // The run its creation started, or the first of these, is still running (no worker runs it here): the second is refused.
      return [...(await ofOneTrackedSearch(route)), await answerOf(runs, { key: owner }), await answerOf(runs, { key: owner })];
    },
  },
  {
    method: 'POST',
    path: '/v1/webhooks',
    provoke: async (route) => {
      const full = await fresh({ webhookEndpoints: 1 });
      await webhookOf(full);
      return [
        ...(await common(route)),
        ...(await jsonBody(route)),
        await answerOf(route, { key: full, body: WEBHOOK }),
        await answerOf(route, { key, body: { ...WEBHOOK, url: REFUSED_URL } }),
      ];
    },
  },
  { method: 'GET', path: '/v1/webhooks', provoke: (route) => common(route) },
  ...(['GET /v1/webhooks/{webhookId}', 'DELETE /v1/webhooks/{webhookId}', 'POST /v1/webhooks/{webhookId}/secret', 'POST /v1/webhooks/{webhookId}/test', 'GET /v1/webhooks/{webhookId}/deliveries'] as const).map(
    (operation) => {
      const [method, path] = operation.split(' ') as [string, string];
      return { method, path, provoke: (route: { method: string; path: string }) => ofOneWebhook(route) };
    },
  ),
  {
    method: 'PATCH',
    path: '/v1/webhooks/{webhookId}',
    provoke: async (route) => {
      const owner = await fresh();
      const own = { ...route, path: route.path.replace('{webhookId}', await webhookOf(owner)) };
      return [
        ...(await ofOneWebhook(route, { status: 'disabled' })),
        ...(await jsonBody({ ...route, path: route.path.replace('{webhookId}', UNKNOWN_WEBHOOK) })),
        await answerOf(own, { key: owner, body: { url: REFUSED_URL } }),
      ];
    },
  },
  {
    method: 'POST',
    path: '/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    provoke: async (route) => {
      const owner = await fresh();
      const own = route.path.replace('{webhookId}', await webhookOf(owner));
      return [
        ...(await ofOneWebhook(route)),
        await answerOf(route, { key: owner, path: own.replace('{deliveryId}', 'msg_123') }),
        // An endpoint of the caller's, a delivery it never had.
        await answerOf(route, { key: owner, path: own.replace('{deliveryId}', UNKNOWN_DELIVERY) }),
      ];
    },
  },
  {
    method: 'POST',
    path: '/api/bulk-search',
    provoke: async (route) => [
      ...(await common(route)),
      ...(await jsonBody(route)),
      await answerOf(route, { api: 'gateClosed', key, body: { keywords: ['lamp'] } }),
      await answerOf(route, { api: 'oneSite', key, body: { keywords: ['lamp'], marketSite: 'market.de' } }),
    ],
  },
];

t.test('the document lists exactly the routes provoked here', async (t) => {
  const listed = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
  t.strictSame(listed.sort(), routes.map((route) => `${route.method} ${route.path}`).sort());
});

for (const route of routes) {
  t.test(`${route.method} ${route.path}: every error answer provoked is documented, and every documented one is provoked`, async (t) => {
    const provoked = [...new Set(await route.provoke(route))].filter((answer) => !answer.endsWith('(no error)'));
    const listed = documented(route.method, route.path);
    t.strictSame([...provoked].sort(), [...listed].sort());
  });
}
