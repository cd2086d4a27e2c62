import t from 'tap';
import { assertError } from '../../helpers/contract-assertions.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

// This file presents many bad keys on purpose; the per-address throttle has a test of its own.
const stack = await startTestStack(t, { env: { AUTH_FAILURES_PER_MINUTE: '100000' } });

// Every authenticated endpoint that exists today; later issues add theirs to this list.
const AUTHENTICATED: Array<[string, string]> = [
  ['GET', '/usage'],
  ['GET', '/requests'],
  ['GET', '/v1/scrape?keyword=a'],
  ['GET', '/public/scrape?keyword=a'],
  ['GET', '/partner/scrape-market?keyword=a'],
  ['GET', '/v1/scrape/category?categoryId=1'],
  ['GET', '/v1/item/123456789012'],
  ['POST', '/v1/scrape/max'],
  ['GET', '/v1/scrape/max'],
  ['GET', '/v1/scrape/max/results/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/v1/scrape/max/00000000-0000-4000-8000-000000000000'],
  ['GET', '/v1/scrape/max/00000000-0000-4000-8000-000000000000/download.csv'],
  ['POST', '/v1/tracked-searches'],
  ['GET', '/v1/tracked-searches'],
  ...['', '/runs', '/sales', '/sales.csv', '/stats'].map((tail): [string, string] => ['GET', `/v1/tracked-searches/ts_${'0'.repeat(26)}${tail}`]),
  ['PATCH', `/v1/tracked-searches/ts_${'0'.repeat(26)}`],
  ['DELETE', `/v1/tracked-searches/ts_${'0'.repeat(26)}`],
  ['POST', `/v1/tracked-searches/ts_${'0'.repeat(26)}/runs`],
  ['POST', '/v1/webhooks'],
  ['GET', '/v1/webhooks'],
  ...['', '/deliveries'].map((tail): [string, string] => ['GET', `/v1/webhooks/wh_${'0'.repeat(26)}${tail}`]),
  ['PATCH', `/v1/webhooks/wh_${'0'.repeat(26)}`],
  ['DELETE', `/v1/webhooks/wh_${'0'.repeat(26)}`],
  ...['/secret', '/test', `/deliveries/msg_${'0'.repeat(26)}/retry`].map((tail): [string, string] => ['POST', `/v1/webhooks/wh_${'0'.repeat(26)}${tail}`]),
  ['POST', '/api/bulk-search'],
];

const workspace = await createWorkspace(stack);
const revoked = await createWorkspace(stack);
await accountsClient(stack).apiKeys.revoke.mutate({ keyOrId: revoked.apiKey });

const CASES: Array<[string, Record<string, string>]> = [
  ['no Authorization header', {}],
  ['a non-bearer scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
  ['an empty bearer', { authorization: 'Bearer ' }],
  ['a malformed key', { authorization: 'Bearer sk_short' }],
  ['a key of the wrong kind', { authorization: `Bearer pk_${'a'.repeat(40)}` }],
  ['an unknown key', { authorization: `Bearer sk_${'A'.repeat(40)}` }],
  ['a revoked key', { authorization: `Bearer ${revoked.apiKey}` }],
];

for (const [method, path] of AUTHENTICATED) {
  t.test(`${method} ${path} refuses callers without a valid key`, async (t) => {
    for (const [label, headers] of CASES) {
      const response = await request(stack.baseUrl, path, { method, headers });
      t.test(label, async (t) => {
        assertError(t, response, 401, 'unauthorized');
        t.equal(response.headers.get('x-quota-limit'), null, 'no quota figures for an unknown caller');
      });
    }
    const ok = await request(stack.baseUrl, path, { method, apiKey: workspace.apiKey });
    t.ok(ok.status !== 401 && ok.status < 500, `and accepts a valid key (${ok.status})`);
  });
}

t.test('a revoked key is refused within 5 seconds', async (t) => {
  const { apiKey } = await createWorkspace(stack);
  t.equal((await request(stack.baseUrl, '/usage', { apiKey })).status, 200, 'works, and is now cached');
  const revokedAt = Date.now();
  await accountsClient(stack).apiKeys.revoke.mutate({ keyOrId: apiKey });
  await eventually('the revoked key is refused', async () => ((await request(stack.baseUrl, '/usage', { apiKey })).status === 401 ? true : undefined), { timeoutMs: 5000, intervalMs: 100 });
  const elapsed = Date.now() - revokedAt;
  t.ok(elapsed < 5000, `refused after ${elapsed} ms`);
});

t.test('a second key of a workspace works, and revoking one leaves the other', async (t) => {
  const client = accountsClient(stack);
  const { workspaceId, apiKey } = await createWorkspace(stack);
  const second = await client.apiKeys.create.mutate({ workspaceId, name: 'ci' });
  t.match(second.key, /^sk_[0-9A-Za-z]{40}$/);
  await client.apiKeys.revoke.mutate({ keyOrId: second.apiKeyId });
  await eventually('the second, revoked key is refused', async () => ((await request(stack.baseUrl, '/usage', { apiKey: second.key })).status === 401 ? true : undefined));
  t.equal((await request(stack.baseUrl, '/usage', { apiKey })).status, 200);
});

t.test('keys never reach the logs', async (t) => {
  const { readFile } = await import('node:fs/promises');
  await request(stack.baseUrl, '/usage', { apiKey: workspace.apiKey });
  const logs = await readFile(stack.logFile, 'utf8');
  t.notOk(logs.includes(workspace.apiKey), 'the key is not in any log line');
  t.notOk(logs.includes(revoked.apiKey), 'nor a revoked one');
});
