import t from 'tap';
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { createClient } from '@redis/client';
import { accountsQuotaLedger, createAccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import { AppError } from '@comps/shared/errors/app-error';
import { newRequestId } from '@comps/shared/ids';
import { createLogger } from '@comps/shared/logging/create-logger';
import { MarketClient } from '@comps/shared/market/market-client';
import { marketConfigFrom, marketEnvFields } from '@comps/shared/market/market-config';
import { Admission } from '@comps/shared/metering/admission';
import type { MarketCall, MarketValue } from '@comps/shared/market/market-call';
import { Meter, type MeterDeps, type MeterOutcome, type MeteredAnswer } from '@comps/shared/metering/meter';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';
import { connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { z } from 'zod';
import { accountsClient, createWorkspace } from '../../helpers/accounts-client.js';
import { eventually } from '../../helpers/http-client.js';
import { SAMPLE_QUERY } from '../../helpers/listing-query.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';
import { TEST_REDIS_URL } from '../../helpers/test-env.js';

// The metering module in-process, on the real Redis, the real accounts service and the simulator.
const stack = await startInProcessStack(t);
const logger = createLogger('meter-test', 'silent');
const redis = createRedisClient({ url: TEST_REDIS_URL }, logger);
await connectInBackground(redis, logger);
const probe = await createClient({ url: TEST_REDIS_URL }).connect();
const agent = new Agent();
const accounts = createAccountsClient({ url: stack.accountsInternalUrl, internalToken: stack.internalToken, timeoutMs: 3000, dispatcher: agent });
const ledger = accountsQuotaLedger(accounts);
const market = new MarketClient(marketConfigFrom(z.object(marketEnvFields).parse({ MARKET_SIM_URL: stack.simulatorUrl, MARKET_TIMEOUT_MS: '5000' })));
const admissions: Admission[] = [];
const outboxes: SettlementOutbox[] = [];
t.teardown(async () => {
  await Promise.all(admissions.map((admission) => admission.close()));
  await Promise.all(outboxes.map((outbox) => outbox.close()));
  await market.close();
  await agent.close();
  redis.destroy();
  probe.destroy();
});

const readers: Array<ReturnType<typeof createRedisClient>> = [];
t.teardown(() => readers.forEach((reader) => reader.destroy()));

function meterWith(options: { settle?: boolean; prefix?: string; maxInFlight?: number; callsPerSecond?: number; share?: number; ledger?: QuotaLedger; capacityWaitMs?: number; dataGate?: MeterDeps['dataGate']; clock?: () => number; batches?: { batchSize: number; batchIntervalMs: number } } = {}) {
  const prefix = options.prefix ?? `test:meter:${randomBytes(4).toString('hex')}:`;
  // The settler blocks on its connection: it gets one of its own.
  const reader = createRedisClient({ url: TEST_REDIS_URL, commandTimeoutMs: 5000 }, logger);
  void connectInBackground(reader, logger);
  const outbox = new SettlementOutbox(redis, reader, options.ledger ?? ledger, logger, { key: `${prefix}settlements`, ...options.batches });
  if (options.settle !== false) outbox.start();
  outboxes.push(outbox);
  readers.push(reader);
  const admission = new Admission(
    redis,
    outbox.keys,
    { keyPrefix: `${prefix}upstream:`, leaseMs: 3000, maxInFlight: options.maxInFlight ?? 100, callsPerSecond: options.callsPerSecond ?? 1000, workspaceShare: options.share ?? 1 },
    logger,
    options.clock,
  );
  admissions.push(admission);
  // The entries of calls that are not charged (a charged call's entry travels with its charge).
  const entries: HistoryRecord[] = [];
  const meter = new Meter({
    market,
    admission,
    ledger: options.ledger ?? ledger,
    dataGate: options.dataGate ?? { sold: 'open', active: 'open', item: 'open' },
    enabledSites: ['market.com', 'market.de'],
    capacityWaitMs: options.capacityWaitMs ?? 0,
    history: { add: (entry) => entries.push(entry) },
    logger,
  });
  const held = async () => Number(await probe.zCard(`${prefix}upstream:in-flight`));
  const charges = async () => Number(await probe.xLen(`${prefix}settlements`));
  return { meter, outbox, prefix, held, charges, entries };
}

const search = (keyword: string, extra: Partial<typeof SAMPLE_QUERY> = {}): MarketCall => ({ kind: 'search', query: { ...SAMPLE_QUERY, keyword, count: 5, ...extra } });
const history = { method: 'GET', path: '/v1/scrape', jobId: null, apiKeyId: null, apiKeyPrefix: null };
interface RunOptions {
  signal?: AbortSignal;
  concurrency?: number;
  patience?: 'brief' | 'patient';
  deliver?: (answer: MeteredAnswer<MarketValue<MarketCall>>) => Promise<boolean>;
}

/** One call, delivered at once unless `deliver` says otherwise; its outcome and its request id. */
async function run(meter: Meter, workspace: { workspaceId: string }, call: MarketCall, options: RunOptions = {}): Promise<MeterOutcome & { requestId: string }> {
  const requestId = newRequestId();
  const outcome = await meter.run({
    workspace: { id: workspace.workspaceId, concurrency: options.concurrency ?? 10 },
    requestId,
    call,
    signal: options.signal ?? new AbortController().signal,
    patience: options.patience ?? 'brief',
    history,
    deliver: options.deliver ?? (async () => true),
  });
  return { ...outcome, requestId };
}
const delivered = (outcomes: MeterOutcome[]) => outcomes.filter((outcome) => outcome.kind === 'delivered').length;
const quotaOf = (workspaceId: string) => accountsClient(stack).usage.get.query({ workspaceId });

t.test('a success: the answer delivered, one charge handed to the outbox with its entry, nothing left held', async (t) => {
  // No settler runs here, so the charge is seen waiting in the outbox.
  const { meter, held, charges, outbox, entries } = meterWith({ settle: false });
  const workspace = await createWorkspace(stack, { quota: 10 });
  let answered: MeteredAnswer<MarketValue<MarketCall>> | undefined;
  const outcome = await run(meter, workspace, search('lamp'), {
    deliver: async (answer) => {
      answered = answer;
      t.equal(await held(), 1, 'the permit is held while the answer is delivered');
      return true;
    },
  });
  t.strictSame(outcome, { kind: 'delivered', charged: true, quota: { limit: 10, used: 0, remaining: 9 }, requestId: outcome.requestId });
  t.equal(answered && 'items' in answered.value ? answered.value.items.length : -1, 5, 'the collection was delivered, not bytes');
  t.equal(answered?.value.requestId, outcome.requestId, 'carrying the request id');
  t.strictSame(answered?.quota, { limit: 10, used: 0, remaining: 9 }, 'with the quota figures of its reservation');
  t.equal(answered?.allowanceId, null, 'a unit of its own, not of an allowance');
  t.strictSame(entries, [], 'no entry through the sink: it travels with the charge');
  t.equal(await held(), 0, 'permits given back');
  t.equal(await charges(), 1, 'the charge waits in the outbox');
  t.strictSame(await outbox.pendingOf(workspace.workspaceId), [outcome.requestId], 'and counts as answered');
});

t.test('an outbox that stops before its settler made the consumer group (a process stopped moments after it started) still settles what it holds', async (t) => {
  const { meter, charges, outbox } = meterWith({ settle: false });
  const workspace = await createWorkspace(stack, { quota: 10 });
  const outcome = await run(meter, workspace, search('lamp'));
  t.equal(outcome.kind, 'delivered');
  t.equal(await charges(), 1, 'the charge waits in the outbox');
  await outbox.close();
  t.equal(await charges(), 0, 'settled at the stop');
  t.equal((await quotaOf(workspace.workspaceId)).used, 1, 'and charged once');
});

t.test('a charge carries its history entry: settled together, even when no history writer ever sends it', async (t) => {
  const { meter } = meterWith();
  const workspace = await createWorkspace(stack, { quota: 10 });
  const outcome = await run(meter, workspace, search('lamp'));
  t.equal(outcome.kind, 'delivered');
  const entries = await eventually('the charged entry is in the history', async () => {
    const { entries } = await accountsClient(stack).history.list.query({ workspaceId: workspace.workspaceId, limit: 10 });
    return entries.length > 0 ? entries : undefined;
  });
  t.match(entries, [{ requestId: outcome.requestId, charged: 1, status: 200, resultCount: 5, path: '/v1/scrape', keyword: '[redacted]', marketSite: 'market.com' }]);
  t.equal((await quotaOf(workspace.workspaceId)).used, 1, 'and the charge with it');
});

t.test('a failure at each step gives back everything taken before it, charges nothing and leaves its entry', async (t) => {
  const workspace = await createWorkspace(stack, { quota: 3 });
  const before = await quotaOf(workspace.workspaceId);

  const gated = meterWith({ dataGate: { sold: 'closed', active: 'open', item: 'open' } });
  t.match(await run(gated.meter, workspace, search('lamp')), { kind: 'failed', error: { code: 'data_gate_closed' }, quota: null }, 'the gate: nothing taken');
  t.match(await run(gated.meter, workspace, search('lamp', { marketSite: 'market.fr' })), { kind: 'failed', error: { code: 'data_gate_closed' } });
  t.match(gated.entries, [{ status: 503, code: 'data_gate_closed', charged: 0 }, { status: 503, code: 'data_gate_closed', charged: 0 }], 'each refusal has its entry');
  const site = await run(meterWith().meter, workspace, search('lamp', { marketSite: 'market.fr', sold: true }));
  t.match(site, { kind: 'failed', error: { code: 'site_not_enabled' } }, 'the site: nothing taken');

  const full = meterWith();
  const slow = run(full.meter, workspace, search('lamp sim:slow=3000'), { concurrency: 1 });
  await eventually('the slow call holds its permit', async () => ((await full.held()) === 1 ? true : undefined), { intervalMs: 10 });
  const refused = await run(full.meter, workspace, search('lamp'), { concurrency: 1 });
  t.match(refused, { kind: 'failed', error: { code: 'concurrency_limited' }, quota: null }, 'admission: nothing reserved');
  t.equal((await slow).kind, 'delivered');

  const upstream = meterWith();
  for (const [keyword, code] of [['lamp sim:error', 'upstream_error'], ['lamp sim:block', 'upstream_blocked'], ['lamp sim:throttle', 'upstream_rate_limited']] as const) {
    const failed = await run(upstream.meter, workspace, search(keyword));
    t.match(failed, { kind: 'failed', error: { code } }, `the upstream call: ${code}`);
    t.match(upstream.entries.at(-1), { requestId: failed.requestId, status: new AppError(code, '').status, code, charged: 0 }, `its entry: ${code}`);
  }
  t.equal(await upstream.held(), 0, 'no permit held after the failures');
  t.equal(await upstream.charges(), 0, 'no charge');

  const unreachable: QuotaLedger = {
    ...ledger,
    reserve: async () => {
      throw new AppError('service_unavailable', 'accounts is down');
    },
  };
  const down = meterWith({ ledger: unreachable });
  const unavailable = await run(down.meter, workspace, search('lamp'));
  t.match(unavailable, { kind: 'failed', error: { code: 'service_unavailable' }, quota: null }, 'the reservation: accounts down is the answer');
  t.match(down.entries, [{ status: 503, code: 'service_unavailable', charged: 0 }]);
  t.equal(await down.held(), 0, 'and the permits taken before it are given back');

  const after = await eventually('no unit left reserved', async () => {
    const quota = await quotaOf(workspace.workspaceId);
    return quota.used + quota.remaining === quota.plan.monthlyQuota ? quota : undefined;
  });
  t.equal(after.used, before.used + 1, 'only the one success was charged');
  t.equal(after.remaining, before.remaining - 1, 'no unit is left reserved');
});

t.test('quota exhausted: refused before any upstream call, permits given back', async (t) => {
  const { meter, held, entries } = meterWith();
  const workspace = await createWorkspace(stack, { quota: 0 });
  const outcome = await run(meter, workspace, search('lamp'));
  t.match(outcome, { kind: 'failed', error: { code: 'quota_exhausted' }, quota: { limit: 0, remaining: 0 } });
  t.match(entries, [{ status: 403, code: 'quota_exhausted', charged: 0 }]);
  t.equal(await held(), 0);
});

t.test('an abort during the upstream call charges nothing and releases the lease, the reservation and the capacity permit', async (t) => {
  const { meter, held, charges, prefix, entries } = meterWith();
  const workspace = await createWorkspace(stack, { quota: 5 });
  const controller = new AbortController();
  const running = run(meter, workspace, search('lamp sim:slow=3000'), { signal: controller.signal, concurrency: 1 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(await held(), 1, 'a permit is held while the call runs');
  t.equal(Number(await probe.zCard(`${prefix}upstream:in-flight:${workspace.workspaceId}`)), 1, 'and the workspace lease');
  const started = Date.now();
  controller.abort();
  const outcome = await running;
  t.ok(Date.now() - started < 1000, 'the upstream call is abandoned at once');
  t.equal(outcome.kind, 'abandoned');
  t.match(entries, [{ status: 499, code: null, charged: 0 }], 'recorded as a caller that left');
  t.equal(await held(), 0, 'capacity permit released');
  t.equal(Number(await probe.zCard(`${prefix}upstream:in-flight:${workspace.workspaceId}`)), 0, 'workspace lease released');
  t.equal(await charges(), 0, 'no charge');
  const quota = await quotaOf(workspace.workspaceId);
  t.strictSame([quota.used, quota.remaining], [0, 5], 'reservation released');
});

t.test('admission: the workspace concurrency', async (t) => {
  const { meter } = meterWith();
  const workspace = await createWorkspace(stack, { quota: 1000 });
  const five = await Promise.all(Array.from({ length: 5 }, () => run(meter, workspace, search('lamp sim:slow=600'), { concurrency: 3 })));
  t.equal(delivered(five), 3, 'concurrency 3: three of five run');
  t.equal(five.filter((outcome) => outcome.kind === 'failed' && outcome.error.code === 'concurrency_limited').length, 2, 'the two others are refused as concurrency_limited');
});

t.test('admission: the deployment\'s calls in flight', async (t) => {
  const { meter } = meterWith({ maxInFlight: 2 });
  const others = await Promise.all(Array.from({ length: 4 }, () => createWorkspace(stack)));
  const four = await Promise.all(others.map((other) => run(meter, other, search('lamp sim:slow=600'))));
  t.equal(delivered(four), 2, 'two in flight for the deployment');
  t.equal(four.filter((outcome) => outcome.kind === 'failed' && outcome.error.code === 'upstream_rate_limited').length, 2, 'the others are refused as upstream_rate_limited');
});

t.test('admission: the deployment\'s calls per second', async (t) => {
  // One clock second for the whole burst, whatever the machine's speed.
  const second = Date.now();
  const { meter } = meterWith({ callsPerSecond: 2, clock: () => second });
  const others = await Promise.all(Array.from({ length: 4 }, () => createWorkspace(stack)));
  const burst = await Promise.all(others.map((other) => run(meter, other, search('lamp'))));
  t.equal(delivered(burst), 2, 'two calls in one second');
  t.equal(burst.filter((outcome) => outcome.kind === 'failed' && outcome.error.code === 'upstream_rate_limited').length, 2, 'the others wait no longer than capacityWaitMs (0) and are refused');
});

t.test('admission: one workspace holds at most its share; patient calls wait their turn', async (t) => {
  const workspace = await createWorkspace(stack, { quota: 1000 });
  const shared = meterWith({ maxInFlight: 4, share: 0.5 });
  const greedy = await Promise.all(Array.from({ length: 4 }, () => run(shared.meter, workspace, search('lamp sim:slow=600'), { concurrency: 10 })));
  t.equal(delivered(greedy), 2, 'one workspace holds at most half');

  const patient = meterWith({ maxInFlight: 1 });
  const others = await Promise.all(Array.from({ length: 3 }, () => createWorkspace(stack)));
  const waited = await Promise.all(others.map((other) => run(patient.meter, other, search('lamp sim:slow=200'), { patience: 'patient' })));
  t.equal(delivered(waited), 3, 'patient calls wait their turn instead of failing');
});

t.test('a reservation made but not answered in time (accounts committed, the call timed out) is released at once', async (t) => {
  const late: QuotaLedger = {
    ...ledger,
    reserve: async (workspaceId, requestId) => {
      await ledger.reserve(workspaceId, requestId);
      throw new AppError('service_unavailable', 'accounts did not answer in time');
    },
  };
  const { meter, held } = meterWith({ ledger: late });
  const workspace = await createWorkspace(stack, { quota: 2 });
  t.match(await run(meter, workspace, search('lamp')), { kind: 'failed', error: { code: 'service_unavailable' } });
  t.equal(await held(), 0, 'permits given back');
  const quota = await quotaOf(workspace.workspaceId);
  t.strictSame([quota.used, quota.remaining], [0, 2], 'the unit is free again, not held until the reservation expires');
});

t.test('an answer not received, or whose delivery fails: given back uncharged, recorded, nothing left held', async (t) => {
  const { meter, held, charges, entries } = meterWith();
  const workspace = await createWorkspace(stack, { quota: 5 });

  const declined = await run(meter, workspace, search('lamp'), { patience: 'patient', deliver: async () => false });
  t.strictSame(declined, { kind: 'undelivered', quota: { limit: 5, used: 0, remaining: 5 }, requestId: declined.requestId });
  t.match(entries.at(-1), { requestId: declined.requestId, status: 499, code: null, charged: 0, resultCount: 5 }, 'recorded as not received');

  const failing = run(meter, workspace, search('lamp'), {
    patience: 'patient',
    deliver: async () => {
      throw new Error('the database went away');
    },
  });
  await t.rejects(failing, { message: 'the database went away' }, 'the delivery\'s own failure reaches its caller');
  t.match(entries.at(-1), { status: 500, code: 'internal_error', charged: 0 });

  t.equal(await held(), 0, 'permits given back');
  t.equal(await charges(), 0, 'no charge');
  const quota = await eventually('both reservations released', async () => {
    const figures = await quotaOf(workspace.workspaceId);
    return figures.remaining === 5 ? figures : undefined;
  });
  t.equal(quota.used, 0, 'nothing charged');
});

t.test('a charge that accounts refuses does not hold back the others settled with it', async (t) => {
  const poisoned = new Set<string>();
  const refusing: QuotaLedger = {
    ...ledger,
    settleBatch: async (requestIds, records) => {
      if (requestIds.some((requestId) => poisoned.has(requestId))) throw new AppError('invalid_request', 'refused for the test');
      return ledger.settleBatch(requestIds, records);
    },
  };
  const { meter, outbox, charges } = meterWith({ settle: false, ledger: refusing });
  const workspace = await createWorkspace(stack, { quota: 10 });
  const outcomes = [];
  for (let i = 0; i < 3; i += 1) outcomes.push(await run(meter, workspace, search('lamp')));
  poisoned.add(outcomes[1]!.requestId);
  t.equal(await charges(), 3, 'three charges wait in the outbox');
  outbox.start();
  await eventually('the outbox is emptied', async () => ((await charges()) === 0 ? true : undefined));
  const quota = await quotaOf(workspace.workspaceId);
  t.equal(quota.used, 2, 'the two others are charged');
  t.strictSame(await outbox.pendingOf(workspace.workspaceId), [], 'none is left counted as pending');
});

t.test('a full settlement batch is followed at once by the next: the interval caps transactions, not how many charges a second settle', async (t) => {
  // Batches of two, at most one a minute unless full: five charges settle in three batches, the first two full.
  const settled: number[] = [];
  const counting: QuotaLedger = {
    ...ledger,
    settleBatch: async (requestIds, records, allowanceCharges) => {
      settled.push(requestIds.length + (allowanceCharges?.length ?? 0));
      return ledger.settleBatch(requestIds, records, allowanceCharges);
    },
  };
  const { meter, outbox, charges } = meterWith({ settle: false, ledger: counting, batches: { batchSize: 2, batchIntervalMs: 60_000 } });
  const workspace = await createWorkspace(stack, { quota: 10 });
  for (let i = 0; i < 5; i += 1) t.equal((await run(meter, workspace, search('lamp'))).kind, 'delivered');
  t.equal(await charges(), 5, 'five charges wait in the outbox');
  outbox.start();
  await eventually('the outbox is emptied', async () => ((await charges()) === 0 ? true : undefined));
  t.strictSame(settled, [2, 2, 1], 'two full batches, then the rest');
  t.equal((await quotaOf(workspace.workspaceId)).used, 5);
});
