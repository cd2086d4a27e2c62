import t from 'tap';
import { accountsClient, createWorkspace } from '../helpers/accounts-client.js';
import { request } from '../helpers/http-client.js';
import { startTestStack } from '../helpers/test-stack.js';

// A long flush interval: entries are still buffered when SIGTERM arrives, and must not be lost.
const stack = await startTestStack(t, { serviceEnv: { api: { HISTORY_FLUSH_INTERVAL_MS: '60000' } } });

t.test('on SIGTERM every service exits 0, and the api first delivers buffered history', async (t) => {
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const ids: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const response = await request(stack.baseUrl, '/usage', { apiKey });
    ids.push(response.headers.get('x-request-id')!);
  }
  const started = Date.now();
  t.equal(await stack.processes.api.stop(), 0, 'api exits 0');
  t.ok(Date.now() - started < 5000, 'promptly');
  const history = await accountsClient(stack).history.list.query({ workspaceId, limit: 100 });
  t.strictSame(history.entries.map((entry) => entry.requestId).sort(), [...ids].sort(), 'all five entries were written');
  t.equal(await stack.processes.jobs.stop(), 0, 'jobs exits 0');
  t.equal(await stack.processes.accounts.stop(), 0, 'accounts exits 0');
});
