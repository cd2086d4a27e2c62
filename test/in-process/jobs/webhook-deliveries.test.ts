import t from 'tap';
import { createServer } from 'node:http';
import { createDb } from '@comps/shared/db/create-db';
import { newEventId, newTaskId } from '@comps/shared/ids';
import type { AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { createLogger } from '@comps/shared/logging/create-logger';
import type { JobsDatabase } from '../../../services/jobs/src/db/database.js';
import type { TaskContext } from '../../../services/jobs/src/tasks/task-runner.js';
import { PinnedAgents } from '@comps/shared/webhooks/pinned-agent';
import { DeliveryHandler } from '../../../services/jobs/src/webhooks/delivery-handler.js';
import { retryDelivery, sendTestDelivery } from '../../../services/jobs/src/webhooks/delivery-service.js';
import { dispatchEvents } from '../../../services/jobs/src/webhooks/dispatch-events.js';
import { prepareTestDatabase, TEST_DATABASE_URL } from '../../helpers/test-env.js';

// In-process: the dispatch of events into deliveries, and single attempts against a local receiver,
// with accounts' webhook procedures faked (their own tests are accounts').
await prepareTestDatabase();
const db = createDb<JobsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 10, isolation: 'read committed' });
t.teardown(() => db.destroy());
const logger = createLogger('webhook-deliveries-test', 'silent');
let workspaces = 0;
const newWorkspace = () => `ws_hooks_${++workspaces}_${Date.now()}`;

const outcomes: Array<{ webhookId: string; outcome: string }> = [];
let signedAs: Record<string, { url: string; status: 'enabled' | 'disabled' } | null> = {};
const subscribed: Record<string, string[]> = {};
const accounts = {
  webhooks: {
    subscribers: { query: async ({ workspaceId, eventType }: { workspaceId: string; eventType: string }) => ({ webhookIds: subscribed[`${workspaceId}|${eventType}`] ?? [] }) },
    sign: {
      mutate: async ({ webhookId, messageId, timestamp }: { webhookId: string; messageId: string; timestamp: number }) => {
        const endpoint = signedAs[webhookId];
        return endpoint ? { workspaceId: 'ws', url: endpoint.url, status: endpoint.status, signature: `v1,sig-of-${messageId}-${timestamp}`, failing: false } : null;
      },
    },
    noteOutcome: {
      mutate: async (input: { webhookId: string; outcome: string }) => {
        outcomes.push(input);
        return { disabledReason: input.outcome === 'gone' ? ('gone' as const) : null };
      },
    },
  },
} as unknown as Pick<AccountsClient, 'webhooks'>;

async function insertEvents(workspaceId: string, events: Array<{ type: string; payload: unknown }>) {
  const now = new Date();
  const rows = events.map((event) => ({ id: newEventId(), type: event.type, workspaceId, subjectId: 'subject', payload: JSON.stringify(event.payload), createdAt: now }));
  await db.insertInto('events').values(rows).execute();
  return rows;
}

t.test('events become one delivery per subscribed endpoint, once, even with two dispatchers at once', async (t) => {
  const workspaceId = newWorkspace();
  subscribed[`${workspaceId}|job.completed`] = ['wh_01JAAAAAAAAAAAAAAAAAAAAAAA', 'wh_01JBBBBBBBBBBBBBBBBBBBBBBB'];
  subscribed[`${workspaceId}|trackedSearch.run.failed`] = ['wh_01JBBBBBBBBBBBBBBBBBBBBBBB'];
  const events = await insertEvents(workspaceId, [
    { type: 'job.ended', payload: { jobId: 'j1', status: 'completed' } },
    { type: 'job.ended', payload: { jobId: 'j2', status: 'failed' } },
    { type: 'trackedSearch.run.failed', payload: { trackedSearchId: 'ts', run: { status: 'failed' } } },
    { type: 'something.else', payload: {} },
  ]);
  const signal = new AbortController().signal;
  const made = await Promise.all([dispatchEvents({ db, accounts, now: () => new Date() }, signal), dispatchEvents({ db, accounts, now: () => new Date() }, signal)]);
  t.equal(made[0] + made[1], 3, 'two for the completed job, one for the failed run, none for the failed job (no subscriber) or the unknown event');
  const deliveries = await db.selectFrom('webhookDeliveries').selectAll().where('workspaceId', '=', workspaceId).orderBy('id').execute();
  t.strictSame(deliveries.map((delivery) => [delivery.eventType, delivery.webhookId, delivery.status]).sort(), [
    ['job.completed', 'wh_01JAAAAAAAAAAAAAAAAAAAAAAA', 'pending'],
    ['job.completed', 'wh_01JBBBBBBBBBBBBBBBBBBBBBBB', 'pending'],
    ['trackedSearch.run.failed', 'wh_01JBBBBBBBBBBBBBBBBBBBBBBB', 'pending'],
  ]);
  const body = JSON.parse(deliveries.find((delivery) => delivery.eventType === 'job.completed')!.body) as Record<string, unknown>;
  t.strictSame(body, { type: 'job.completed', timestamp: events[0]!.createdAt.toISOString(), data: { jobId: 'j1', status: 'completed' } });
  const tasks = await db.selectFrom('tasks').select('taskKey').where('taskKey', 'in', deliveries.map((delivery) => `delivery:${delivery.id}`)).execute();
  t.equal(tasks.length, 3, 'each delivery with its task');
  const undispatched = await db.selectFrom('events').select('id').where('id', 'in', events.map((event) => event.id)).where('dispatchedAt', 'is', null).execute();
  t.equal(undispatched.length, 0, 'every event marked, the unsubscribed ones too');
  t.equal(await dispatchEvents({ db, accounts, now: () => new Date() }, signal), 0, 'nothing twice');
});

t.test('attempts: 2xx succeeds, 500 waits for the schedule, 503 with a longer Retry-After waits for that, 410 disables, a deleted endpoint ends it', async (t) => {
  const answers: Array<{ status: number; headers?: Record<string, string> }> = [];
  const seen: Array<Record<string, string | string[] | undefined>> = [];
  const server = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => {
      seen.push(incoming.headers);
      const answer = answers.shift() ?? { status: 200 };
      outgoing.writeHead(answer.status, answer.headers ?? {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  const workspaceId = newWorkspace();
  const webhookId = 'wh_01JCCCCCCCCCCCCCCCCCCCCCCC';
  signedAs = { [webhookId]: { url, status: 'enabled' } };
  let clock = new Date('2026-11-25T10:00:00.000Z');
  const agents = new PinnedAgents();
  t.teardown(() => agents.close());
  const handler = new DeliveryHandler({
    db, accounts, policy: { allowHttp: true, allowedHosts: ['127.0.0.1'] }, resolve: async () => [{ address: '127.0.0.1', family: 4 }], agents,
    retryDelaysMs: [5_000, 300_000], logger, now: () => clock, random: () => 0,
  }, 4);
  const deps = { db, now: () => clock, wake: () => undefined };
  const context = { task: { id: newTaskId() }, owner: 'test', slots: 1, giveBack: () => undefined, signal: new AbortController().signal } as unknown as TaskContext;
  const attempt = async (deliveryId: string) => handler.run({ deliveryId }, context);
  const row = async (deliveryId: string) => db.selectFrom('webhookDeliveries').selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow();

  const delivery = await sendTestDelivery(deps, { workspaceId, webhookId });
  answers.push({ status: 500 });
  t.strictSame(await attempt(delivery.deliveryId), { next: 'later', runAt: new Date(clock.getTime() + 5_000) }, '500: the first retry 5 s on');
  t.match(await row(delivery.deliveryId), { status: 'pending', attempts: 1, lastStatusCode: 500 });
  t.match(seen[0], { 'webhook-id': delivery.deliveryId, 'webhook-timestamp': String(clock.getTime() / 1000), 'content-type': 'application/json' });
  clock = new Date(clock.getTime() + 5_000);
  answers.push({ status: 503, headers: { 'retry-after': '600' } });
  t.strictSame(await attempt(delivery.deliveryId), { next: 'later', runAt: new Date(clock.getTime() + 600_000) }, 'a Retry-After longer than the schedule wins');
  clock = new Date(clock.getTime() + 600_000);
  answers.push({ status: 500 });
  t.strictSame(await attempt(delivery.deliveryId), { next: 'done' }, 'the schedule spent');
  t.match(await row(delivery.deliveryId), { status: 'failed', attempts: 3, lastStatusCode: 500, nextAttemptAt: null });
  t.equal(new Set(seen.map((headers) => headers['webhook-id'])).size, 1, 'one webhook-id for every attempt');

  const retried = await retryDelivery(deps, { workspaceId, webhookId, deliveryId: delivery.deliveryId });
  t.match(retried, { status: 'pending', attempts: 3 });
  t.strictSame(await attempt(delivery.deliveryId), { next: 'done' }, 'a manual retry, answered 200');
  t.match(await row(delivery.deliveryId), { status: 'succeeded', attempts: 4, lastStatusCode: 200, lastError: null });

  const gone = await sendTestDelivery(deps, { workspaceId, webhookId });
  answers.push({ status: 410 });
  t.strictSame(await attempt(gone.deliveryId), { next: 'done' });
  t.match(await row(gone.deliveryId), { status: 'failed', lastStatusCode: 410, lastError: /disabled \(gone\)/ });
  t.match(outcomes.at(-1), { webhookId, outcome: 'gone' });

  const orphan = await sendTestDelivery(deps, { workspaceId, webhookId });
  signedAs = {};
  const before = seen.length;
  t.strictSame(await attempt(orphan.deliveryId), { next: 'done' });
  t.match(await row(orphan.deliveryId), { status: 'failed', attempts: 0, lastError: 'The endpoint was deleted' });
  t.equal(seen.length, before, 'nothing sent');
  t.equal(await retryDelivery(deps, { workspaceId: 'ws_other', webhookId, deliveryId: orphan.deliveryId }).then(() => 'none', (error: { code?: string }) => error.code), 'delivery_not_found', "another workspace's delivery");
});
