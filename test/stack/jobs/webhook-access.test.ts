import t from 'tap';
import type { Delivery } from '@comps/shared/contract/webhook';
import { assertError } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { startTestStack } from '../../helpers/test-stack.js';
import { ALLOWED, deliveriesOf, receiver, register } from '../../helpers/webhook-receiver.js';

// Through Caddy: who may use an endpoint, and which addresses deliveries may go to.

t.test('refused at registration: loopback, private, link-local, metadata, IPv6 loopback, IPv4-mapped, a name resolving to loopback', async (t) => {
  const stack = await startTestStack(t, { env: { WEBHOOK_ALLOW_HTTP: 'true' } });
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  for (const url of ['http://127.0.0.1/', 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://localhost/']) {
    assertError(t, await request(stack.baseUrl, '/v1/webhooks', { method: 'POST', apiKey, body: { url, events: ['job.completed'] } }), 400, 'invalid_webhook_url');
  }
  assertError(t, await request(stack.baseUrl, '/v1/webhooks', { method: 'POST', apiKey, body: { url: 'ftp://example.com/', events: ['job.completed'] } }), 400, 'invalid_webhook_url');
});

t.test("another workspace gets 404 on every webhook route; the plan's number gives 409; an address allowed at registration is refused at delivery", async (t) => {
  // Accounts (registration) allows the receiver's address; the jobs processes (delivery) allow http but no private host.
  const stack = await startTestStack(t, { env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_DISPATCH_INTERVAL_MS: '200' }, serviceEnv: { accounts: ALLOWED } });
  const owner = await createWorkspace(stack, { plan: 'free' });
  const stranger = await createWorkspace(stack, { plan: 'pro' });
  const hooks = await receiver();
  t.teardown(hooks.close);
  const endpoint = await register(stack, owner.apiKey, hooks.url, ['job.completed']);
  assertError(t, await request(stack.baseUrl, '/v1/webhooks', { method: 'POST', apiKey: owner.apiKey, body: { url: hooks.url, events: ['job.failed'] } }), 409, 'webhook_limit');
  const delivery = (await request<Delivery>(stack.baseUrl, `/v1/webhooks/${endpoint.webhookId}/test`, { method: 'POST', apiKey: owner.apiKey })).body;
  const base = `/v1/webhooks/${endpoint.webhookId}`;
  const routes: Array<[string, string, unknown?]> = [
    ['GET', base],
    ['PATCH', base, { description: 'mine' }],
    ['DELETE', base],
    ['POST', `${base}/secret`],
    ['POST', `${base}/test`],
    ['GET', `${base}/deliveries`],
    ['POST', `${base}/deliveries/${delivery.deliveryId}/retry`],
  ];
  for (const [method, path, body] of routes) {
    assertError(t, await request(stack.baseUrl, path, { method, apiKey: stranger.apiKey, ...(body ? { body } : {}) }), 404, 'webhook_not_found');
  }
  t.equal((await request(stack.baseUrl, '/v1/webhooks', { apiKey: stranger.apiKey })).body.webhooks.length, 0);

  const attempted = await eventually('the attempt is refused at delivery', async () => {
    const [made] = await deliveriesOf(stack, owner.apiKey, endpoint.webhookId);
    return made && made.attempts > 0 ? made : undefined;
  }, { timeoutMs: 15_000, intervalMs: 200 });
  t.match(attempted, { deliveryId: delivery.deliveryId, eventType: 'webhook.test', status: 'pending', lastStatusCode: null, lastError: /Refused/ });
  t.equal(hooks.received.length, 0, 'nothing reached the receiver');
});
