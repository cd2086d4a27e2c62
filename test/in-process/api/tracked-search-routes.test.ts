import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { TRACKED_SEARCH_ID_PATTERN } from '@comps/shared/contract/tracked-search';
import { AppError } from '@comps/shared/errors/app-error';
import { INTERNAL_TOKEN_HEADER } from '@comps/shared/http/require-internal-token';
import { JOB_WORKSPACE_HEADER } from '@comps/shared/internal/jobs/job-csv-download';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { contractClient, procedurePaths } from '@comps/shared/internal/procedure-contract';
import {
  ARCHIVE_STATS_EXAMPLE,
  RUN_LIST_EXAMPLE,
  RUN_START_EXAMPLE,
  SALES_CSV_EXAMPLE,
  SALES_EXAMPLE,
  TRACKED_SEARCH_CREATE_EXAMPLE,
  TRACKED_SEARCH_DELETE_EXAMPLE,
  TRACKED_SEARCH_GET_EXAMPLE,
  TRACKED_SEARCH_LIST_EXAMPLE,
  TRACKED_SEARCH_UPDATE_EXAMPLE,
} from '../../../services/api/src/routes/examples.js';
import { request, type RequestOptions } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// In-process: the tracked-search routes of the api, on a fake jobs service that records what the
// api asks of it. What the jobs service does with it is its own tests' business; here, what the
// api validates, passes on and answers.

/** The jobs service's answers: the reference's examples. */
const ANSWERS: Record<string, unknown> = {
  'trackedSearches.create': TRACKED_SEARCH_CREATE_EXAMPLE.response,
  'trackedSearches.list': TRACKED_SEARCH_LIST_EXAMPLE.response,
  'trackedSearches.get': TRACKED_SEARCH_GET_EXAMPLE.response,
  'trackedSearches.update': TRACKED_SEARCH_UPDATE_EXAMPLE.response,
  'trackedSearches.delete': TRACKED_SEARCH_DELETE_EXAMPLE.response,
  'trackedSearches.runNow': RUN_START_EXAMPLE.response,
  'trackedSearches.runs': RUN_LIST_EXAMPLE.response,
  'trackedSearches.sales': SALES_EXAMPLE.response,
  'trackedSearches.stats': ARCHIVE_STATS_EXAMPLE.response,
};

interface JobsCall {
  procedure: string;
  input: unknown;
  /** Whether the jobs service would take the input (its contract's schema). */
  valid: boolean;
}

/** A jobs client that records each call, answers with the examples, or fails with the errors given, one call each. */
function fakeJobs(): { client: JobsClient; calls: JobsCall[]; failNext(error: AppError): void } {
  const inputs = new Map(procedurePaths(jobsContract).map(([path, procedure]) => [path, procedure.input]));
  const calls: JobsCall[] = [];
  const failures: AppError[] = [];
  const client = contractClient(jobsContract, async (procedure, _type, input) => {
    calls.push({ procedure, input, valid: inputs.get(procedure)!.safeParse(input).success });
    const failure = failures.shift();
    if (failure) throw failure;
    return ANSWERS[procedure];
  });
  return { client, calls, failNext: (error) => failures.push(error) };
}

const TRACKED_SEARCH_ID = 'ts_01JD3M8Q2W5T7Y9B1C4F6H8K0N';
const UNKNOWN_TRACKED_SEARCH_ID = `ts_${'0'.repeat(26)}`;
const BASE = `/v1/tracked-searches/${TRACKED_SEARCH_ID}`;

/** The jobs service's internal CSV route: the example CSV for the one tracked search it knows, 404 for any other. */
async function fakeCsvPort(): Promise<{ url: string; asked: Array<{ path: string; headers: IncomingHttpHeaders }> }> {
  const asked: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    asked.push({ path: req.url ?? '', headers: req.headers });
    if (req.url === `/internal/tracked-searches/${TRACKED_SEARCH_ID}/sales.csv`) {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end(SALES_CSV_EXAMPLE.response as string);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'tracked_search_not_found', error: 'No such tracked search', requestId: 'req_01JDX4B7E1H5M9Q3T7W1Z5C9F3' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

const stack = await startInProcessStack(t);
const jobs = fakeJobs();
const csvPort = await fakeCsvPort();
const apis = {
  plain: await stack.startApi({ env: { JOBS_URL: csvPort.url }, overrides: { jobs: jobs.client } }),
  gateClosed: await stack.startApi({ env: { DATA_GATE_SOLD: 'closed' }, overrides: { jobs: jobs.client } }),
  oneSite: await stack.startApi({ env: { ENABLED_SITES: 'market.com' }, overrides: { jobs: jobs.client } }),
};

const { workspaceId, apiKey: issued } = await stack.accounts.workspaces.create.mutate({ name: 'tracked searches', planId: 'starter' });
const plan = await stack.accounts.workspaces.setLimits.mutate({ workspaceId, rateLimit: 100_000 });
const apiKey = issued.key;


/** A call of the plain api with the workspace's key, and the calls it made of the jobs service. */
async function call(path: string, options: Omit<RequestOptions, 'apiKey'> = {}, api: keyof typeof apis = 'plain') {
  const before = jobs.calls.length;
  const response = await request(apis[api].baseUrl, path, { apiKey, ...options });
  return { response, asked: jobs.calls.slice(before) };
}

t.test('creation: 201 with Location; the caller, the plan and the body with its defaults are passed on', async (t) => {
  const { response, asked } = await call('/v1/tracked-searches', { method: 'POST', body: { keyword: 'nintendo switch oled', name: 'Switch OLED', minPrice: 150 } });
  t.equal(response.status, 201);
  t.equal(response.headers.get('location'), `/v1/tracked-searches/${TRACKED_SEARCH_ID}`);
  t.equal(response.headers.get('cache-control'), 'no-store');
  t.strictSame(response.body, TRACKED_SEARCH_CREATE_EXAMPLE.response);
  const { trackedSearchId } = asked[0]?.input as { trackedSearchId: string };
  t.match(trackedSearchId, TRACKED_SEARCH_ID_PATTERN, 'the api makes the id, so that a call made again after a timeout creates nothing more');
  t.strictSame(asked, [
    {
      procedure: 'trackedSearches.create',
      input: {
        workspaceId,
        trackedSearchId,
        apiKeyId: issued.apiKeyId,
        apiKeyPrefix: issued.prefix,
        limit: plan.trackedSearches,
        body: {
          keyword: 'nintendo switch oled', name: 'Switch OLED', marketSite: 'market.com', categoryId: '0', itemCondition: 'any', minPrice: 150,
          buyingFormat: 'all', exactMatch: true, schedule: 'daily', maxPagesPerRun: 5, statsInclude: [],
        },
      },
      valid: true,
    },
  ]);
});

t.test('each route of one tracked search: its status and what it asks the jobs service', async (t) => {
  const owned = { workspaceId, trackedSearchId: TRACKED_SEARCH_ID };
  const cases: Array<[string, string, RequestOptions, number, string, Record<string, unknown>]> = [
    ['GET', '/v1/tracked-searches', {}, 200, 'trackedSearches.list', { workspaceId }],
    ['GET', BASE, {}, 200, 'trackedSearches.get', owned],
    ['PATCH', BASE, { body: { schedule: 'weekly', name: '  Switch OLED (white)  ' } }, 200, 'trackedSearches.update', { ...owned, changes: { name: 'Switch OLED (white)', schedule: 'weekly' } }],
    ['DELETE', BASE, {}, 200, 'trackedSearches.delete', owned],
    ['POST', `${BASE}/runs`, {}, 202, 'trackedSearches.runNow', { ...owned, apiKeyId: issued.apiKeyId, apiKeyPrefix: issued.prefix }],
    ['GET', `${BASE}/runs`, {}, 200, 'trackedSearches.runs', owned],
    ['GET', `${BASE}/sales`, {}, 200, 'trackedSearches.sales', { ...owned, limit: 200 }],
    [
      'GET', `${BASE}/sales?from=2026-11-01&to=2026-11-20&condition=used&counted=false&limit=50&cursor=eyJkIjoiMjAyNi0xMS0xNyJ9&unknown=1`, {}, 200, 'trackedSearches.sales',
      { ...owned, from: '2026-11-01', to: '2026-11-20', condition: 'used', counted: false, limit: 50, cursor: 'eyJkIjoiMjAyNi0xMS0xNyJ9' },
    ],
    ['GET', `${BASE}/stats`, {}, 200, 'trackedSearches.stats', { ...owned, interval: 'week' }],
    ['GET', `${BASE}/stats?from=2026-01-01&to=2026-06-30&interval=month`, {}, 200, 'trackedSearches.stats', { ...owned, from: '2026-01-01', to: '2026-06-30', interval: 'month' }],
  ];
  for (const [method, path, options, status, procedure, input] of cases) {
    const { response, asked } = await call(path, { method, ...options });
    t.equal(response.status, status, `${method} ${path}: ${status}`);
    t.equal(response.headers.get('cache-control'), 'no-store', `${method} ${path}: not cached`);
    t.strictSame(response.body, ANSWERS[procedure], `${method} ${path}: the jobs service's answer`);
    t.strictSame(asked, [{ procedure, input, valid: true }], `${method} ${path}: asks ${procedure}`);
  }
});

t.test('a body or query out of bounds is 400 invalid_request naming the field, and the jobs service is not asked', async (t) => {
  const create = (body: unknown): [string, string, RequestOptions] => ['POST', '/v1/tracked-searches', { body }];
  const cases: Array<[[string, string, RequestOptions], string]> = [
    [create({}), 'keyword'],
    [create({ keyword: '   ' }), 'keyword'],
    [create({ keyword: 'lamp', name: 'x'.repeat(101) }), 'name'],
    [create({ keyword: 'lamp', name: '' }), 'name'],
    [create({ keyword: 'lamp', schedule: 'monthly' }), 'schedule'],
    [create({ keyword: 'lamp', maxPagesPerRun: 21 }), 'maxPagesPerRun'],
    [create({ keyword: 'lamp', maxPagesPerRun: 0 }), 'maxPagesPerRun'],
    [create({ keyword: 'lamp', minPrice: 300, maxPrice: 200 }), 'minPrice'],
    [create({ keyword: 'lamp', marketSite: 'market.example' }), 'marketSite'],
    [create({ keyword: 'lamp', statsInclude: ['everything'] }), 'statsInclude'],
    [create([{ keyword: 'lamp' }]), '(root)'],
    [['PATCH', BASE, { body: {} }], '(root)'],
    [['PATCH', BASE, { body: { keyword: 'another search' } }], '(root)'],
    [['PATCH', BASE, { body: { status: 'deleted' } }], 'status'],
    [['PATCH', BASE, { body: { maxPagesPerRun: 21 } }], 'maxPagesPerRun'],
    [['GET', `${BASE}/sales?from=2026-11-20&to=2026-11-01`, {}], 'from'],
    [['GET', `${BASE}/sales?from=20261101`, {}], 'from'],
    [['GET', `${BASE}/sales?limit=1001`, {}], 'limit'],
    [['GET', `${BASE}/sales?limit=0`, {}], 'limit'],
    [['GET', `${BASE}/sales?cursor=not+a+cursor`, {}], 'cursor'],
    [['GET', `${BASE}/sales?counted=yes`, {}], 'counted'],
    [['GET', `${BASE}/sales?condition=mint`, {}], 'condition'],
    [['GET', `${BASE}/stats?interval=year`, {}], 'interval'],
    [['GET', `${BASE}/stats?from=2026-11-20&to=2026-11-01`, {}], 'from'],
  ];
  for (const [[method, path, options], field] of cases) {
    const { response, asked } = await call(path, { method, ...options });
    const label = `${method} ${path} ${JSON.stringify(options.body ?? '')}`;
    t.equal(response.status, 400, `${label}: 400`);
    t.equal(response.body?.code, 'invalid_request', `${label}: invalid_request`);
    t.ok(response.body?.details?.some((detail: { path: string }) => detail.path === field), `${label}: a detail names ${field}: ${JSON.stringify(response.body?.details)}`);
    t.strictSame(asked, [], `${label}: the jobs service is not asked`);
  }
});

t.test('a malformed tracked search id is 400 invalid_request, as a malformed job id is', async (t) => {
  const malformed = ['ts_123', `ts_${'0'.repeat(25)}I`, `TS_${'0'.repeat(26)}`, '00000000-0000-4000-8000-000000000000'];
  for (const id of malformed) {
    for (const [method, tail] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/runs'], ['GET', '/runs'], ['GET', '/sales'], ['GET', '/sales.csv'], ['GET', '/stats']] as const) {
      const { response, asked } = await call(`/v1/tracked-searches/${id}${tail}`, { method, ...(method === 'PATCH' ? { body: { name: 'x' } } : {}) });
      t.match(response, { status: 400, body: { code: 'invalid_request', error: 'Invalid tracked search id', details: [{ path: 'trackedSearchId' }] } }, `${method} …/${id}${tail}`);
      t.strictSame(asked, []);
    }
  }
});

t.test('a body that is not JSON is 415, before anything is asked', async (t) => {
  for (const [method, path] of [['POST', '/v1/tracked-searches'], ['PATCH', BASE]] as const) {
    const { response, asked } = await call(path, { method, rawBody: 'keyword=lamp', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    t.match(response, { status: 415, body: { code: 'unsupported_media_type' } }, `${method} ${path}`);
    t.strictSame(asked, []);
  }
});

t.test('PATCH is among the methods of a tracked search: another is 405 with Allow', async (t) => {
  const { response } = await call(BASE, { method: 'PUT' });
  t.equal(response.status, 405);
  t.equal(response.body?.code, 'method_not_allowed');
  t.strictSame(response.headers.get('allow')?.split(/,\s*/).sort(), ['DELETE', 'GET', 'PATCH']);
  t.equal((await call('/v1/tracked-searches', { method: 'PATCH' })).response.headers.get('allow')?.split(/,\s*/).sort().join(), 'GET,POST');
});

t.test('a closed data gate or a site not enabled refuses creation at once; the jobs service is not asked', async (t) => {
  const closed = await call('/v1/tracked-searches', { method: 'POST', body: { keyword: 'lamp' } }, 'gateClosed');
  t.match(closed.response, { status: 503, body: { code: 'data_gate_closed' } });
  t.ok(closed.response.headers.get('retry-after'), 'with Retry-After');
  const notEnabled = await call('/v1/tracked-searches', { method: 'POST', body: { keyword: 'lamp', marketSite: 'market.de' } }, 'oneSite');
  t.match(notEnabled.response, { status: 403, body: { code: 'site_not_enabled' } });
  t.strictSame([...closed.asked, ...notEnabled.asked], []);
  const enabled = await call('/v1/tracked-searches', { method: 'POST', body: { keyword: 'lamp' } }, 'oneSite');
  t.equal(enabled.response.status, 201, 'an enabled site is taken');
});

t.test("the jobs service's refusals keep their status and code, with the api's request id", async (t) => {
  const cases: Array<[AppError, string, string, RequestOptions, number]> = [
    [new AppError('tracked_search_not_found', 'No such tracked search'), 'GET', `/v1/tracked-searches/${UNKNOWN_TRACKED_SEARCH_ID}`, {}, 404],
    [new AppError('tracked_search_not_found', 'No such tracked search'), 'PATCH', `/v1/tracked-searches/${UNKNOWN_TRACKED_SEARCH_ID}`, { body: { status: 'paused' } }, 404],
    [new AppError('tracked_search_not_found', 'No such tracked search'), 'GET', `/v1/tracked-searches/${UNKNOWN_TRACKED_SEARCH_ID}/stats`, {}, 404],
    [new AppError('run_in_progress', 'A run of this tracked search is already running'), 'POST', `${BASE}/runs`, {}, 409],
    [new AppError('tracked_search_limit', 'The plan allows 10 tracked searches'), 'POST', '/v1/tracked-searches', { body: { keyword: 'lamp' } }, 409],
  ];
  for (const [error, method, path, options, status] of cases) {
    jobs.failNext(error);
    const { response, asked } = await call(path, { method, ...options });
    t.equal(response.status, status, `${error.code}: ${status}`);
    t.strictSame(response.body, { error: error.message, code: error.code, requestId: response.headers.get('x-request-id') }, `${error.code}: the error object`);
    t.equal(asked.length, 1);
  }
});

t.test('a creation whose call to the jobs service failed as unavailable (a timeout: it may have created it) is made again once, with the same id', async (t) => {
  jobs.failNext(new AppError('service_unavailable', 'The jobs service is unavailable; try again shortly', { retryAfter: 2 }));
  const { response, asked } = await call('/v1/tracked-searches', { method: 'POST', body: { keyword: 'lamp' } });
  t.equal(response.status, 201);
  t.strictSame(response.body, TRACKED_SEARCH_CREATE_EXAMPLE.response);
  t.equal(asked.length, 2);
  t.strictSame(asked[1], asked[0], 'the same input, its id included');

  jobs.failNext(new AppError('tracked_search_limit', 'The plan allows 10 tracked searches'));
  const refused = await call('/v1/tracked-searches', { method: 'POST', body: { keyword: 'lamp' } });
  t.equal(refused.response.status, 409);
  t.equal(refused.asked.length, 1, 'a refusal is not asked again');

  const unavailable = new AppError('service_unavailable', 'The jobs service is unavailable; try again shortly', { retryAfter: 2 });
  jobs.failNext(unavailable);
  jobs.failNext(unavailable);
  const down = await call('/v1/tracked-searches', { method: 'POST', body: { keyword: 'lamp' } });
  t.equal(down.response.status, 503, 'unavailable twice: 503');
  t.equal(down.response.body?.code, 'service_unavailable');
  t.equal(down.asked.length, 2, 'asked again once, not more');
});

t.test("the CSV streams from the jobs service's internal port, asked for the caller's workspace", async (t) => {
  csvPort.asked.length = 0;
  const { response, asked } = await call(`${BASE}/sales.csv`);
  t.equal(response.status, 200);
  t.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.equal(response.headers.get('content-disposition'), `attachment; filename="sales-${TRACKED_SEARCH_ID}.csv"`);
  t.equal(response.text, SALES_CSV_EXAMPLE.response);
  t.strictSame(asked, [], 'not through the procedures');
  t.match(csvPort.asked, [{ path: `/internal/tracked-searches/${TRACKED_SEARCH_ID}/sales.csv`, headers: { [JOB_WORKSPACE_HEADER]: workspaceId, [INTERNAL_TOKEN_HEADER]: stack.internalToken } }]);

  const unknown = await call(`/v1/tracked-searches/${UNKNOWN_TRACKED_SEARCH_ID}/sales.csv`);
  t.match(unknown.response, { status: 404, body: { code: 'tracked_search_not_found', requestId: unknown.response.headers.get('x-request-id') } });
});
