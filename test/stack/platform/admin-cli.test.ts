import t from 'tap';
import { runAdmin } from '../../helpers/admin-cli.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';

const stack = await startTestStack(t);

t.test('workspace create prints the workspace and a working key', async (t) => {
  const result = await runAdmin(stack, ['workspace', 'create', '--name', 'Acme Resale']);
  t.equal(result.code, 0, result.stderr);
  const created = JSON.parse(result.stdout);
  t.strictSame(Object.keys(created).sort(), ['apiKey', 'workspaceId']);
  t.match(created.workspaceId, /^ws_[0-9A-Z]{26}$/);
  t.match(created.apiKey, /^sk_[0-9A-Za-z]{40}$/);
  const usage = await request(stack.baseUrl, '/usage', { apiKey: created.apiKey });
  t.equal(usage.status, 200);
  t.equal(usage.body.plan.id, 'free', 'free by default');
});

t.test('workspace create --plan and workspace limits', async (t) => {
  const created = JSON.parse((await runAdmin(stack, ['workspace', 'create', '--name', 'Pro shop', '--plan', 'pro'])).stdout);
  const limits = await runAdmin(stack, ['workspace', 'limits', '--workspace', created.workspaceId, '--quota', '250', '--rate', '7', '--concurrency', '3']);
  t.equal(limits.code, 0, limits.stderr);
  t.match(JSON.parse(limits.stdout), { workspaceId: created.workspaceId, plan: { id: 'pro', monthlyQuota: 250, rateLimit: { requests: 7 }, concurrency: 3 } });
  const usage = await eventually('the api sees the new quota', async () => {
    const response = await request(stack.baseUrl, '/usage', { apiKey: created.apiKey });
    return response.body.plan.monthlyQuota === 250 ? response : undefined;
  });
  t.equal(usage.body.plan.concurrency, 3);
  const reset = JSON.parse((await runAdmin(stack, ['workspace', 'limits', '--workspace', created.workspaceId, '--quota', 'plan'])).stdout);
  t.equal(reset.plan.monthlyQuota, 100000, '"plan" goes back to the plan\'s value');
});

t.test('workspace limits sets and clears tracked searches and webhook endpoints', async (t) => {
  const created = JSON.parse((await runAdmin(stack, ['workspace', 'create', '--name', 'Tracker', '--plan', 'starter'])).stdout);
  const limits = await runAdmin(stack, ['workspace', 'limits', '--workspace', created.workspaceId, '--tracked-searches', '25', '--webhook-endpoints', '0']);
  t.equal(limits.code, 0, limits.stderr);
  t.match(JSON.parse(limits.stdout), { workspaceId: created.workspaceId, plan: { id: 'starter', trackedSearches: 25, webhookEndpoints: 0, monthlyQuota: 10000 } });
  const usage = await eventually('the api sees the new limits', async () => {
    const response = await request(stack.baseUrl, '/usage', { apiKey: created.apiKey });
    return response.body.plan.trackedSearches === 25 ? response : undefined;
  });
  t.equal(usage.body.plan.webhookEndpoints, 0);
  const reset = await runAdmin(stack, ['workspace', 'limits', '--workspace', created.workspaceId, '--tracked-searches', 'plan', '--webhook-endpoints', 'plan']);
  t.equal(reset.code, 0, reset.stderr);
  const { plan } = JSON.parse(reset.stdout);
  t.strictSame([plan.trackedSearches, plan.webhookEndpoints], [10, 5], '"plan" goes back to the plan\'s values');
});

t.test('key create and key revoke', async (t) => {
  const created = JSON.parse((await runAdmin(stack, ['workspace', 'create', '--name', 'Keys', '--plan', 'pro'])).stdout);
  const second = await runAdmin(stack, ['key', 'create', '--workspace', created.workspaceId, '--name', 'backend']);
  t.equal(second.code, 0, second.stderr);
  const key = JSON.parse(second.stdout);
  t.match(key, { apiKeyId: /^key_/, apiKey: /^sk_/, prefix: /^sk_[0-9A-Za-z]{6}$/ });
  t.equal((await request(stack.baseUrl, '/usage', { apiKey: key.apiKey })).status, 200);
  const revoked = await runAdmin(stack, ['key', 'revoke', '--key', key.apiKey]);
  t.equal(revoked.code, 0, revoked.stderr);
  t.strictSame(JSON.parse(revoked.stdout), { revoked: true, apiKeyId: key.apiKeyId });
  await eventually('the revoked key is refused', async () => ((await request(stack.baseUrl, '/usage', { apiKey: key.apiKey })).status === 401 ? true : undefined));
  t.equal((await request(stack.baseUrl, '/usage', { apiKey: created.apiKey })).status, 200, 'the other key still works');
  const again = await runAdmin(stack, ['key', 'revoke', '--key', key.apiKey]);
  t.equal(again.code, 1, 'revoking twice is an error');
  t.match(again.stderr, /No active API key/);
});

t.test('bad arguments print the usage and exit non-zero', async (t) => {
  const cases = [
    [],
    ['workspace'],
    ['workspace', 'delete'],
    ['workspace', 'create'],
    ['workspace', 'create', '--name'],
    ['workspace', 'create', '--name', 'x', '--plan', 'gold'],
    ['workspace', 'create', '--name', 'x', '--colour', 'red'],
    ['workspace', 'create', '--name', 'x', 'extra'],
    ['workspace', 'limits', '--workspace', 'ws_x'],
    ['workspace', 'limits', '--workspace', 'ws_x', '--quota', '-1'],
    ['workspace', 'limits', '--workspace', 'ws_x', '--rate', '0'],
    ['workspace', 'limits', '--workspace', 'ws_x', '--concurrency', 'many'],
    ['workspace', 'limits', '--workspace', 'ws_x', '--tracked-searches', '-1'],
    ['workspace', 'limits', '--workspace', 'ws_x', '--webhook-endpoints', 'all'],
    ['key', 'create'],
    ['key', 'revoke'],
  ];
  // Run side by side (each is a process of its own, mostly starting up), checked in order.
  const results = await Promise.all(cases.map((args) => runAdmin(stack, args)));
  for (const [index, args] of cases.entries()) {
    const result = results[index]!;
    t.equal(result.code, 2, `${args.join(' ') || '(nothing)'} exits 2`);
    t.match(result.stderr, /usage: npm run --silent admin/, 'and prints the usage');
    t.equal(result.stdout, '', 'and nothing on stdout');
  }
  const unknown = await runAdmin(stack, ['key', 'create', '--workspace', 'ws_01NOSUCHWORKSPACE000000000']);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /Unknown workspace/);
});

t.test('with the accounts service unreachable, or another internal token, it says what is wrong', async (t) => {
  const down = await runAdmin({ accountsInternalUrl: 'http://127.0.0.1:9', internalToken: stack.internalToken }, ['workspace', 'create', '--name', 'x']);
  t.equal(down.code, 1);
  t.match(down.stderr, /is the stack running\? npm start/);
  const wrong = await runAdmin({ accountsInternalUrl: stack.accountsInternalUrl, internalToken: 'x'.repeat(40) }, ['workspace', 'create', '--name', 'x']);
  t.equal(wrong.code, 1);
  t.match(wrong.stderr, /refused the internal token/);
});
