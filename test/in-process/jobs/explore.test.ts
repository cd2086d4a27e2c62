import t from 'tap';
import { Agent } from 'undici';
import { listingCollectionSchema, type ListingCollection } from '@comps/shared/contract/listing';
import { sellThroughSchema, type SellThrough } from '@comps/shared/contract/sell-through';
import { AppError } from '@comps/shared/errors/app-error';
import { createJobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { assertShape } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// In-process: the dashboard's Explore searches, run by the jobs service, are metered as the api's:
// the same answer, charged once handed back, recorded as the dashboard's, refused with the api's codes.
const stack = await startInProcessStack(t);
const api = await stack.startApi();
const accounts = accountsClient(stack);
const agent = new Agent();
t.teardown(() => agent.close());
const jobs = createJobsClient({ url: stack.jobsInternalUrl, internalToken: stack.internalToken, timeoutMs: 10_000, dispatcher: agent });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'none';
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.code}` : String(error);
  }
}

async function settledUsage(workspaceId: string) {
  return eventually(`every unit of ${workspaceId} settled`, async () => {
    const usage = await accounts.usage.get.query({ workspaceId });
    return usage.used + usage.remaining === usage.plan.monthlyQuota ? usage : undefined;
  });
}

async function entriesOf(workspaceId: string, count: number) {
  return eventually(`${count} history entries`, async () => {
    const page = await accounts.history.list.query({ workspaceId, limit: 20 });
    return page.entries.length >= count ? page.entries : undefined;
  });
}

t.test('a search: the api\'s answer for the same query, charged 1, in the history as the dashboard\'s', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const answer = assertShape(t, listingCollectionSchema, await jobs.explore.search.mutate({ workspaceId, query: { keyword: 'vintage lamp', itemCondition: 'used', statsInclude: 'lot' } }));
  const fromApi = await request<ListingCollection>(api.baseUrl, '/v1/scrape?keyword=vintage+lamp&itemCondition=used&statsInclude=lot', { apiKey });
  t.equal(fromApi.status, 200);
  t.strictSame(answer.query, fromApi.body.query, 'the query as the api understands it');
  t.strictSame(answer.stats, fromApi.body.stats, 'the same stats (the simulator is deterministic)');
  t.strictSame(answer.items.map((item) => item.itemId), fromApi.body.items.map((item) => item.itemId), 'the same items');
  t.equal((await settledUsage(workspaceId)).used, 2, 'charged 1 each');
  const entries = await entriesOf(workspaceId, 2);
  const ours = entries.find((entry) => entry.requestId === answer.requestId);
  t.match(ours, { method: 'POST', path: '/dashboard/explore', status: 200, charged: 1, apiKeyPrefix: null, jobId: null, marketSite: 'market.com', keyword: '[redacted]', resultCount: answer.items.length });
});

t.test('a sell-through: the api\'s answer, charged 2, two entries', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const answer = assertShape(t, sellThroughSchema, await jobs.explore.sellThrough.mutate({ workspaceId, query: { keyword: 'vintage lamp', marketSite: 'market.de' } }));
  const fromApi = await request<SellThrough>(api.baseUrl, '/v1/sell-through?keyword=vintage+lamp&marketSite=market.de', { apiKey });
  t.strictSame({ ...answer, requestId: null }, { ...fromApi.body, requestId: null }, 'the same counts and ratio');
  t.equal((await settledUsage(workspaceId)).used, 4, 'charged 2 each');
  const entries = (await entriesOf(workspaceId, 4)).filter((entry) => entry.path === '/dashboard/explore/sell-through');
  t.strictSame(entries.map((entry) => [entry.method, entry.status, entry.charged, entry.apiKeyPrefix]), [
    ['POST', 200, 1, null],
    ['POST', 200, 1, null],
  ]);
  t.ok(entries.some((entry) => entry.requestId === answer.requestId), 'one under the answer\'s request id');
});

t.test('refusals and failures are the api\'s codes, and nothing is charged', async (t) => {
  const spent = await createWorkspace(stack, { quota: 0 });
  t.equal(await codeOf(jobs.explore.search.mutate({ workspaceId: spent.workspaceId, query: { keyword: 'lamp' } })), '403 quota_exhausted');
  const one = await createWorkspace(stack, { quota: 1 });
  t.equal(await codeOf(jobs.explore.sellThrough.mutate({ workspaceId: one.workspaceId, query: { keyword: 'lamp' } })), '403 quota_exhausted', 'a sell-through needs 2');
  t.equal((await settledUsage(one.workspaceId)).used, 0, 'its call that got a unit gave it back');
  const slow = await createWorkspace(stack, { rate: 1 });
  t.equal(await codeOf(jobs.explore.sellThrough.mutate({ workspaceId: slow.workspaceId, query: { keyword: 'lamp' } })), '429 rate_limited', 'a sell-through counts twice against the rate');

  const { workspaceId } = await createWorkspace(stack);
  t.equal(await codeOf(jobs.explore.search.mutate({ workspaceId, query: { keyword: 'lamp sim:error' } })), '502 upstream_error');
  t.equal(await codeOf(jobs.explore.search.mutate({ workspaceId, query: { keyword: 'lamp', marketSite: 'market.xx' } })), '400 invalid_request', 'the api\'s query schema');
  t.equal(await codeOf(jobs.explore.search.mutate({ workspaceId, query: { keyword: 'lamp', minPrice: '20', maxPrice: '10' } })), '400 invalid_request', 'with its refinements');

  // A caller that leaves before the answer (accounts' timeout, a browser gone) is not charged.
  // It leaves after 1.5 s, while the marketplace takes 5 s: its call is under way by then, however slow the machine.
  const impatient = createJobsClient({ url: stack.jobsInternalUrl, internalToken: stack.internalToken, timeoutMs: 1500, dispatcher: agent });
  t.equal(await codeOf(impatient.explore.search.mutate({ workspaceId, query: { keyword: 'lamp sim:slow=5000' } })), '503 service_unavailable');
  const entries = await entriesOf(workspaceId, 2);
  const left = await eventually('the abandoned call recorded', async () => {
    const page = await accounts.history.list.query({ workspaceId, limit: 20 });
    return page.entries.find((entry) => entry.status === 499);
  });
  t.match(left, { path: '/dashboard/explore', charged: 0 });
  t.ok(entries.every((entry) => entry.charged === 0), 'nothing charged');
  t.equal((await settledUsage(workspaceId)).used, 0);
});
