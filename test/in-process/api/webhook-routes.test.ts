import t from 'tap';
import { WEBHOOK_ID_PATTERN } from '@comps/shared/contract/webhook';
import { AppError } from '@comps/shared/errors/app-error';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { contractClient, procedurePaths, type ContractTree } from '@comps/shared/internal/procedure-contract';
import {
  DELIVERY_LIST_EXAMPLE,
  DELIVERY_RETRY_EXAMPLE,
  WEBHOOK_CREATE_EXAMPLE,
  WEBHOOK_DELETE_EXAMPLE,
  WEBHOOK_GET_EXAMPLE,
  WEBHOOK_LIST_EXAMPLE,
  WEBHOOK_ROTATE_SECRET_EXAMPLE,
  WEBHOOK_TEST_EXAMPLE,
  WEBHOOK_UPDATE_EXAMPLE,
} from '../../../services/api/src/routes/examples.js';
import { eventually, request, type RequestOptions } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// In-process: the webhook routes of the api, on fake webhook procedures of the accounts service
// (endpoints and secrets) and of the jobs service (deliveries) that record what the api asks of
// them. What those services do with it is their own tests' business; here, what the api validates,
// passes on and answers. The rest of accounts (keys, history) is the real service.

type Service = 'accounts' | 'jobs';

/** The services' answers: the reference's examples. */
const ANSWERS: Record<string, unknown> = {
  'accounts webhooks.create': WEBHOOK_CREATE_EXAMPLE.response,
  'accounts webhooks.list': WEBHOOK_LIST_EXAMPLE.response,
  'accounts webhooks.get': WEBHOOK_GET_EXAMPLE.response,
  'accounts webhooks.update': WEBHOOK_UPDATE_EXAMPLE.response,
  'accounts webhooks.delete': WEBHOOK_DELETE_EXAMPLE.response,
  'accounts webhooks.rotateSecret': WEBHOOK_ROTATE_SECRET_EXAMPLE.response,
  'jobs webhooks.deliveries': DELIVERY_LIST_EXAMPLE.response,
  'jobs webhooks.test': WEBHOOK_TEST_EXAMPLE.response,
  'jobs webhooks.retry': DELIVERY_RETRY_EXAMPLE.response,
};

interface ServiceCall {
  /** `accounts webhooks.get`, `jobs webhooks.retry`. */
  procedure: string;
  input: unknown;
  /** Whether the service would take the input (its contract's schema). */
  valid: boolean;
}

/** The webhook procedures of both services: each call recorded, answered with the examples, or failed once with the error given. */
function fakeServices() {
  const calls: ServiceCall[] = [];
  const failures = new Map<string, AppError>();
  const fake = <C extends ContractTree>(service: Service, contract: C) => {
    const inputs = new Map(procedurePaths(contract).map(([path, procedure]) => [path, procedure.input]));
    return contractClient(contract, async (path, _type, input) => {
      const procedure = `${service} ${path}`;
      calls.push({ procedure, input, valid: inputs.get(path)!.safeParse(input).success });
      const failure = failures.get(procedure);
      if (failure) {
        failures.delete(procedure);
        throw failure;
      }
      if (!(procedure in ANSWERS)) throw new Error(`the fake has no answer for ${procedure}`);
      return ANSWERS[procedure];
    });
  };
  return {
    accounts: fake('accounts', accountsContract),
    jobs: fake('jobs', jobsContract),
    calls,
    /** The next call of that procedure fails with `error`. */
    failNext: (procedure: string, error: AppError) => failures.set(procedure, error),
  };
}

const WEBHOOK_ID = 'wh_01M7W6C380K4EDSPAR4F3W7JP3';
const DELIVERY_ID = 'msg_01M86FYZ80QEY0MNEEJ2WNSE3B';
const UNKNOWN_WEBHOOK_ID = `wh_${'0'.repeat(26)}`;
const BASE = `/v1/webhooks/${WEBHOOK_ID}`;

const stack = await startInProcessStack(t);
const fakes = fakeServices();
const accounts: AccountsClient = { ...stack.accounts, webhooks: fakes.accounts.webhooks };
const jobs: JobsClient = fakes.jobs;
const api = await stack.startApi({ overrides: { accounts, jobs } });

const { workspaceId, apiKey: issued } = await stack.accounts.workspaces.create.mutate({ name: 'webhooks', planId: 'starter' });
await stack.accounts.workspaces.setLimits.mutate({ workspaceId, rateLimit: 100_000 });
const apiKey = issued.key;

/** A call of the api with the workspace's key, and the webhook procedures it called. */
async function call(path: string, options: Omit<RequestOptions, 'apiKey'> = {}) {
  const before = fakes.calls.length;
  const response = await request(api.baseUrl, path, { apiKey, ...options });
  return { response, asked: fakes.calls.slice(before) };
}

const owned = { workspaceId, webhookId: WEBHOOK_ID };
const ownership = { procedure: 'accounts webhooks.get', input: owned, valid: true };

t.test('creation: 201 with the secret, Location and no-store; the body as validated is passed on', async (t) => {
  const { response, asked } = await call('/v1/webhooks', {
    method: 'POST',
    body: { url: '  https://hooks.example.com/comps ', events: ['trackedSearch.run.completed', 'job.failed', 'job.completed', 'job.failed'], description: ' Inventory pricing backend ', secret: 'mine' },
  });
  t.equal(response.status, 201);
  t.equal(response.headers.get('location'), `/v1/webhooks/${WEBHOOK_ID}`);
  t.equal(response.headers.get('cache-control'), 'no-store', 'an answer with a secret is never cached');
  t.strictSame(response.body, WEBHOOK_CREATE_EXAMPLE.response);
  const { webhookId } = asked[0]?.input as { webhookId: string };
  t.match(webhookId, WEBHOOK_ID_PATTERN, 'the api makes the id, so that a call made again after a timeout creates nothing more');
  t.strictSame(asked, [
    {
      procedure: 'accounts webhooks.create',
      // Trimmed; the events once each, in the contract's order; an unknown field (a secret of the caller's) dropped.
      input: { workspaceId, webhookId, body: { url: 'https://hooks.example.com/comps', events: ['job.completed', 'job.failed', 'trackedSearch.run.completed'], description: 'Inventory pricing backend' } },
      valid: true,
    },
  ]);

  const bare = await call('/v1/webhooks', { method: 'POST', body: { url: 'https://hooks.example.com/x', events: ['job.cancelled'] } });
  t.equal(bare.response.status, 201);
  const bareId = (bare.asked[0]?.input as { webhookId: string }).webhookId;
  t.not(bareId, webhookId, 'a new id for each creation');
  t.strictSame(bare.asked, [{ procedure: 'accounts webhooks.create', input: { workspaceId, webhookId: bareId, body: { url: 'https://hooks.example.com/x', events: ['job.cancelled'] } }, valid: true }], 'no description, none passed');
});

t.test('a creation whose call to accounts failed as unavailable (a timeout: it may have created it) is made again once, with the same id', async (t) => {
  fakes.failNext('accounts webhooks.create', new AppError('service_unavailable', 'The accounts service is unavailable; try again shortly', { retryAfter: 2 }));
  const { response, asked } = await call('/v1/webhooks', { method: 'POST', body: { url: 'https://hooks.example.com/x', events: ['job.completed'] } });
  t.equal(response.status, 201);
  t.strictSame(response.body, WEBHOOK_CREATE_EXAMPLE.response);
  t.strictSame(asked.map((asked) => asked.procedure), ['accounts webhooks.create', 'accounts webhooks.create']);
  t.strictSame(asked[1], asked[0], 'the same input, its id included');
});

t.test('each route of one endpoint: its status, no-store, the answer, and what it asks of which service', async (t) => {
  const cases: Array<[string, string, RequestOptions, number, ServiceCall[]]> = [
    ['GET', '/v1/webhooks', {}, 200, [{ procedure: 'accounts webhooks.list', input: { workspaceId }, valid: true }]],
    ['GET', BASE, {}, 200, [ownership]],
    ['PATCH', BASE, { body: { status: 'disabled' } }, 200, [{ procedure: 'accounts webhooks.update', input: { ...owned, changes: { status: 'disabled' } }, valid: true }]],
    [
      'PATCH', BASE, { body: { url: ' https://hooks.example.com/v2 ', events: ['job.failed', 'job.completed'], description: null, status: 'enabled' } }, 200,
      [{ procedure: 'accounts webhooks.update', input: { ...owned, changes: { url: 'https://hooks.example.com/v2', events: ['job.completed', 'job.failed'], description: null, status: 'enabled' } }, valid: true }],
    ],
    ['DELETE', BASE, {}, 200, [{ procedure: 'accounts webhooks.delete', input: owned, valid: true }]],
    ['POST', `${BASE}/secret`, {}, 200, [{ procedure: 'accounts webhooks.rotateSecret', input: owned, valid: true }]],
    ['POST', `${BASE}/test`, {}, 202, [ownership, { procedure: 'jobs webhooks.test', input: owned, valid: true }]],
    ['GET', `${BASE}/deliveries`, {}, 200, [ownership, { procedure: 'jobs webhooks.deliveries', input: { ...owned, limit: 50 }, valid: true }]],
    [
      'GET', `${BASE}/deliveries?limit=100&cursor=eyJjIjoiMjAyNi0xMS0yMCJ9_-&unknown=1`, {}, 200,
      [ownership, { procedure: 'jobs webhooks.deliveries', input: { ...owned, limit: 100, cursor: 'eyJjIjoiMjAyNi0xMS0yMCJ9_-' }, valid: true }],
    ],
    ['GET', `${BASE}/deliveries?limit=1`, {}, 200, [ownership, { procedure: 'jobs webhooks.deliveries', input: { ...owned, limit: 1 }, valid: true }]],
    ['POST', `${BASE}/deliveries/${DELIVERY_ID}/retry`, {}, 202, [ownership, { procedure: 'jobs webhooks.retry', input: { ...owned, deliveryId: DELIVERY_ID }, valid: true }]],
  ];
  for (const [method, path, options, status, expected] of cases) {
    const { response, asked } = await call(path, { method, ...options });
    const label = `${method} ${path}`;
    t.equal(response.status, status, `${label}: ${status}`);
    t.equal(response.headers.get('cache-control'), 'no-store', `${label}: not cached`);
    t.equal(response.headers.get('location'), null, `${label}: no Location`);
    t.strictSame(response.body, ANSWERS[expected.at(-1)!.procedure], `${label}: the service's answer`);
    t.strictSame(asked, expected, `${label}: asks ${expected.map((asked) => asked.procedure).join(', then ')}`);
  }
});

t.test('a body or query out of bounds is 400 invalid_request naming the field, and no service is asked', async (t) => {
  const url = 'https://hooks.example.com/comps';
  const events = ['job.completed'];
  const create = (body: unknown): [string, string, RequestOptions] => ['POST', '/v1/webhooks', { body }];
  const patch = (body: unknown): [string, string, RequestOptions] => ['PATCH', BASE, { body }];
  const deliveries = (query: string): [string, string, RequestOptions] => ['GET', `${BASE}/deliveries?${query}`, {}];
  const cases: Array<[[string, string, RequestOptions], string]> = [
    [create({ events }), 'url'],
    [create({ url: '   ', events }), 'url'],
    [create({ url: 42, events }), 'url'],
    [create({ url: `https://hooks.example.com/${'x'.repeat(2000)}`, events }), 'url'],
    [create({ url }), 'events'],
    [create({ url, events: [] }), 'events'],
    [create({ url, events: 'job.completed' }), 'events'],
    [create({ url, events: ['job.started'] }), 'events.0'],
    [create({ url, events: ['job.completed', 'webhook.test'] }), 'events.1'],
    [create({ url, events, description: 'x'.repeat(201) }), 'description'],
    [create({ url, events, description: 7 }), 'description'],
    [create([{ url, events }]), '(root)'],
    [patch({}), '(root)'],
    [patch({ secret: 'whsec_mine' }), '(root)'],
    [patch({ status: 'paused' }), 'status'],
    [patch({ events: [] }), 'events'],
    [patch({ events: ['job.done'] }), 'events.0'],
    [patch({ url: '' }), 'url'],
    [patch({ url: `https://hooks.example.com/${'x'.repeat(2000)}` }), 'url'],
    [patch({ description: 'x'.repeat(201) }), 'description'],
    [deliveries('limit=0'), 'limit'],
    [deliveries('limit=101'), 'limit'],
    [deliveries('limit=ten'), 'limit'],
    [deliveries('limit=5&limit=6'), 'limit'],
    [deliveries('cursor=not+a+cursor'), 'cursor'],
    [deliveries('cursor=abc%2Fdef%3D'), 'cursor'],
    [deliveries(`cursor=${'a'.repeat(101)}`), 'cursor'],
    [deliveries('cursor='), 'cursor'],
  ];
  for (const [[method, path, options], field] of cases) {
    const { response, asked } = await call(path, { method, ...options });
    const label = `${method} ${path.length > 120 ? `${path.slice(0, 120)}…` : path} ${JSON.stringify(options.body ?? '').slice(0, 120)}`;
    t.equal(response.status, 400, `${label}: 400`);
    t.equal(response.body?.code, 'invalid_request', `${label}: invalid_request`);
    t.ok(response.body?.details?.some((detail: { path: string }) => detail.path === field), `${label}: a detail names ${field}: ${JSON.stringify(response.body?.details)?.slice(0, 300)}`);
    t.strictSame(asked, [], `${label}: no service is asked`);
  }
});

t.test('a malformed webhook or delivery id is 400 invalid_request naming it, as a malformed tracked search id is', async (t) => {
  const malformed = ['wh_123', `wh_${'0'.repeat(25)}I`, `WH_${'0'.repeat(26)}`, `wh_${'0'.repeat(27)}`, `ts_${'0'.repeat(26)}`, `msg_${'0'.repeat(26)}`];
  const routes = [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/secret'], ['POST', '/test'], ['GET', '/deliveries'], ['POST', `/deliveries/${DELIVERY_ID}/retry`]] as const;
  for (const id of malformed) {
    for (const [method, tail] of routes) {
      const { response, asked } = await call(`/v1/webhooks/${id}${tail}`, { method, ...(method === 'PATCH' ? { body: { status: 'disabled' } } : {}) });
      const message = tail.endsWith('/retry') ? 'Invalid webhook or delivery id' : 'Invalid webhook id';
      t.match(response, { status: 400, body: { code: 'invalid_request', error: message, details: [{ path: 'webhookId' }] } }, `${method} …/${id}${tail}`);
      t.strictSame(asked, []);
    }
  }
  for (const id of ['msg_123', `msg_${'0'.repeat(25)}U`, `wh_${'0'.repeat(26)}`, '00000000-0000-4000-8000-000000000000']) {
    const { response, asked } = await call(`${BASE}/deliveries/${id}/retry`, { method: 'POST' });
    t.match(response, { status: 400, body: { code: 'invalid_request', error: 'Invalid webhook or delivery id', details: [{ path: 'deliveryId' }] } }, `retry of …/deliveries/${id}`);
    t.equal(response.body?.details?.length, 1, 'only the delivery id is named');
    t.strictSame(asked, []);
  }
});

t.test('a body that is not JSON is 415, before anything is asked', async (t) => {
  for (const [method, path] of [['POST', '/v1/webhooks'], ['PATCH', BASE]] as const) {
    const { response, asked } = await call(path, { method, rawBody: 'url=https://hooks.example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    t.match(response, { status: 415, body: { code: 'unsupported_media_type' } }, `${method} ${path}`);
    t.strictSame(asked, []);
  }
});

t.test('another method is 405 with Allow naming the methods of the path', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['PUT', BASE, 'DELETE,GET,PATCH'],
    ['PATCH', '/v1/webhooks', 'GET,POST'],
    ['GET', `${BASE}/secret`, 'POST'],
    ['GET', `${BASE}/test`, 'POST'],
    ['POST', `${BASE}/deliveries`, 'GET'],
    ['GET', `${BASE}/deliveries/${DELIVERY_ID}/retry`, 'POST'],
  ];
  for (const [method, path, allow] of cases) {
    const { response, asked } = await call(path, { method });
    t.equal(response.status, 405, `${method} ${path}`);
    t.equal(response.body?.code, 'method_not_allowed');
    t.equal(response.headers.get('allow')?.split(/,\s*/).sort().join(), allow);
    t.strictSame(asked, []);
  }
});

t.test("the services' refusals keep their status, code and details, with the api's request id", async (t) => {
  const refusedUrl = new AppError('invalid_webhook_url', 'The URL is refused: its host resolves to a private address', {
    details: [{ path: 'url', message: 'hooks.internal resolves to 10.0.0.7, a private address' }],
  });
  const notFound = new AppError('webhook_not_found', 'No such webhook endpoint');
  const cases: Array<[string, AppError, string, string, RequestOptions, number, string[]]> = [
    ['accounts webhooks.create', new AppError('webhook_limit', 'The plan allows 5 webhook endpoints'), 'POST', '/v1/webhooks', { body: { url: 'https://a.example.com', events: ['job.completed'] } }, 409, ['accounts webhooks.create']],
    ['accounts webhooks.create', refusedUrl, 'POST', '/v1/webhooks', { body: { url: 'https://hooks.internal', events: ['job.completed'] } }, 400, ['accounts webhooks.create']],
    ['accounts webhooks.update', refusedUrl, 'PATCH', BASE, { body: { url: 'https://hooks.internal' } }, 400, ['accounts webhooks.update']],
    ['accounts webhooks.get', notFound, 'GET', `/v1/webhooks/${UNKNOWN_WEBHOOK_ID}`, {}, 404, ['accounts webhooks.get']],
    ['accounts webhooks.update', notFound, 'PATCH', `/v1/webhooks/${UNKNOWN_WEBHOOK_ID}`, { body: { status: 'enabled' } }, 404, ['accounts webhooks.update']],
    ['accounts webhooks.delete', notFound, 'DELETE', `/v1/webhooks/${UNKNOWN_WEBHOOK_ID}`, {}, 404, ['accounts webhooks.delete']],
    ['accounts webhooks.rotateSecret', notFound, 'POST', `/v1/webhooks/${UNKNOWN_WEBHOOK_ID}/secret`, {}, 404, ['accounts webhooks.rotateSecret']],
    ['jobs webhooks.retry', new AppError('delivery_not_found', 'No such delivery'), 'POST', `${BASE}/deliveries/${DELIVERY_ID}/retry`, {}, 404, ['accounts webhooks.get', 'jobs webhooks.retry']],
  ];
  for (const [procedure, error, method, path, options, status, expected] of cases) {
    fakes.failNext(procedure, error);
    const { response, asked } = await call(path, { method, ...options });
    const label = `${error.code} from ${procedure}`;
    t.equal(response.status, status, `${label}: ${status}`);
    t.strictSame(
      response.body,
      { error: error.message, code: error.code, requestId: response.headers.get('x-request-id'), ...(error.details ? { details: error.details } : {}) },
      `${label}: the error object`,
    );
    t.strictSame(asked.map((asked) => asked.procedure), expected, `${label}: asked ${expected.join(', then ')}`);
    t.ok(asked.every((asked) => asked.valid), `${label}: with inputs the services take`);
  }
});

t.test('deliveries, test and retry ask accounts first whether the workspace owns the endpoint: when not, 404 and the jobs service is never asked', async (t) => {
  const routes = [['POST', '/test'], ['GET', '/deliveries'], ['GET', '/deliveries?limit=10'], ['POST', `/deliveries/${DELIVERY_ID}/retry`]] as const;
  for (const [method, tail] of routes) {
    fakes.failNext('accounts webhooks.get', new AppError('webhook_not_found', 'No such webhook endpoint'));
    const { response, asked } = await call(`/v1/webhooks/${UNKNOWN_WEBHOOK_ID}${tail}`, { method });
    t.match(response, { status: 404, body: { code: 'webhook_not_found', error: 'No such webhook endpoint' } }, `${method} …${tail}`);
    t.strictSame(asked, [{ procedure: 'accounts webhooks.get', input: { workspaceId, webhookId: UNKNOWN_WEBHOOK_ID }, valid: true }], `${method} …${tail}: only accounts is asked`);
  }
});

t.test('the history entries of webhook routes carry no search text and no site', async (t) => {
  const { response } = await call('/v1/webhooks', { method: 'POST', body: { url: 'https://hooks.example.com/keyword', events: ['job.completed'], description: 'keyword lamp' } });
  const requestId = response.headers.get('x-request-id');
  const entry = await eventually('the creation is in the history', async () => {
    const history = await request(api.baseUrl, '/requests?limit=100', { apiKey });
    return (history.body?.entries as Array<{ requestId: string }> | undefined)?.find((candidate) => candidate.requestId === requestId);
  });
  t.match(entry, { method: 'POST', path: '/v1/webhooks', status: 201, code: null, charged: 0, marketSite: null, keyword: null, jobId: null });
});
