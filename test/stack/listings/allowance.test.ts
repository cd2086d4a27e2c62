import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@redis/client';
import { createDb } from '@comps/shared/db/create-db';
import { newRequestId } from '@comps/shared/ids';
import type { AccountsDatabase } from '../../../services/accounts/src/db/database.js';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually, request, type HttpResponse } from '../../helpers/http-client.js';
import { historyOf } from '../../helpers/usage-of.js';
import { startTestStack } from '../../helpers/test-stack.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../helpers/test-env.js';
import { chargedRequests } from '../../helpers/charged-requests.js';

// An api killed with SIGKILL while it holds a quota allowance, with successes answered but not yet
// settled and calls in flight. Settlers batch every 8 s here, so that the answered charges wait in
// the outbox; an allowance is leased for 15 s (longer than that, as by default it is longer than
// the outbox's takeover of a dead process's charges) and renewed every second while used; the
// sweep that frees lapsed allowances runs every half second. Blocks of 40 units: the calls below
// leave more than half, so no top-up is on its way when the api dies (one would be held too).
const SETTLE_EVERY_MS = 8000;
const ALLOWANCE_LEASE_MS = 15_000;
const stack = await startTestStack(t, {
  env: { SETTLEMENT_BATCH_INTERVAL_MS: String(SETTLE_EVERY_MS), ALLOWANCE_BLOCK_UNITS: '40', ALLOWANCE_LEASE_MS: String(ALLOWANCE_LEASE_MS), ALLOWANCE_IDLE_MS: '60000' },
  serviceEnv: { jobs: { QUOTA_SWEEP_INTERVAL_MS: '500' } },
});
const accounts = accountsClient(stack);
const redis = await createClient({ url: TEST_REDIS_URL }).connect();
const db = createDb<AccountsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 2 });
t.teardown(async () => {
  redis.destroy();
  await db.destroy();
});

const stream = `${stack.redisKeyPrefix}settlements`;
const search = (base: string, apiKey: string, keyword: string) => request(base, `/v1/scrape?keyword=${encodeURIComponent(keyword)}&count=5`, { apiKey });

/**
 * Puts every settler to sleep for its batch interval, all at about the same time: each settler that
 * reads an entry settles it and then waits. A settler still asleep from earlier work (the burst's
 * charges) would wake at any moment, so first every settler is seen awake (reading, its idle time
 * under a second, as its blocking reads of half a second keep it); then entries are fed one at a
 * time, for request ids without a reservation (settled as unknown, nothing charged), until every
 * consumer of the group has been quiet for a while: each then sleeps for most of the interval yet.
 */
async function putSettlersToSleep(workspaceId: string, settlers: number): Promise<void> {
  const consumers = async () => (await redis.xInfoConsumers(stream, 'settlers').catch(() => [])).map((consumer) => Number(consumer.idle));
  await eventually(
    'every settler awake',
    async () => {
      const idle = await consumers();
      return idle.length >= settlers && idle.every((ms) => ms < 1000) ? true : undefined;
    },
    { timeoutMs: SETTLE_EVERY_MS + 5000, intervalMs: 100 },
  );
  for (let fed = 0; fed < 40; fed += 1) {
    const idle = await consumers();
    if (idle.length >= settlers && idle.every((ms) => ms > 1500)) return;
    await redis.xAdd(stream, '*', { r: newRequestId(), w: workspaceId });
    await sleep(150);
  }
  throw new Error('the settlers did not all go to sleep');
}

t.test('an api killed while it holds an allowance: every answered success charged once, nothing charged twice, its units free once the lease runs out', async (t) => {
  const doomed = await stack.startExtraApi({ AUTH_CACHE_TTL_MS: '4000' });
  const { workspaceId, apiKey } = await createWorkspace(stack, { quota: 10_000, concurrency: 50, rate: 10_000 });

  // A burst makes the workspace busy: the doomed api leases an allowance for it and renews it while used.
  const burst = await Promise.all(Array.from({ length: 6 }, (_, index) => search(doomed.url, apiKey, `lamp ${index}`)));
  t.strictSame(burst.map((response) => response.status), Array(6).fill(200));
  const allowanceKey = `${stack.redisKeyPrefix}allowance:${workspaceId}`;
  const allowanceId = await eventually('an allowance is leased', async () => (await redis.hGet(allowanceKey, 'id')) ?? undefined);

  // Every settler (the two apis and jobs) settles something, then waits: charges answered now stay in the outbox.
  await putSettlersToSleep(workspaceId, 3);
  // At once, well within the settlers' sleep (one by one, on a loaded machine, they outlasted it and one was settled).
  const answered: HttpResponse[] = await Promise.all(Array.from({ length: 8 }, (_, index) => search(doomed.url, apiKey, `desk ${index}`)));
  t.strictSame(answered.map((response) => response.status), Array(8).fill(200), 'eight successes answered from the allowance');
  const waiting = (await redis.xRange(stream, '-', '+')) ?? [];
  const unsettled = waiting.filter((entry) => entry.message.a === allowanceId && answered.some((response) => response.headers.get('x-request-id') === entry.message.r));
  // Most often all eight; a settler whose sleep ended meanwhile settles some (charged once all the same, as checked below).
  t.ok(unsettled.length >= 1, `answered charges wait in the outbox, unsettled, naming the allowance (${unsettled.length} of 8)`);
  // The outbox delivers at least once: each of them twice, as after a redelivery.
  for (const entry of unsettled) await redis.xAdd(stream, '*', entry.message);

  // Calls in flight at the kill: each holds a unit of the allowance and never answers.
  const inFlight = Array.from({ length: 3 }, (_, index) => search(doomed.url, apiKey, `slow ${index} sim:slow=8000`).catch(() => null));
  const heldKey = `${stack.redisKeyPrefix}allowance:held:${workspaceId}:${allowanceId}`;
  await eventually('three calls hold units', async () => (Number(await redis.zCard(heldKey)) === 3 ? true : undefined));
  const idleAtKill = Number(await redis.hGet(allowanceKey, 'units'));
  const killedAt = Date.now();
  await doomed.process.kill();
  // Where its lease then stood: the last renewal (once a second while used) came before the kill, however slow the machine.
  const { expiresAt: leaseEndAtKill } = await db.selectFrom('quotaAllowances').select('expiresAt').where('id', '=', allowanceId).executeTakeFirstOrThrow();
  const lost = await Promise.all(inFlight);
  t.ok(lost.every((response) => response === null || response.status !== 200), 'the calls in flight were never answered');

  const successes = [...burst, ...answered].map((response) => response.headers.get('x-request-id')!);
  await eventually('every answered success is settled', async () => ((await accounts.usage.get.query({ workspaceId })).used === successes.length ? true : undefined), {
    timeoutMs: SETTLE_EVERY_MS + 20_000,
    intervalMs: 250,
  });
  const charged = await chargedRequests(db, workspaceId);
  t.strictSame(charged.map((row) => row.requestId).sort(), [...successes].sort(), 'the charges are exactly the answered successes (none for the calls that died)');
  const ofTheEight = charged.filter((row) => answered.some((response) => response.headers.get('x-request-id') === row.requestId));
  t.equal(ofTheEight.length, 8, 'the eight charged');
  t.ok(ofTheEight.every((row) => row.allowanceId === allowanceId), 'the eight from the allowance');
  const history = await historyOf(stack, workspaceId, successes.length);
  t.equal(history.filter((entry) => entry.charged === 1).length, successes.length, 'one charged history entry per success, none twice');

  // The allowance's units not charged (idle, or held by the calls that died) are freed once its lease runs out.
  const row = await db.selectFrom('quotaAllowances').select(['units', 'charged', 'returned']).where('id', '=', allowanceId).executeTakeFirstOrThrow();
  const held = row.units - row.charged - row.returned;
  const freed = await eventually('the lapsed allowance is freed', async () => {
    const usage = await accounts.usage.get.query({ workspaceId });
    return usage.used + usage.remaining === usage.plan.monthlyQuota ? usage : undefined;
  }, { timeoutMs: ALLOWANCE_LEASE_MS + 20_000, intervalMs: 250 });
  const freedAt = Date.now();
  const freedAfterMs = freedAt - killedAt;
  const expired = await db.selectFrom('quotaAllowances').select(['state', 'charged', 'returned']).where('id', '=', allowanceId).executeTakeFirstOrThrow();
  // The burst's calls admitted once its lease was asked waited for the block and took units of it too.
  const fromAllowance = charged.filter((row) => row.allowanceId === allowanceId).length;
  t.match(
    expired,
    { state: 'expired', charged: fromAllowance, returned: 0 },
    `every charge naming the allowance charged from it within its lease (the eight and ${fromAllowance - 8} of the burst); the rest freed by the lease, nothing returned`,
  );
  t.equal(
    freed.remaining,
    10_000 - successes.length,
    `the killed api held ${held} units of the allowance (${idleAtKill} idle, 3 taken by calls in flight, ${row.units} leased, ${row.charged} charged): all ${held} free again ${freedAfterMs} ms after the kill, once the ${ALLOWANCE_LEASE_MS} ms lease ran out`,
  );
  t.equal(held, idleAtKill + 3, 'held: the idle units and those of the calls that died');
  t.ok(freedAt >= leaseEndAtKill.getTime(), `not freed before the lease ran out (${freedAt - leaseEndAtKill.getTime()} ms after its end, ${freedAfterMs} ms after the kill)`);
});
