import t from 'tap';
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { createClient } from '@redis/client';
import { accountsQuotaLedger, createAccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { newAllowanceId, newRequestId } from '@comps/shared/ids';
import { createLogger } from '@comps/shared/logging/create-logger';
import { MarketClient } from '@comps/shared/market/market-client';
import { marketConfigFrom, marketEnvFields } from '@comps/shared/market/market-config';
import type { MarketCall } from '@comps/shared/market/market-call';
import { Admission } from '@comps/shared/metering/admission';
import { AllowanceKeys } from '@comps/shared/metering/allowance-keys';
import { Meter, type MeterOutcome } from '@comps/shared/metering/meter';
import { QuotaAllowances } from '@comps/shared/metering/quota-allowances';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';
import { connectInBackground, createRedisClient, type RedisClient } from '@comps/shared/redis/create-redis';
import { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { z } from 'zod';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { eventually } from '../../helpers/http-client.js';
import { SAMPLE_QUERY } from '../../helpers/listing-query.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../../helpers/test-env.js';
import { createDb } from '@comps/shared/db/create-db';
import type { AccountsDatabase } from '../../../services/accounts/src/db/database.js';
import { chargedRequests } from '../../helpers/charged-requests.js';
import { readUsage } from '../../../services/api/src/usage/read-usage.js';

// Quota allowances in process: processes made as createMetering makes them (admission, allowances,
// meter, settlement outbox), on the real Redis, the real accounts service and the simulator.
const stack = await startInProcessStack(t);
const logger = createLogger('allowance-test', 'silent');
const redis = createRedisClient({ url: TEST_REDIS_URL }, logger);
await connectInBackground(redis, logger);
const probe = await createClient({ url: TEST_REDIS_URL }).connect();
const agent = new Agent();
const accounts = createAccountsClient({ url: stack.accountsInternalUrl, internalToken: stack.internalToken, timeoutMs: 5000, dispatcher: agent });
const ledger = accountsQuotaLedger(accounts);
const market = new MarketClient(marketConfigFrom(z.object(marketEnvFields).parse({ MARKET_SIM_URL: stack.simulatorUrl, MARKET_TIMEOUT_MS: '5000' })));
const db = createDb<AccountsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 2 });
const closers: Array<() => Promise<unknown>> = [];
t.teardown(async () => {
  for (const close of closers.reverse()) await close();
  await market.close();
  await agent.close();
  await db.destroy();
  redis.destroy();
  probe.destroy();
});

const search = (keyword: string): MarketCall => ({ kind: 'search', query: { ...SAMPLE_QUERY, keyword, count: 5 } });
const history = { method: 'GET', path: '/v1/scrape', jobId: null, apiKeyId: null, apiKeyPrefix: null };

/** A client that counts the commands sent through it (a script call, a read: each one round trip). */
function counting(client: RedisClient): { client: RedisClient; count: () => number } {
  let sent = 0;
  const methods = new Set(['evalSha', 'eval', 'hmGet', 'hGet', 'sMembers']);
  const proxy = new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property === 'string' && methods.has(property) && typeof value === 'function') {
        return (...args: unknown[]) => {
          sent += 1;
          return (value as (...rest: unknown[]) => unknown).apply(target, args);
        };
      }
      return value;
    },
  });
  return { client: proxy, count: () => sent };
}

interface Process {
  meter: Meter;
  outbox: SettlementOutbox;
  admission: Admission;
  allowances: QuotaAllowances;
  /** Round trips of the admission's calls (admit, complete, renewals). */
  admissionTrips: () => number;
  /** Calls to accounts of the request path and of leasing. */
  calls: { reserve: number; lease: number };
  stop(): Promise<void>;
}

/** One api or jobs process of a deployment (`prefix`): what createMetering wires, with counters. */
function processOf(
  prefix: string,
  options: {
    blockUnits?: number;
    idleMs?: number;
    leaseMs?: number;
    permitLeaseMs?: number;
    /** Awaited once accounts granted a lease, before the process has the answer (the block is on its way to Redis). */
    leaseAnswered?: () => Promise<void>;
    /** Awaited before the process gives idle units back to accounts (the block is on its way to accounts). */
    returning?: () => Promise<void>;
    /** Awaited before a call's own reservation is asked of accounts. */
    reserving?: () => Promise<void>;
    /** How long a call admitted while a block is on its way waits for it. */
    leaseLandingWaitMs?: number;
  } = {},
): Process {
  const calls = { reserve: 0, lease: 0 };
  const counted: QuotaLedger = {
    ...ledger,
    reserve: async (workspaceId, requestId) => {
      calls.reserve += 1;
      await options.reserving?.();
      return ledger.reserve(workspaceId, requestId);
    },
    leaseAllowance: async (input) => {
      calls.lease += 1;
      const answer = await ledger.leaseAllowance(input);
      await options.leaseAnswered?.();
      return answer;
    },
    returnAllowance: async (allowanceId, units) => {
      await options.returning?.();
      return ledger.returnAllowance(allowanceId, units);
    },
  };
  const reader = createRedisClient({ url: TEST_REDIS_URL, commandTimeoutMs: 5000 }, logger);
  void connectInBackground(reader, logger);
  const outbox = new SettlementOutbox(redis, reader, counted, logger, { key: `${prefix}settlements` });
  outbox.start();
  const allowances = new QuotaAllowances(redis, counted, { keyPrefix: `${prefix}allowance:`, blockUnits: options.blockUnits ?? 20, leaseMs: options.leaseMs ?? 30_000, idleMs: options.idleMs ?? 60_000 }, logger);
  const trips = counting(redis);
  const admission = new Admission(
    trips.client,
    outbox.keys,
    { keyPrefix: `${prefix}upstream:`, leaseMs: options.permitLeaseMs ?? 3000, maxInFlight: 500, callsPerSecond: 100_000, workspaceShare: 1, allowance: allowances.taking },
    logger,
  );
  const meter = new Meter({
    market,
    admission,
    ledger: counted,
    allowances,
    dataGate: { sold: 'open', active: 'open', item: 'open' },
    enabledSites: ['market.com'],
    capacityWaitMs: 0,
    ...(options.leaseLandingWaitMs ? { leaseLandingWaitMs: options.leaseLandingWaitMs } : {}),
    history: { add: () => undefined },
    logger,
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await admission.close();
    await outbox.close();
    await allowances.close();
    reader.destroy();
  };
  closers.push(stop);
  return { meter, outbox, admission, allowances, admissionTrips: trips.count, calls, stop };
}

/** The allowance each call's deliverer was told its unit came from (null: a reservation of its own), by request id. */
const deliveredFrom = new Map<string, string | null>();

async function run(process: Process, workspaceId: string, keyword = 'lamp', together = 1): Promise<MeterOutcome & { requestId: string }> {
  const requestId = newRequestId();
  const outcome = await process.meter.run({
    workspace: { id: workspaceId, concurrency: 500 },
    requestId,
    together,
    call: search(keyword),
    signal: new AbortController().signal,
    patience: 'brief',
    history,
    deliver: async ({ allowanceId }) => {
      deliveredFrom.set(requestId, allowanceId);
      return true;
    },
  });
  return { ...outcome, requestId };
}

const newPrefix = () => `test:allowance:${randomBytes(4).toString('hex')}:`;
const idleOf = async (prefix: string, workspaceId: string) => Number(await probe.hGet(`${prefix}allowance:${workspaceId}`, 'units'));
const allowanceIdOf = async (prefix: string, workspaceId: string) => probe.hGet(`${prefix}allowance:${workspaceId}`, 'id');
/** The workspace's figures once nothing is held: every charge settled, every idle unit back (accounts' own view). */
async function settledUsage(workspaceId: string, used: number) {
  let last: unknown;
  try {
    return await eventually(`${workspaceId}: ${used} charged and nothing held`, async () => {
      const usage = await accounts.usage.get.query({ workspaceId });
      last = { used: usage.used, remaining: usage.remaining, allowances: await db.selectFrom('quotaAllowances').selectAll().where('workspaceId', '=', workspaceId).execute() };
      return usage.used === used && usage.used + usage.remaining === usage.plan.monthlyQuota ? usage : undefined;
    }, { timeoutMs: 15_000, intervalMs: 100 });
  } catch (error) {
    throw new Error(`${String(error)}; last seen ${JSON.stringify(last)}`, { cause: error });
  }
}

/** A burst of calls in one second: the workspace is busy, and one process leases a block. */
async function warmUp(process: Process, prefix: string, workspaceId: string): Promise<number> {
  const burst = await Promise.all(Array.from({ length: 4 }, () => run(process, workspaceId)));
  await eventually('an allowance is leased', async () => ((await allowanceIdOf(prefix, workspaceId)) ? true : undefined));
  const delivered = burst.filter((outcome) => outcome.kind === 'delivered').length;
  // The burst's charges settled, so that what follows starts from a quiet ledger.
  await eventually('the burst is charged', async () => ((await accounts.usage.get.query({ workspaceId })).used === delivered ? true : undefined), { timeoutMs: 10_000 });
  return delivered;
}

t.test('a busy workspace leases an allowance: its calls then reserve nothing through accounts, make two Redis round trips, and are charged once each', async (t) => {
  const prefix = newPrefix();
  // Permits leased for ten minutes: their renewal, a round trip of its own every third of a lease, never comes during
  // the calls below (tap ends a file at 180 s), so the round trips counted are the calls' alone.
  const api = processOf(prefix, { blockUnits: 20, permitLeaseMs: 600_000 });
  const { workspaceId } = await createWorkspace(stack, { quota: 10_000 });
  const warm = await warmUp(api, prefix, workspaceId);
  t.equal(api.calls.lease, 1, 'one lease for the burst');
  // The burst's own reservations may have landed after the lease's answer: the figures catch up at the next renewal (each second while used).
  await new Promise((resolve) => setTimeout(resolve, 1500));

  const reservesBefore = api.calls.reserve;
  const tripsBefore = api.admissionTrips();
  const outcomes: Array<MeterOutcome & { requestId: string }> = [];
  for (let index = 0; index < 30; index += 1) outcomes.push(await run(api, workspaceId));
  const trips = api.admissionTrips() - tripsBefore;
  t.ok(outcomes.every((outcome) => outcome.kind === 'delivered' && outcome.charged), 'thirty successes');
  t.equal(api.calls.reserve - reservesBefore, 0, 'no reservation through accounts: every unit came from the allowance');
  t.ok(api.calls.lease >= 2, `the allowance was topped up in the background (${api.calls.lease} leases for ${warm + 30} calls)`);
  t.equal(trips, 60, 'two Redis round trips a call (admission with the unit, completion with the charge)');
  t.strictSame(
    outcomes.map((outcome) => (outcome.kind === 'delivered' ? outcome.quota.remaining : -1)),
    Array.from({ length: 30 }, (_, index) => 10_000 - warm - index - 1),
    'each answer says what remains with its own unit in flight, as a reservation does',
  );
  await api.stop();
  const usage = await settledUsage(workspaceId, warm + 30);
  t.equal(usage.remaining, 10_000 - warm - 30);
  const charges = await chargedRequests(db, workspaceId);
  t.equal(charges.length, warm + 30, 'one charge row per success');
  const ofTheThirty = charges.filter((row) => outcomes.some((outcome) => outcome.requestId === row.requestId));
  t.equal(ofTheThirty.length, 30, 'each of the thirty charged');
  t.ok(ofTheThirty.every((row) => row.allowanceId !== null), 'the thirty were charged from the allowance');
  t.ok(ofTheThirty.every((row) => deliveredFrom.get(row.requestId) === row.allowanceId), 'each deliverer was told the allowance its charge came from');
  // The burst's first call had no allowance to take from: it reserved its own unit.
  const own = charges.filter((row) => row.allowanceId === null);
  t.ok(own.length >= 1 && own.every((row) => deliveredFrom.get(row.requestId) === null), `and a call that reserved its own unit, none (${own.length} such calls)`);
});

t.test('a failure gives its unit back to the allowance at once; a clean stop gives the idle units back to accounts', async (t) => {
  const prefix = newPrefix();
  const api = processOf(prefix, { blockUnits: 20 });
  const { workspaceId } = await createWorkspace(stack, { quota: 10_000 });
  const warm = await warmUp(api, prefix, workspaceId);
  const before = await idleOf(prefix, workspaceId);
  const failed = await run(api, workspaceId, 'lamp sim:error');
  t.match(failed, { kind: 'failed', error: { code: 'upstream_error' } });
  t.equal(await idleOf(prefix, workspaceId), before, 'the unit it took is idle again');
  const held = await accounts.usage.get.query({ workspaceId });
  t.ok(held.used + held.remaining < 10_000, 'accounts counts the allowance as held');
  const allowanceId = await allowanceIdOf(prefix, workspaceId);
  await api.stop();
  t.equal(await allowanceIdOf(prefix, workspaceId), null, 'stopped: the allowance is out of use');
  const usage = await settledUsage(workspaceId, warm);
  t.equal(usage.remaining, 10_000 - warm, 'and its idle units are free in the ledger');
  const row = await db.selectFrom('quotaAllowances').select(['units', 'charged', 'returned']).where('id', '=', allowanceId!).executeTakeFirstOrThrow();
  t.equal(row.units - row.charged - row.returned, 0, `nothing left held (${row.units} leased, ${row.charged} charged, ${row.returned} returned)`);
});

t.test('an allowance nobody takes from goes back to accounts after its idle time', async (t) => {
  const prefix = newPrefix();
  const api = processOf(prefix, { blockUnits: 20, idleMs: 400 });
  const { workspaceId } = await createWorkspace(stack, { quota: 10_000 });
  const warm = await warmUp(api, prefix, workspaceId);
  await settledUsage(workspaceId, warm);
  t.equal(await allowanceIdOf(prefix, workspaceId), null, 'idle: taken out of use');
  await api.stop();
});

t.test('an idle allowance a call still holds a unit of is kept and renewed, and goes back once the call ends', async (t) => {
  const prefix = newPrefix();
  // A short lease (takes end after 2 s of it), idle after 300 ms; the call's permit outlives both.
  const api = processOf(prefix, { blockUnits: 20, idleMs: 300, leaseMs: 3000, permitLeaseMs: 10_000 });
  const { workspaceId } = await createWorkspace(stack, { quota: 10_000 });
  const warm = await warmUp(api, prefix, workspaceId);
  const allowanceId = (await allowanceIdOf(prefix, workspaceId))!;
  const holding = await api.admission.admit(workspaceId, `${newRequestId()}:long`, 500, { allowance: true });
  if (!holding.admitted || holding.permit.allowance?.allowanceId !== allowanceId) throw new Error('the long call took a unit of the allowance');
  // Idle for longer than the whole lease, while the call holds its unit.
  await new Promise((resolve) => setTimeout(resolve, 4000));
  t.equal(await allowanceIdOf(prefix, workspaceId), allowanceId, 'still the allowance in use');
  t.ok(Number(await probe.hGet(`${prefix}allowance:${workspaceId}`, 'ends')) > Date.now(), 'its takes have not ended: renewed');
  const row = await db.selectFrom('quotaAllowances').select(['state', 'expiresAt']).where('id', '=', allowanceId).executeTakeFirstOrThrow();
  t.equal(row.state, 'held');
  t.ok(row.expiresAt.getTime() > Date.now(), 'its lease in accounts was renewed under the call');
  // The call ends (a failure: its unit goes back); the allowance is then idle, and goes back.
  await api.admission.complete(holding.permit, null);
  await eventually('the allowance goes back once no call holds a unit', async () => ((await allowanceIdOf(prefix, workspaceId)) === null ? true : undefined), { timeoutMs: 5000 });
  await settledUsage(workspaceId, warm);
  await api.stop();
});

t.test('the unit of a call whose process died comes back when its permit lapses; the call is not charged', async (t) => {
  const prefix = newPrefix();
  const survivor = processOf(prefix, { blockUnits: 20, permitLeaseMs: 500 });
  const dying = processOf(prefix, { blockUnits: 20, permitLeaseMs: 500 });
  const { workspaceId } = await createWorkspace(stack, { quota: 10_000 });
  const warm = await warmUp(survivor, prefix, workspaceId);
  const before = await idleOf(prefix, workspaceId);
  // The dying process admits a call and takes a unit, then dies before the call ends (no renewal, no completion).
  const deadRequest = newRequestId();
  const decision = await dying.admission.admit(workspaceId, `${deadRequest}:dead`, 500, { allowance: true });
  t.ok(decision.admitted && decision.permit.allowance, 'it took a unit of the shared allowance');
  t.equal(await idleOf(prefix, workspaceId), before - 1);
  await dying.stop();
  await new Promise((resolve) => setTimeout(resolve, 700));
  const next = await run(survivor, workspaceId);
  t.equal(next.kind, 'delivered');
  t.equal(await idleOf(prefix, workspaceId), before - 1, "the lapsed unit came back to the allowance and the survivor's call took one");
  await survivor.stop();
  await settledUsage(workspaceId, warm + 1);
  const charged = await chargedRequests(db, workspaceId);
  t.equal(charged.length, warm + 1, 'only the answered successes were charged');
  t.notOk(charged.some((row) => row.requestId === deadRequest), 'not the call that died');
});

t.test('near the end of a quota: blocks only while a block stays free, then a reservation per call; exactly the quota is charged, refused only once it is used up', async (t) => {
  const prefix = newPrefix();
  const processes = [processOf(prefix, { blockUnits: 20 }), processOf(prefix, { blockUnits: 20 })];
  const { workspaceId } = await createWorkspace(stack, { quota: 70 });
  const outcomes = await Promise.all(Array.from({ length: 90 }, (_, index) => run(processes[index % 2]!, workspaceId)));
  const delivered = outcomes.filter((outcome) => outcome.kind === 'delivered');
  const refused = outcomes.filter((outcome) => outcome.kind === 'failed' && outcome.error.code === 'quota_exhausted');
  t.equal(delivered.length, 70, 'every unit of the quota answered a call');
  t.equal(refused.length, 20, 'the others refused as quota_exhausted');
  const leases = processes.reduce((sum, process) => sum + process.calls.lease, 0);
  const reserves = processes.reduce((sum, process) => sum + process.calls.reserve, 0);
  t.ok(reserves >= 70 - 2 * 20, `the last units were reserved one call at a time (${reserves} reservations, ${leases} leases asked)`);
  for (const process of processes) await process.stop();
  const usage = await settledUsage(workspaceId, 70);
  t.equal(usage.remaining, 0);
  const charged = await chargedRequests(db, workspaceId);
  t.strictSame(charged.map((row) => row.requestId).sort(), delivered.map((outcome) => outcome.requestId).sort(), 'the charges are the answered successes, once each');
  const fromAllowance = charged.filter((row) => row.allowanceId !== null).length;
  t.comment(`${fromAllowance} charged from the allowance, ${charged.length - fromAllowance} from reservations of their own`);
});

t.test("the request's rate is counted with its first call's admission, in the same round trip", async (t) => {
  const prefix = newPrefix();
  const api = processOf(prefix);
  const { workspaceId } = await createWorkspace(stack, { quota: 100 });
  const limiter = new FixedWindowLimiter(redis, `${prefix}rate:`);
  const rate = { key: limiter.keyOf(workspaceId, 60), limit: 2, windowSeconds: 60 };
  const workspace = { id: workspaceId, concurrency: 10 };
  const first = await api.meter.admitRequest({ workspace, requestId: newRequestId(), rate });
  const second = await api.meter.admitRequest({ workspace, requestId: newRequestId(), rate });
  const third = await api.meter.admitRequest({ workspace, requestId: newRequestId(), rate });
  t.match([first.rate, second.rate, third.rate], [{ allowed: true, remaining: 1 }, { allowed: true, remaining: 0 }, { allowed: false, remaining: 0, limit: 2, windowSeconds: 60 }]);
  t.ok(first.ticket && second.ticket, 'the first two are admitted');
  t.equal(third.ticket, null, 'the third is refused and admits nothing');
  t.equal(Number(await probe.zCard(`${prefix}upstream:in-flight:${workspaceId}`)), 2);
  t.match(await limiter.peek(workspaceId, 2, 60), { allowed: false, remaining: 0 }, 'the same counter as the limiter');
  await first.ticket!.release();
  await second.ticket!.release();
  t.equal(Number(await probe.zCard(`${prefix}upstream:in-flight:${workspaceId}`)), 0, 'released tickets give their permits back');
  await api.stop();
});

/** The calls toward the marketplace counted in the seconds from `since` to now: the deployment's, and the workspace's. */
async function callsCountedSince(prefix: string, workspaceId: string, since: number): Promise<{ all: number; workspace: number }> {
  const counted = { all: 0, workspace: 0 };
  for (let second = Math.floor(since / 1000); second <= Math.floor(Date.now() / 1000); second += 1) {
    counted.all += Number((await probe.get(`${prefix}upstream:calls:${second}`)) ?? 0);
    counted.workspace += Number((await probe.get(`${prefix}upstream:calls:${second}:${workspaceId}`)) ?? 0);
  }
  return counted;
}

/** What a step adds to the calls counted since it began (read at once: a second's counters last 2 s after their last call). */
async function countedBy(prefix: string, workspaceId: string, step: () => Promise<unknown>): Promise<{ all: number; workspace: number }> {
  const since = Date.now();
  const before = await callsCountedSince(prefix, workspaceId, since);
  await step();
  const after = await callsCountedSince(prefix, workspaceId, since);
  return { all: after.all - before.all, workspace: after.workspace - before.workspace };
}

t.test('a call admitted in one second and given back uncalled in the next is taken out of the second it was counted in', async (t) => {
  const prefix = newPrefix();
  const workspaceId = `ws_${randomBytes(4).toString('hex')}`;
  // A second of its own, far from now: only this test's calls are counted in it.
  const second = Math.floor(Date.now() / 1000) + 1_000_000;
  let now = second * 1000 + 900;
  const admission = new Admission(
    redis,
    { stream: `${prefix}settlements`, pendingSetOf: (id) => `${prefix}pending:${id}`, pendingTtlMs: 60_000 },
    { keyPrefix: `${prefix}upstream:`, leaseMs: 3000, maxInFlight: 500, callsPerSecond: 100_000, workspaceShare: 1 },
    logger,
    () => now,
  );
  t.teardown(() => admission.close());
  const countOf = async (at: number) => [Number((await probe.get(`${prefix}upstream:calls:${at}`)) ?? 0), Number((await probe.get(`${prefix}upstream:calls:${at}:${workspaceId}`)) ?? 0)];
  const uncalled = await admission.admit(workspaceId, 'uncalled:1', 10);
  const failed = await admission.admit(workspaceId, 'failed:1', 10);
  if (!uncalled.admitted || !failed.admitted) throw new Error('both calls are admitted (capacity and concurrency are out of the way)');
  t.strictSame(await countOf(second), [2, 2], 'two calls counted in their second');
  now = (second + 1) * 1000 + 100;
  await admission.complete(uncalled.permit, null, true);
  t.strictSame(await countOf(second), [1, 1], 'the call that never reached the marketplace is taken out of its second');
  t.strictSame(await countOf(second + 1), [0, 0], 'not out of the second it ended in');
  await admission.complete(failed.permit, null, false);
  t.strictSame(await countOf(second), [1, 1], 'a call that reached the marketplace (and failed there) still counts');
});

t.test('a request admitted but refused before its call (its input, its quota) no longer counts in the calls per second toward the marketplace; one that reached it does', async (t) => {
  const prefix = newPrefix();
  const api = processOf(prefix);
  const { workspaceId } = await createWorkspace(stack, { quota: 1 });
  const limiter = new FixedWindowLimiter(redis, `${prefix}rate:`);
  const rate = { key: limiter.keyOf(workspaceId, 60), limit: 100, windowSeconds: 60 };
  const workspace = { id: workspaceId, concurrency: 10 };
  const tickets: Array<Awaited<ReturnType<Meter['admitRequest']>>> = [];
  t.strictSame(
    await countedBy(prefix, workspaceId, async () => tickets.push(...(await Promise.all([1, 2].map(() => api.meter.admitRequest({ workspace, requestId: newRequestId(), rate })))))),
    { all: 2, workspace: 2 },
    'each admission counts a call',
  );
  // Both refused for their input: their tickets go back untaken.
  t.strictSame(await countedBy(prefix, workspaceId, () => Promise.all(tickets.map((admitted) => admitted.ticket!.release()))), { all: -2, workspace: -2 }, 'released untaken, they no longer count');
  let failed: MeterOutcome | undefined;
  t.strictSame(await countedBy(prefix, workspaceId, async () => (failed = await run(api, workspaceId, 'lamp sim:error'))), { all: 1, workspace: 1 }, 'a call the marketplace failed counts');
  t.match(failed, { kind: 'failed', error: { code: 'upstream_error' } });
  let delivered: MeterOutcome | undefined;
  t.strictSame(await countedBy(prefix, workspaceId, async () => (delivered = await run(api, workspaceId))), { all: 1, workspace: 1 }, 'a call answered counts');
  t.equal(delivered?.kind, 'delivered');
  let refused: MeterOutcome | undefined;
  t.strictSame(await countedBy(prefix, workspaceId, async () => (refused = await run(api, workspaceId))), { all: 0, workspace: 0 }, 'a call refused for its quota does not');
  t.match(refused, { kind: 'failed', error: { code: 'quota_exhausted' } });
  await api.stop();
});

t.test('a call refused its reservation while units are on their way waits on Redis alone, then reserves once more', async (t) => {
  const prefix = newPrefix();
  // Another process asks accounts for a block after this call's admission, before its reservation: units may be on their way.
  const { workspaceId } = await createWorkspace(stack, { quota: 1 });
  const lock = new AllowanceKeys(`${prefix}allowance:`).leaseLock(workspaceId);
  let asked = false;
  const api = processOf(prefix, {
    reserving: async () => {
      if (asked) return;
      asked = true;
      await probe.set(lock, 'another-process', { PX: 10_000 });
    },
  });
  const holding = newRequestId();
  t.match(await ledger.reserve(workspaceId, holding), { ok: true }, 'another request holds the only unit');
  const waiting = run(api, workspaceId);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(api.calls.reserve, 1, 'while it waits, accounts is not asked again');
  // The unit held goes back to accounts, and the lease ends without units for this workspace.
  await ledger.release(holding);
  await probe.del(lock);
  const outcome = await waiting;
  t.equal(outcome.kind, 'delivered', 'the reservation made once the units were back found the unit');
  t.equal(api.calls.reserve, 2, 'two reservations in all');
  await api.stop();
  await settledUsage(workspaceId, 1);
});

/** Waits for the start of a second, so that a burst's admissions all count in one (a workspace is busy from its third call in a second). */
async function startOfSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));
}

/**
 * Ten calls at once on a workspace of `quota` units, none finding an allowance: the third in the second asks for a
 * block, whose answer the test holds up (the calls wait for it as long as that). The reservations made while it is
 * held, then the outcomes once it is let through.
 */
async function burstBehindHeldLease(quota: number) {
  const answered = gate();
  const api = processOf(newPrefix(), { blockUnits: 20, leaseAnswered: answered.wait, leaseLandingWaitMs: 10_000 });
  const { workspaceId } = await createWorkspace(stack, { quota });
  await startOfSecond();
  const burst = Promise.all(Array.from({ length: 10 }, () => run(api, workspaceId)));
  await eventually('the lease is asked', async () => (api.calls.lease === 1 ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const reservedWhileHeld = api.calls.reserve;
  answered.open();
  return { api, workspaceId, reservedWhileHeld, outcomes: await burst };
}

t.test('a burst admitted while its lease is on its way waits for the block: one lease, a reservation for each call before it and none after', async (t) => {
  const { api, workspaceId, reservedWhileHeld, outcomes } = await burstBehindHeldLease(10_000);
  t.equal(reservedWhileHeld, 2, 'while the block is on its way, only the two calls admitted before the lease was asked reserved their own');
  t.ok(outcomes.every((outcome) => outcome.kind === 'delivered' && outcome.charged), 'ten successes');
  t.equal(api.calls.reserve, 2, 'the eight others took units of the block');
  t.equal(api.calls.lease, 1, 'one lease');
  await api.stop();
  await settledUsage(workspaceId, 10);
  const charges = await chargedRequests(db, workspaceId);
  t.equal(charges.filter((row) => row.allowanceId !== null).length, 8, 'eight charged from the allowance');
  t.equal(charges.filter((row) => row.allowanceId === null).length, 2, 'two from reservations of their own');
});

t.test('calls that say they start together (a bulk search) lease at the first of them: none reserves a unit of its own', async (t) => {
  const prefix = newPrefix();
  // A block of 30: ten units taken leave it above its low water (15), so no call admitted after it landed asks for another.
  // The calls wait for the lease however long a loaded machine takes to land it.
  const api = processOf(prefix, { blockUnits: 30, leaseLandingWaitMs: 10_000 });
  const { workspaceId } = await createWorkspace(stack, { quota: 10_000 });
  const outcomes = await Promise.all(Array.from({ length: 10 }, () => run(api, workspaceId, 'lamp', 10)));
  t.ok(outcomes.every((outcome) => outcome.kind === 'delivered' && outcome.charged), 'ten successes');
  t.equal(api.calls.lease, 1, 'the first asked for a block');
  t.equal(api.calls.reserve, 0, 'and every call took a unit of it');
  await api.stop();
  await settledUsage(workspaceId, 10);
  t.equal((await chargedRequests(db, workspaceId)).filter((row) => row.allowanceId !== null).length, 10, 'ten charged from the allowance');
});

t.test('a call admitted while a lease is on its way waits for it a while, not for good: a lease of a process that died', async (t) => {
  const prefix = newPrefix();
  const api = processOf(prefix, { blockUnits: 20 });
  const { workspaceId } = await createWorkspace(stack, { quota: 10_000 });
  // Another process took the lease lock and died: no block comes, and the lock lasts 10 s.
  await probe.set(api.allowances.taking.keys.leaseLock(workspaceId), 'a-process-that-died', { PX: 10_000 });
  const started = performance.now();
  const outcome = await run(api, workspaceId);
  const waitedMs = performance.now() - started;
  t.match(outcome, { kind: 'delivered', charged: true });
  t.equal(api.calls.reserve, 1, 'then it reserved its own unit');
  t.ok(waitedMs >= 250 && waitedMs < 2000, `after LEASE_LANDING_WAIT_MS (250 ms), not the 2 s a refused reservation waits (${Math.round(waitedMs)} ms)`);
  await api.stop();
  await settledUsage(workspaceId, 1);
});

t.test('a burst whose lease is refused (too little quota left for a block) reserves a unit a call once the refusal is in', async (t) => {
  // 25 units: a block of 20 would leave fewer than a block's worth free, so accounts refuses it.
  const { api, workspaceId, reservedWhileHeld, outcomes } = await burstBehindHeldLease(25);
  t.equal(reservedWhileHeld, 2, 'the calls admitted after the lease was asked wait for its answer');
  t.ok(outcomes.every((outcome) => outcome.kind === 'delivered' && outcome.charged), 'ten successes');
  t.equal(api.calls.reserve, 10, 'refused: each call reserved its own unit');
  t.equal(api.calls.lease, 1, 'and no other lease was asked while the refusal holds');
  await api.stop();
  await settledUsage(workspaceId, 10);
});

t.test('an admission that takes no unit does not keep an allowance in use; one that takes a unit does', async (t) => {
  const prefix = newPrefix();
  const api = processOf(prefix);
  const { workspaceId } = await createWorkspace(stack, { quota: 100 });
  const hash = api.allowances.keys.hash(workspaceId);
  const takenAt = Date.now() - 5000;
  await probe.hSet(hash, { id: 'test-allowance', units: 0, ends: Date.now() + 60_000, free: 100, limit: 100, used: 0, taken: takenAt });
  const empty = await api.admission.admit(workspaceId, `${newRequestId()}:a`, 10, { allowance: true });
  t.ok(empty.admitted && empty.permit.allowance === null, 'admitted without a unit');
  t.equal(Number(await probe.hGet(hash, 'taken')), takenAt, 'the allowance still last used when it was');
  await probe.hSet(hash, 'units', 1);
  const full = await api.admission.admit(workspaceId, `${newRequestId()}:b`, 10, { allowance: true });
  t.ok(full.admitted && full.permit.allowance?.allowanceId === 'test-allowance', 'admitted with a unit');
  t.ok(Number(await probe.hGet(hash, 'taken')) > takenAt, 'the take marks it in use');
  if (empty.admitted) await api.admission.complete(empty.permit, null);
  if (full.admitted) await api.admission.complete(full.permit, null);
  await probe.del(hash);
  await api.stop();
});

/** A promise the test resolves when it chooses. */
function gate(): { wait: () => Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open };
}

t.test("GET /usage waits for a block on its way between accounts and Redis: a lease granted and not yet in Redis, a return accounts has not taken, count as remaining", async (t) => {
  const prefix = newPrefix();
  const lease = gate();
  const giveBack = gate();
  // Idle after 8 s: the lease lock lasts as long (max(1 s, ALLOWANCE_IDLE_MS)), and is still held at the check below
  // however slow the machine. A usage read waits for a block in transit 2 s at most (UNITS_IN_TRANSIT_WAIT_MS): between
  // a read's start and the look at whether it answered, only a short sleep and one Redis read.
  const api = processOf(prefix, { blockUnits: 20, idleMs: 8000, leaseAnswered: lease.wait, returning: giveBack.wait });
  const { workspaceId } = await createWorkspace(stack, { quota: 10_000 });
  const usageOf = () => readUsage({ accounts, settlements: api.outbox, allowances: api.allowances }, workspaceId, new AbortController().signal);
  /** A usage read, and whether it has answered yet. */
  const startRead = () => {
    const read = { answered: false, usage: usageOf() };
    void read.usage.then(() => (read.answered = true));
    return read;
  };

  const burst = await Promise.all(Array.from({ length: 4 }, () => run(api, workspaceId)));
  const delivered = burst.filter((outcome) => outcome.kind === 'delivered').length;
  // The lease held up here, the calls admitted after it was asked wait for it a while (LEASE_LANDING_WAIT_MS), then reserve their own.
  t.equal(delivered, 4, 'four successes, each on a reservation of its own');
  await eventually('accounts granted the lease', async () => ((await db.selectFrom('quotaAllowances').select('id').where('workspaceId', '=', workspaceId).execute()).length === 1 ? true : undefined));
  t.equal(await allowanceIdOf(prefix, workspaceId), null, 'the block is not in Redis yet');
  t.equal((await accounts.usage.get.query({ workspaceId })).remaining, 10_000 - delivered - 20, "accounts' own view: the block is held");
  const whileLeased = startRead();
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.ok(await probe.get(api.allowances.keys.leaseLock(workspaceId)), 'the lease is still in flight (its lock held)');
  t.notOk(whileLeased.answered, 'the usage read waits while the block is on its way');
  lease.open();
  t.match(await whileLeased.usage, { used: delivered, remaining: 10_000 - delivered }, 'then counts its units as remaining');
  t.ok(await allowanceIdOf(prefix, workspaceId), 'the allowance is in Redis');

  // Nobody takes from it for 8 s: it goes back, and the return waits before accounts has it.
  await eventually('the allowance is being given back', async () => ((await probe.hGet(api.allowances.keys.hash(workspaceId), 'returning')) ? true : undefined), { timeoutMs: 30_000, intervalMs: 20 });
  const whileReturned = startRead();
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.notOk(whileReturned.answered, 'the usage read waits while the block is on its way back');
  t.equal((await accounts.usage.get.query({ workspaceId })).remaining, 10_000 - delivered - 20, "accounts' own view: the block is still held");
  giveBack.open();
  t.match(await whileReturned.usage, { used: delivered, remaining: 10_000 - delivered }, 'then finds it back in accounts');
  await api.stop();
});

t.test('a block a lease brings while another allowance is in use goes straight back, and GET /usage waits for it to reach accounts', async (t) => {
  const prefix = newPrefix();
  const giveBack = gate();
  const api = processOf(prefix, { blockUnits: 20, returning: giveBack.wait });
  const { workspaceId } = await createWorkspace(stack, { quota: 1000 });
  const hash = api.allowances.keys.hash(workspaceId);
  const lock = api.allowances.keys.leaseLock(workspaceId);
  // Another process's allowance in use (accounts does not know it: none of its units count), and this process picked to lease.
  const another = newAllowanceId();
  await probe.hSet(hash, { id: another, units: 5, ends: Date.now() + 60_000, free: 1000, limit: 1000, used: 0, taken: Date.now() });
  await probe.set(lock, 'this-process', { PX: 10_000 });
  api.allowances.lease({ workspaceId, allowanceId: null });
  await eventually('accounts granted the block', async () => ((await accounts.usage.get.query({ workspaceId })).remaining === 980 ? true : undefined));
  t.equal(await probe.hGet(hash, 'id'), another, 'the allowance in use stays');
  const read = { answered: false, usage: readUsage({ accounts, settlements: api.outbox, allowances: api.allowances }, workspaceId, new AbortController().signal) };
  void read.usage.then(() => (read.answered = true));
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(await probe.get(lock), 'this-process', 'the lease lock is kept while the block goes back');
  t.notOk(read.answered, 'the usage read waits for it');
  giveBack.open();
  t.match(await read.usage, { used: 0, remaining: 1000 }, 'then finds it back in accounts');
  t.equal(await probe.get(lock), null, 'the lock is gone once accounts has the block');
  await probe.del(hash);
  await api.stop();
});

t.test('GET /usage waits for a lease in flight 2 s at most (the process leasing may have died), and not past its signal', async (t) => {
  const prefix = newPrefix();
  const api = processOf(prefix, { idleMs: 400 });
  const { workspaceId } = await createWorkspace(stack, { quota: 100 });
  // The lock of a lease that never ends (a process that died leasing), made to last longer than any lock does.
  await probe.set(api.allowances.keys.leaseLock(workspaceId), 'a-process-that-died', { PX: 30_000 });
  const started = Date.now();
  const usage = await readUsage({ accounts, settlements: api.outbox, allowances: api.allowances }, workspaceId, new AbortController().signal);
  const waited = Date.now() - started;
  t.match(usage, { used: 0, remaining: 100 }, 'answered');
  t.ok(waited >= 2000 && waited < 30_000, `after 2 s, not the stale lock's 30 s (${waited} ms)`);
  const caller = new AbortController();
  const leaving = Date.now();
  setTimeout(() => caller.abort(new Error('the caller left')), 100);
  await t.rejects(readUsage({ accounts, settlements: api.outbox, allowances: api.allowances }, workspaceId, caller.signal), { message: 'the caller left' }, "a caller that leaves ends the wait with its signal's reason");
  t.ok(Date.now() - leaving < 2000, `at once (${Date.now() - leaving} ms)`);
  await probe.del(api.allowances.keys.leaseLock(workspaceId));
  await api.stop();
});
