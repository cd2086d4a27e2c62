import t from 'tap';
import { Webhook } from 'standardwebhooks';
import type { Delivery, Webhook as Endpoint, WebhookWithSecret } from '@comps/shared/contract/webhook';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request } from '../../helpers/http-client.js';
import { createJob, waitForJob } from '../../helpers/jobs.js';
import { startTestStack } from '../../helpers/test-stack.js';
import { ALLOWED, deliveriesOf, receiver, register } from '../../helpers/webhook-receiver.js';

// Through Caddy, with a receiver on 127.0.0.1 that the operator's settings allow. One stack for the file: the retry
// schedule shortened (the contract's waits 5 s, then 5 min: the attempts are what is tested), a short lease, so
// that a killed jobs process's deliveries are taken over soon, and room for five attempts at once (four by default:
// the fifth of five that hang would start only when the first timed out, 15 s later).
const stack = await startTestStack(t, {
  env: { ...ALLOWED, MARKET_SIM_PAGE_STYLE: 'lean', WEBHOOK_DISPATCH_INTERVAL_MS: '200', WEBHOOK_RETRY_DELAYS_MS: '300,300,300,300,300,300,300' },
  serviceEnv: { jobs: { JOBS_LEASE_MS: '1500', WEBHOOK_ATTEMPTS_IN_FLIGHT: '5' } },
});

t.test("a job's end arrives signed; 500 twice then 200: the same webhook-id three times; 410 disables; a rotated secret signs twice; a run's end arrives", async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  const hooks = await receiver((_, index) => (index < 2 ? 500 : 200));
  t.teardown(hooks.close);
  const endpoint = await register(stack, apiKey, hooks.url, ['job.completed', 'trackedSearch.run.completed']);
  t.match(endpoint, { url: hooks.url, events: ['job.completed', 'trackedSearch.run.completed'], status: 'enabled', disabledReason: null });
  t.match(endpoint.secret, /^whsec_/);
  t.notOk('secret' in (await request(stack.baseUrl, `/v1/webhooks/${endpoint.webhookId}`, { apiKey })).body, 'the secret is shown once');

  const { body: job } = await createJob(stack, apiKey, { keyword: 'brass lamp', maxPages: 1, count: 10 });
  await waitForJob(stack, apiKey, job.jobId);
  const delivered = await eventually('three attempts reached the receiver', async () => (hooks.received.length >= 3 ? hooks.received.slice(0, 3) : undefined), { timeoutMs: 60_000, intervalMs: 200 });
  const ids = delivered.map((delivery) => delivery.headers['webhook-id']);
  t.equal(new Set(ids).size, 1, 'the same webhook-id on every attempt');
  const verifier = new Webhook(endpoint.secret);
  const payload = verifier.verify(delivered[2]!.body, delivered[2]!.headers as Record<string, string>) as { type: string; data: { jobId: string; status: string } };
  t.match(payload, { type: 'job.completed', data: { jobId: job.jobId, status: 'completed' } }, 'verified by the Standard Webhooks library');
  const log = await eventually('the delivery succeeded', async () => {
    const deliveries = await deliveriesOf(stack, apiKey, endpoint.webhookId);
    return deliveries[0]?.status === 'succeeded' ? deliveries : undefined;
  }, { timeoutMs: 10_000 });
  t.match(log[0], { deliveryId: ids[0], eventType: 'job.completed', status: 'succeeded', attempts: 3, lastStatusCode: 200 });

  const rotated = await request<{ secret: string }>(stack.baseUrl, `/v1/webhooks/${endpoint.webhookId}/secret`, { method: 'POST', apiKey });
  t.equal(rotated.status, 200);
  const before = hooks.received.length;
  const tracked = await request<{ trackedSearchId: string }>(stack.baseUrl, '/v1/tracked-searches', { method: 'POST', apiKey, body: { keyword: 'brass lamp', maxPagesPerRun: 1 } });
  t.equal(tracked.status, 201);
  const runEnded = await eventually("the run's end arrives", async () => hooks.received.slice(before).find((delivery) => delivery.body.includes('trackedSearch.run.completed')), { timeoutMs: 30_000, intervalMs: 200 });
  const signatures = String(runEnded.headers['webhook-signature']).split(' ');
  t.equal(signatures.length, 2, 'both secrets sign during the overlap');
  const asOld = new Webhook(endpoint.secret).verify(runEnded.body, runEnded.headers as Record<string, string>) as { data: { trackedSearchId: string; run: { status: string } } };
  new Webhook(rotated.body.secret).verify(runEnded.body, runEnded.headers as Record<string, string>);
  t.match(asOld, { data: { trackedSearchId: tracked.body.trackedSearchId, run: { status: 'completed' } } }, 'each secret verifies alone');

  const gone = await receiver(() => 410);
  t.teardown(gone.close);
  const goneEndpoint = await register(stack, apiKey, gone.url, ['job.completed']);
  t.equal((await request(stack.baseUrl, `/v1/webhooks/${goneEndpoint.webhookId}/test`, { method: 'POST', apiKey })).status, 202);
  const disabled = await eventually('410 disables the endpoint', async () => {
    const current = (await request<Endpoint>(stack.baseUrl, `/v1/webhooks/${goneEndpoint.webhookId}`, { apiKey })).body;
    return current.status === 'disabled' ? current : undefined;
  }, { timeoutMs: 15_000, intervalMs: 200 });
  t.equal(disabled.disabledReason, 'gone');
  t.equal(gone.received.length, 1, 'no attempt after 410');
});

t.test('SIGKILL of the jobs process while deliveries are pending: every one is delivered once it is back, with its webhook-id', async (t) => {
  const { apiKey } = await createWorkspace(stack, { plan: 'pro' });
  let answering = false;
  const hooks = await receiver(() => (answering ? 200 : 'hang'));
  t.teardown(hooks.close);
  const endpoint = await register(stack, apiKey, hooks.url, ['job.completed']);
  const made: string[] = [];
  for (let index = 0; index < 5; index += 1) made.push((await request<Delivery>(stack.baseUrl, `/v1/webhooks/${endpoint.webhookId}/test`, { method: 'POST', apiKey })).body.deliveryId);
  await eventually('the attempts are in flight', async () => (hooks.received.length >= 5 ? true : undefined), { timeoutMs: 15_000, intervalMs: 100 });
  await stack.processes.jobs.kill();
  answering = true;
  await stack.processes.jobs.start();
  const all = await eventually('every delivery succeeded', async () => {
    const deliveries = await deliveriesOf(stack, apiKey, endpoint.webhookId);
    return deliveries.length === 5 && deliveries.every((delivery) => delivery.status === 'succeeded') ? deliveries : undefined;
  }, { timeoutMs: 30_000, intervalMs: 200 });
  t.strictSame(all.map((delivery) => delivery.deliveryId).sort(), [...made].sort());
  const arrivedIds = new Set(hooks.received.map((delivery) => delivery.headers['webhook-id']));
  t.ok(made.every((id) => arrivedIds.has(id)), 'each arrived, under its own webhook-id (at least once)');
});

