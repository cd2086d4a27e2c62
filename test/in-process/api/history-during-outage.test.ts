import t from 'tap';
import { AppError } from '@comps/shared/errors/app-error';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import { createLogger } from '@comps/shared/logging/create-logger';
import { HistoryAwaitingCaller } from '../../../services/api/src/history/history-awaiting-caller.js';
import { assertError } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// In-process: an api whose key lookups fail while `down` is set, as when accounts or its database is unavailable.
const stack = await startInProcessStack(t);
const real = accountsClient(stack);
let down = false;
const flaky: AccountsClient = {
  ...real,
  apiKeys: {
    ...real.apiKeys,
    authenticate: {
      query: (...args: Parameters<AccountsClient['apiKeys']['authenticate']['query']>) => {
        if (down) return Promise.reject(new AppError('service_unavailable', 'accounts is unavailable'));
        return real.apiKeys.authenticate.query(...args);
      },
    },
  },
};
const api = await stack.startApi({ overrides: { accounts: flaky } });

t.test('a request whose key could not be looked up (503) is in the history once accounts answers again', async (t) => {
  const { apiKey } = await createWorkspace(stack);
  // Made moments ago: the directory knows it, so its lookup is what fails.
  down = true;
  assertError(t, await request(api.baseUrl, '/usage', { apiKey }), 503, 'service_unavailable');
  assertError(t, await request(api.baseUrl, '/requests?limit=5', { apiKey }), 503, 'service_unavailable');
  down = false;
  const failures = await eventually('both failures reach the history', async () => {
    const entries: Array<{ path: string; status: number; code: string | null; charged: number }> = (await request(api.baseUrl, '/requests?limit=20', { apiKey })).body?.entries ?? [];
    const found = entries.filter((entry) => entry.status === 503);
    return found.length === 2 ? found : undefined;
  }, { timeoutMs: 15_000, intervalMs: 200 });
  t.strictSame(
    failures.map((entry) => [entry.path, entry.status, entry.code, entry.charged]),
    [['/requests', 503, 'service_unavailable', 0], ['/usage', 503, 'service_unavailable', 0]],
    'newest first, with their status and code, charged nothing',
  );
});

t.test('the entries wait per key: an unknown key gets none, a lookup that fails is tried again, close gives what it can', async (t) => {
  const principal = { workspaceId: 'ws_known', apiKeyId: 'key_known', apiKeyPrefix: 'sk_abcd' };
  const answers = new Map<string, () => Promise<unknown>>([
    ['a'.repeat(64), () => Promise.resolve(principal)],
    ['b'.repeat(64), () => Promise.resolve(null)],
  ]);
  let failing = true;
  answers.set('c'.repeat(64), () => (failing ? Promise.reject(new AppError('service_unavailable', 'down')) : Promise.resolve({ ...principal, workspaceId: 'ws_late' })));
  const recorded: HistoryRecord[] = [];
  const waiting = new HistoryAwaitingCaller(
    { apiKeys: { authenticate: { query: ({ keyHash }: { keyHash: string }) => answers.get(keyHash)!() } } } as unknown as Pick<AccountsClient, 'apiKeys'>,
    { add: (record) => recorded.push(record) },
    createLogger('history-test', 'silent'),
    60_000,
  );
  const entry = (requestId: string) => ({ requestId, method: 'GET', path: '/usage', status: 503, code: 'service_unavailable' as const, charged: 0 as const, durationMs: 3, marketSite: null, hasKeyword: false, resultCount: null, jobId: null });
  waiting.add('c'.repeat(64), entry('req_3'));
  waiting.add('a'.repeat(64), entry('req_1'));
  waiting.add('b'.repeat(64), entry('req_2'));
  waiting.add('a'.repeat(64), entry('req_4'));
  t.equal(waiting.pending, 4);
  await t.rejects(waiting.resolve(), { code: 'service_unavailable' }, 'the first key cannot be looked up yet');
  t.equal(waiting.pending, 4, 'nothing was lost');
  failing = false;
  await waiting.close();
  t.strictSame(
    recorded.map((record) => [record.requestId, record.workspaceId, record.apiKeyId, record.apiKeyPrefix]),
    [['req_3', 'ws_late', 'key_known', 'sk_abcd'], ['req_1', 'ws_known', 'key_known', 'sk_abcd'], ['req_4', 'ws_known', 'key_known', 'sk_abcd']],
    "each known key's entries with its workspace; the unknown key's entry dropped",
  );
  t.equal(waiting.pending, 0);
});
