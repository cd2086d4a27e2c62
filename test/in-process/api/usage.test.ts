import t from 'tap';
import { usageSchema } from '@comps/shared/contract/usage';
import { newRequestId } from '@comps/shared/ids';
import { assertError, assertShape } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

const stack = await startInProcessStack(t);
const api = await stack.startApi();
const accounts = accountsClient(stack);

t.test('GET /usage reports the plan, the UTC month and the quota', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'starter' });
  const response = await request(api.baseUrl, '/usage', { apiKey });
  t.equal(response.status, 200);
  const usage = assertShape(t, usageSchema, response.body);
  const now = new Date();
  t.strictSame(usage, {
    workspaceId,
    plan: {
      id: 'starter',
      name: 'Starter',
      monthlyQuota: 10000,
      rateLimit: { requests: 60, windowSeconds: 60 },
      concurrency: 5,
      activeJobs: 1,
      trackedSearches: 10,
      webhookEndpoints: 5,
    },
    period: {
      start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    },
    used: 0,
    remaining: 10000,
  });
  t.equal(response.headers.get('x-quota-limit'), '10000');
  t.equal(response.headers.get('x-quota-remaining'), '10000');
  t.equal(response.headers.get('ratelimit-policy'), '"minute";q=60;w=60');
  t.match(response.headers.get('ratelimit'), /^"minute";r=59;t=\d+$/);
});

t.test('the seeded plans and per-workspace overrides', async (t) => {
  const plans = { free: [100, 10, 1, 1, 1], starter: [10000, 60, 5, 10, 5], pro: [100000, 300, 20, 100, 20] } as const;
  for (const [plan, [quota, rate, concurrency, trackedSearches, webhookEndpoints]] of Object.entries(plans)) {
    const { apiKey } = await createWorkspace(stack, { plan: plan as keyof typeof plans });
    const { body } = await request(api.baseUrl, '/usage', { apiKey });
    t.strictSame(
      [body.plan.monthlyQuota, body.plan.rateLimit.requests, body.plan.concurrency, body.plan.activeJobs, body.plan.trackedSearches, body.plan.webhookEndpoints],
      [quota, rate, concurrency, 1, trackedSearches, webhookEndpoints],
      plan,
    );
  }
  const { workspaceId, apiKey } = await createWorkspace(stack, { plan: 'free', quota: 7, rate: 3, concurrency: 2, trackedSearches: 4, webhookEndpoints: 0 });
  const { body } = await request(api.baseUrl, '/usage', { apiKey });
  t.strictSame(
    [body.plan.id, body.plan.monthlyQuota, body.plan.rateLimit.requests, body.plan.concurrency, body.plan.trackedSearches, body.plan.webhookEndpoints],
    ['free', 7, 3, 2, 4, 0],
  );
  const cleared = await accounts.workspaces.setLimits.mutate({ workspaceId, trackedSearches: null, webhookEndpoints: null });
  t.strictSame([cleared.monthlyQuota, cleared.trackedSearches, cleared.webhookEndpoints], [7, 1, 1], 'null goes back to the plan\'s value; absent leaves the others');
  const onStarter = await accounts.workspaces.setLimits.mutate({ workspaceId, planId: 'starter', webhookEndpoints: 2 });
  t.strictSame([onStarter.trackedSearches, onStarter.webhookEndpoints], [10, 2], 'the new plan\'s value where no override is set');
});

t.test('usage follows the ledger, and lookups cost nothing', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack, { quota: 5 });
  for (let i = 0; i < 3; i += 1) {
    const requestId = newRequestId();
    await accounts.quota.reserve.mutate({ workspaceId, requestId });
    await accounts.quota.settle.mutate({ requestId });
  }
  const failed = newRequestId();
  await accounts.quota.reserve.mutate({ workspaceId, requestId: failed });
  await accounts.quota.release.mutate({ requestId: failed });
  for (let i = 0; i < 3; i += 1) await request(api.baseUrl, '/usage', { apiKey });
  const response = await request(api.baseUrl, '/usage', { apiKey });
  t.equal(response.body.used, 3);
  t.equal(response.body.remaining, 2);
  t.equal(response.headers.get('x-quota-remaining'), '2');
});

t.test('two workspaces never see each other\'s usage', async (t) => {
  const a = await createWorkspace(stack);
  const b = await createWorkspace(stack);
  const requestId = newRequestId();
  await accounts.quota.reserve.mutate({ workspaceId: a.workspaceId, requestId });
  await accounts.quota.settle.mutate({ requestId });
  const ofA = await request(api.baseUrl, '/usage', { apiKey: a.apiKey });
  const ofB = await request(api.baseUrl, '/usage', { apiKey: b.apiKey });
  t.equal(ofA.body.workspaceId, a.workspaceId);
  t.equal(ofA.body.used, 1);
  t.equal(ofB.body.workspaceId, b.workspaceId);
  t.equal(ofB.body.used, 0);
});

t.test('the workspace rate limit answers 429 rate_limited with Retry-After', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'free', rate: 3 });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await request(api.baseUrl, '/usage', { apiKey })).status);
  t.strictSame(statuses, [200, 200, 200]);
  const limited = await request(api.baseUrl, '/usage', { apiKey });
  assertError(t, limited, 429, 'rate_limited');
  t.equal(limited.headers.get('ratelimit-policy'), '"minute";q=3;w=60');
  t.match(limited.headers.get('ratelimit'), /^"minute";r=0;t=\d+$/);
  t.equal(limited.headers.get('x-quota-limit'), '100', 'quota figures on a refusal too');
});
