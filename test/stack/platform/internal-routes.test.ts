import t from 'tap';
import { readFile } from 'node:fs/promises';
import { Agent } from 'undici';
import { createAccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { AppError } from '@comps/shared/errors/app-error';
import { assertError } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

const stack = await startTestStack(t);
const internal = {
  api: `http://127.0.0.1:${stack.ports.apiInternal}`,
  accounts: stack.accountsInternalUrl,
  jobs: `http://127.0.0.1:${stack.ports.jobsInternal}`,
};

t.test('tRPC and health routes are not reachable through Caddy', async (t) => {
  const { apiKey } = await createWorkspace(stack);
  for (const path of ['/trpc/usage.get', '/trpc/apiKeys.authenticate?input=%7B%7D', '/healthz', '/readyz']) {
    assertError(t, await request(stack.baseUrl, path), 404, 'not_found');
    assertError(t, await request(stack.baseUrl, path, { apiKey, headers: { 'x-internal-token': stack.internalToken } }), 404, 'not_found');
  }
  assertError(t, await request(stack.baseUrl, '/trpc/workspaces.create', { method: 'POST', body: { name: 'x' } }), 404, 'not_found');
});

t.test('accounts\' tRPC refuses a call without the internal token, or with another', async (t) => {
  const url = `${internal.accounts}/trpc/workspaces.create`;
  assertError(t, await request(url, '', { method: 'POST', body: { name: 'intruder' } }), 401, 'unauthorized');
  assertError(t, await request(url, '', { method: 'POST', body: { name: 'intruder' }, headers: { 'x-internal-token': 'x'.repeat(43) } }), 401, 'unauthorized');
  await t.rejects(accountsClient(stack, 'wrong-token-wrong-token-wrong-token-00').usage.get.query({ workspaceId: 'ws_x' }));
  const created = await accountsClient(stack).workspaces.create.mutate({ name: 'insider' });
  t.match(created.workspaceId, /^ws_[0-9A-Z]{26}$/, 'with the token it works');
});

t.test('every service answers /healthz and /readyz on its internal port', async (t) => {
  for (const [service, url] of Object.entries(internal)) {
    const health = await request(url, '/healthz');
    t.equal(health.status, 200, `${service} /healthz`);
    const ready = await request(url, '/readyz');
    t.equal(ready.status, 200, `${service} /readyz`);
    t.equal(ready.body.status, 'ready');
  }
});

t.test("an api's /metrics counts its idle collections: none before its first request, one once it was idle after it", async (t) => {
  const api = await stack.startExtraApi({ API_IDLE_GC_MS: '200' });
  const metrics = async () => (await fetch(`${api.internalUrl}/metrics`)).text();
  const collections = async () => Number(/^comps_idle_collections_total (\d+)$/m.exec(await metrics())?.[1]);
  t.equal(await collections(), 0, 'no work yet, so no idle moment');
  t.equal((await request(api.url, '/v1/capabilities')).status, 200);
  await eventually('the idle collection', async () => ((await collections()) === 1 ? true : undefined));
  // Nothing more is in flight: no other collection follows.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const text = await metrics();
  t.match(text, /^comps_idle_collections_total 1$/m);
  t.match(text, /^comps_idle_collection_freed_bytes_total \d+$/m, 'what it gave back, in whole bytes');
  t.ok(Number(/^comps_idle_collection_pause_seconds_total (\S+)$/m.exec(text)?.[1]) > 0, 'its pause');
});

t.test('/dashboard and /auth/* go to accounts, everything else to the api', async (t) => {
  const dashboard = await request(stack.baseUrl, '/dashboard');
  const auth = await request(stack.baseUrl, '/auth/login');
  const api = await request(stack.baseUrl, '/dashboardx');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const lines = (await readFile(stack.logFile, 'utf8')).split('\n').filter((line) => line.startsWith('{'));
  const serviceOf = (requestId: string) =>
    lines.map((line) => JSON.parse(line) as { service?: string; requestId?: string; msg?: string }).find((entry) => entry.requestId === requestId && entry.msg === 'request')?.service;
  t.equal(serviceOf(dashboard.headers.get('x-request-id')!), 'accounts');
  t.equal(serviceOf(auth.headers.get('x-request-id')!), 'accounts');
  t.equal(serviceOf(api.headers.get('x-request-id')!), 'api');
});

t.test('an error crosses the internal boundary with its code and details: input a procedure refuses, an AppError with details', async (t) => {
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const client = createAccountsClient({ url: stack.accountsInternalUrl, internalToken: stack.internalToken, timeoutMs: 5000, dispatcher });
  const refused = await client.workspaces.create.mutate({ name: '', planId: 'no such plan' } as never).catch((error: unknown) => error);
  t.ok(refused instanceof AppError, 'an AppError');
  t.match(refused, { code: 'invalid_request', status: 400, message: 'Invalid request' }, 'not zod\'s JSON as the message');
  t.ok(Array.isArray((refused as AppError).details) && (refused as AppError).details!.length >= 1, 'with the details of what was wrong');
  t.match((refused as AppError).details, [{ path: String, message: String }]);
});
