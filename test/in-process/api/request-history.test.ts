import t from 'tap';
import { historyPageSchema, type HistoryEntry } from '@comps/shared/contract/request-history';
import { requestIdAt } from '@comps/shared/ids';
import { assertError, assertShape } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace, type TestWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

const stack = await startInProcessStack(t);
const api = await stack.startApi();
const accounts = accountsClient(stack);
const DAY = 86_400_000;

async function historyOf(workspace: TestWorkspace, query = ''): Promise<{ entries: HistoryEntry[]; nextCursor: string | null }> {
  const response = await request(api.baseUrl, `/requests${query}`, { apiKey: workspace.apiKey });
  if (response.status !== 200) throw new Error(`GET /requests${query}: ${response.status} ${response.text}`);
  return response.body;
}

/** History is written just after each answer; wait until `count` entries are there. */
async function waitForEntries(workspace: TestWorkspace, count: number) {
  return eventually(`${count} history entries`, async () => {
    const page = await accounts.history.list.query({ workspaceId: workspace.workspaceId, limit: 100 });
    return page.entries.length >= count ? page.entries : undefined;
  });
}

function record(workspaceId: string, requestId: string, extra: Partial<Parameters<typeof accounts.history.record.mutate>[0]['entries'][number]> = {}) {
  return {
    requestId,
    workspaceId,
    apiKeyId: null,
    apiKeyPrefix: 'sk_test00',
    method: 'GET',
    path: '/v1/scrape',
    status: 200,
    code: null,
    charged: 1 as const,
    durationMs: 12,
    marketSite: 'market.com' as const,
    hasKeyword: true,
    resultCount: 60,
    jobId: null,
    ...extra,
  };
}

t.test('every authenticated request gets one entry, successful or not, newest first', async (t) => {
  const workspace = await createWorkspace(stack);
  const ok = await request(api.baseUrl, '/usage', { apiKey: workspace.apiKey });
  const bad = await request(api.baseUrl, '/requests?limit=abc', { apiKey: workspace.apiKey });
  await request(api.baseUrl, '/usage', { apiKey: 'sk_unknownunknownunknownunknownunknown' });
  const entries = await waitForEntries(workspace, 2);
  const page = assertShape(t, historyPageSchema, await historyOf(workspace, '?limit=2'));
  t.strictSame(page.entries, entries.slice(0, 2));
  const [second, first] = page.entries;
  t.equal(first?.requestId, ok.headers.get('x-request-id'));
  t.strictSame(
    { method: first?.method, path: first?.path, status: first?.status, code: first?.code, charged: first?.charged, keyword: first?.keyword },
    { method: 'GET', path: '/usage', status: 200, code: null, charged: 0, keyword: null },
  );
  t.equal(second?.requestId, bad.headers.get('x-request-id'));
  t.equal(second?.status, 400);
  t.equal(second?.code, 'invalid_request');
  t.match(first?.apiKeyPrefix, /^sk_[0-9A-Za-z]{6}$/);
  t.ok(workspace.apiKey.startsWith(first!.apiKeyPrefix!), 'the prefix is the key\'s own');
});

t.test('search text is stored only as [redacted]', async (t) => {
  const workspace = await createWorkspace(stack);
  await accounts.history.record.mutate({ entries: [record(workspace.workspaceId, requestIdAt(new Date()))] });
  const { entries } = await historyOf(workspace);
  t.equal(entries[0]?.keyword, '[redacted]');
});

t.test('pagination returns each entry exactly once while new entries arrive', async (t) => {
  const workspace = await createWorkspace(stack);
  const now = Date.now();
  const seeded = Array.from({ length: 23 }, (_, i) => requestIdAt(new Date(now - (i + 1) * 60_000)));
  await accounts.history.record.mutate({ entries: seeded.map((id) => record(workspace.workspaceId, id)) });

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: { entries: HistoryEntry[]; nextCursor: string | null } = await historyOf(
      workspace,
      `?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    seen.push(...page.entries.map((entry) => entry.requestId));
    cursor = page.nextCursor;
    pages += 1;
    // Meanwhile the caller keeps using the API, and entries keep arriving at the top.
    await request(api.baseUrl, '/usage', { apiKey: workspace.apiKey });
    await accounts.history.record.mutate({ entries: [record(workspace.workspaceId, requestIdAt(new Date()))] });
  } while (cursor && pages < 50);

  t.equal(new Set(seen).size, seen.length, 'no entry twice');
  for (const id of seeded) t.ok(seen.includes(id), `${id} seen`);
  const sorted = [...seen].sort().reverse();
  t.strictSame(seen, sorted, 'newest first, across pages');
});

t.test('from and to are inclusive UTC dates', async (t) => {
  const workspace = await createWorkspace(stack);
  const day = (offset: number) => new Date(Date.now() - offset * DAY);
  const dateOf = (offset: number) => day(offset).toISOString().slice(0, 10);
  const startOfDay = (offset: number) => new Date(`${dateOf(offset)}T00:00:00.000Z`);
  const endOfDay = (offset: number) => new Date(startOfDay(offset).getTime() + DAY - 1);
  const ids = {
    fiveDaysStart: requestIdAt(startOfDay(5)),
    fourDaysEnd: requestIdAt(endOfDay(4)),
    threeDays: requestIdAt(new Date(startOfDay(3).getTime() + 3600_000)),
    twoDaysStart: requestIdAt(startOfDay(2)),
  };
  await accounts.history.record.mutate({ entries: Object.values(ids).map((id) => record(workspace.workspaceId, id)) });
  const { entries } = await historyOf(workspace, `?from=${dateOf(4)}&to=${dateOf(3)}`);
  t.strictSame(entries.map((entry) => entry.requestId), [ids.threeDays, ids.fourDaysEnd]);
  const single = await historyOf(workspace, `?from=${dateOf(5)}&to=${dateOf(5)}`);
  t.strictSame(single.entries.map((entry) => entry.requestId), [ids.fiveDaysStart]);
});

t.test('entries older than 30 days are not shown and are purged', async (t) => {
  const workspace = await createWorkspace(stack);
  const old = requestIdAt(new Date(Date.now() - 31 * DAY));
  const recent = requestIdAt(new Date(Date.now() - 29 * DAY));
  await accounts.history.record.mutate({ entries: [record(workspace.workspaceId, old), record(workspace.workspaceId, recent)] });
  const { entries } = await historyOf(workspace, `?from=2000-01-01`);
  t.strictSame(entries.filter((entry) => entry.path !== '/requests').map((entry) => entry.requestId), [recent], 'retention applies even before the purge runs');
  const purged = await accounts.maintenance.purge.mutate();
  t.ok(purged.deletedHistory >= 1, 'the purge deleted the old entry');
  const after = await accounts.history.list.query({ workspaceId: workspace.workspaceId, limit: 100, from: '2000-01-01' });
  // The reads of the history above are entries too; only the two written here matter.
  t.strictSame(after.entries.filter((entry) => entry.path !== '/requests').map((entry) => entry.requestId), [recent]);
});

t.test('dates outside the retention window are clamped to it: no 500, no wrong entries', async (t) => {
  const workspace = await createWorkspace(stack);
  const recent = requestIdAt(new Date(Date.now() - 2 * DAY));
  await accounts.history.record.mutate({ entries: [record(workspace.workspaceId, recent)] });
  const farFuture = '9999-12-31';
  const cases: Array<[string, string[]]> = [
    ['?to=0000-01-01', []],
    ['?to=1969-12-31', []],
    ['?from=0000-01-01&to=1970-01-01', []],
    [`?from=${farFuture}`, []],
    [`?to=${farFuture}`, [recent]],
    ['?from=0000-01-01', [recent]],
  ];
  for (const [query, expected] of cases) {
    const response = await request(api.baseUrl, `/requests${query}`, { apiKey: workspace.apiKey });
    t.equal(response.status, 200, `${query} is 200`);
    // The reads of the history are entries too; only the one written here matters.
    const written = response.body?.entries.filter((entry: HistoryEntry) => entry.path !== '/requests');
    t.strictSame(written.map((entry: HistoryEntry) => entry.requestId), expected, `${query}: ${expected.length} entries`);
    t.equal(response.body?.nextCursor, null);
  }
});

t.test('an entry written again takes the newer outcome, but a recorded charge is never undone', async (t) => {
  const workspace = await createWorkspace(stack);
  const requestId = requestIdAt(new Date(Date.now() - 1000));
  const write = (extra: Parameters<typeof record>[2]) => accounts.history.record.mutate({ entries: [record(workspace.workspaceId, requestId, extra)] });
  const entryOf = async () => (await accounts.history.list.query({ workspaceId: workspace.workspaceId, limit: 10 })).entries.find((entry) => entry.requestId === requestId);
  await write({ status: 504, code: 'upstream_timeout', charged: 0, resultCount: null, durationMs: 10_000 });
  t.match(await entryOf(), { status: 504, charged: 0 });
  await write({ status: 200, code: null, charged: 1, resultCount: 60, durationMs: 800 });
  t.match(await entryOf(), { status: 200, code: null, charged: 1, resultCount: 60, durationMs: 800 }, 'a job page tried again and charged: the success is recorded');
  await write({ status: 504, code: 'upstream_timeout', charged: 0, resultCount: null, durationMs: 10_000 });
  t.match(await entryOf(), { status: 200, charged: 1 }, 'a late failure does not undo the charge');
});

t.test('two workspaces never see each other\'s history', async (t) => {
  const a = await createWorkspace(stack);
  const b = await createWorkspace(stack);
  await request(api.baseUrl, '/usage', { apiKey: a.apiKey });
  await waitForEntries(a, 1);
  const ofB = await historyOf(b);
  t.strictSame(ofB.entries, [], 'b sees none of a\'s entries');
  const ofA = await historyOf(a);
  t.ok(ofA.entries.length >= 1);
});

t.test('bad parameters are 400 invalid_request with details', async (t) => {
  const workspace = await createWorkspace(stack);
  const other = await createWorkspace(stack);
  await accounts.history.record.mutate({
    entries: Array.from({ length: 3 }, (_, i) => record(other.workspaceId, requestIdAt(new Date(Date.now() - i * 1000)))),
  });
  const otherPage = await historyOf(other, '?limit=1');
  t.ok(otherPage.nextCursor, 'the other workspace got a cursor');

  const cases: Array<[string, string]> = [
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=abc', 'limit'],
    ['?limit=1.5', 'limit'],
    ['?limit=1&limit=2', 'limit'],
    ['?from=2026-13-01', 'from'],
    ['?to=2026-02-30', 'to'],
    ['?from=yesterday', 'from'],
    ['?from=2026-11-10&to=2026-11-09', 'from'],
    ['?cursor=not-a-cursor', 'cursor'],
    [`?cursor=${Buffer.from('{"v":1}').toString('base64url')}`, 'cursor'],
    [`?cursor=${encodeURIComponent(otherPage.nextCursor!)}`, 'cursor'],
  ];
  for (const [query, path] of cases) {
    const response = await request(api.baseUrl, `/requests${query}`, { apiKey: workspace.apiKey });
    const body = assertError(t, response, 400, 'invalid_request');
    t.ok(body.details?.some((detail) => detail.path === path), `${query}: details name ${path}`);
  }
  const edges = ['?limit=1', '?limit=100', '?from=2026-01-01&to=2026-01-01', '?unknown=ignored'];
  for (const query of edges) {
    t.equal((await request(api.baseUrl, `/requests${query}`, { apiKey: workspace.apiKey })).status, 200, `${query} is accepted`);
  }
});
