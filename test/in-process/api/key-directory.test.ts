import t from 'tap';
import { randomBytes } from 'node:crypto';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// In-process: an api whose every question to accounts about a key is counted.
const stack = await startInProcessStack(t);
const real = accountsClient(stack);
let lookups = 0;
const counting: AccountsClient = {
  ...real,
  apiKeys: {
    ...real.apiKeys,
    authenticate: {
      query: (...args: Parameters<AccountsClient['apiKeys']['authenticate']['query']>) => {
        lookups += 1;
        return real.apiKeys.authenticate.query(...args);
      },
    },
  },
};
const api = await stack.startApi({ overrides: { accounts: counting } });
const unknownKey = () => `sk_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x').slice(0, 40)}`;

t.test('100 unknown keys from one address, then a valid key it never used: 200, and accounts was never asked about the unknown ones', async (t) => {
  const { apiKey } = await createWorkspace(stack);
  const before = lookups;
  const statuses: number[] = [];
  // One address of its own (the api trusts the proxy's X-Forwarded-For), so that the other tests' are not slowed.
  const from = { 'x-forwarded-for': '203.0.113.7' };
  for (let i = 0; i < 100; i += 1) statuses.push((await request(api.baseUrl, '/usage', { apiKey: unknownKey(), headers: from })).status);
  t.strictSame([statuses.filter((status) => status === 401).length, statuses.filter((status) => status === 429).length], [30, 70], 'the sender of unknown keys is slowed: 30 refused as unknown, then 429');
  t.equal(lookups, before, 'no unknown key reached accounts');
  const valid = await request(api.baseUrl, '/usage', { apiKey, headers: from });
  t.equal(valid.status, 200, 'the valid key from the same address is answered');
  t.equal(lookups, before + 1, 'looked up once, for its principal');
});

t.test('a key made moments ago is accepted at once; a revoked one is refused within 5 s', async (t) => {
  const { workspaceId } = await createWorkspace(stack);
  const made = await real.apiKeys.create.mutate({ workspaceId, name: 'fresh' });
  t.equal((await request(api.baseUrl, '/usage', { apiKey: made.key })).status, 200, 'made, then used at once');
  const revokedAt = Date.now();
  await real.apiKeys.revoke.mutate({ keyOrId: made.apiKeyId });
  await eventually('the revoked key is refused', async () => ((await request(api.baseUrl, '/usage', { apiKey: made.key })).status === 401 ? true : undefined), { intervalMs: 100 });
  t.ok(Date.now() - revokedAt < 5000, `refused after ${Date.now() - revokedAt} ms`);
  const afterRevocation = lookups;
  t.equal((await request(api.baseUrl, '/usage', { apiKey: made.key })).status, 401);
  t.equal(lookups, afterRevocation, 'once the revocation is announced, accounts is not asked about the key again');
});
