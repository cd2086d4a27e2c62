import t from 'tap';
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { createClient } from 'redis';
import { accountsQuotaLedger, createAccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { AppError } from '@comps/shared/errors/app-error';
import { newRequestId } from '@comps/shared/ids';
import { createLogger } from '@comps/shared/logging/create-logger';
import { MarketClient } from '@comps/shared/market/market-client';
import { marketConfigFrom, marketEnvFields } from '@comps/shared/market/market-config';
import { Admission } from '@comps/shared/metering/admission';
import type { MarketCall } from '@comps/shared/metering/market-call';
import { Meter, type MeterDeps } from '@comps/shared/metering/meter';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';
import { connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { z } from 'zod';
import { accountsClient, createWorkspace } from '../helpers/accounts-client.js';
import { eventually } from '../helpers/http-client.js';
import { SAMPLE_QUERY } from '../helpers/listing-query.js';
import { startTestStack } from '../helpers/test-stack.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';

// The metering module in-process, on the real Redis, the real accounts service and the simulator.
const stack = await startTestStack(t);
const logger = createLogger('meter-test', 'silent');
const redis = createRedisClient({ url: TEST_REDIS_URL }, logger);
await connectInBackground(redis, logger);
const probe = await createClient({ url: TEST_REDIS_URL }).connect();
const agent = new Agent();
const accounts = createAccountsClient({ url: stack.accountsInternalUrl, internalToken: stack.internalToken, timeoutMs: 3000, dispatcher: agent });
const ledger = accountsQuotaLedger(accounts);
const market = new MarketClient(marketConfigFrom(z.object(marketEnvFields).parse({ MARKET_SIM_URL: `http://127.0.0.1:${stack.ports.marketSim}`, MARKET_TIMEOUT_MS: '5000' })));
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

function meterWith(options: { settle?: boolean; prefix?: string; maxInFlight?: number; callsPerSecond?: number; share?: number; ledger?: QuotaLedger; capacityWaitMs?: number; dataGate?: MeterDeps['dataGate'] } = {}) {
  const prefix = options.prefix ?? `test:meter:${randomBytes(4).toString('hex')}:`;
  // The settler blocks on its connection: it gets one of its own.
  const reader = createRedisClient({ url: TEST_REDIS_URL, commandTimeoutMs: 5000 }, logger);
  void connectInBackground(reader, logger);
  const outbox = new SettlementOutbox(redis, reader, options.ledger ?? ledger, logger, { key: `${prefix}settlements` });
  if (options.settle !== false) outbox.start();
  outboxes.push(outbox);
  readers.push(reader);
  const admission = new Admission(
    redis,
    outbox.keys,
    { keyPrefix: `${prefix}upstream:`, leaseMs: 3000, maxInFlight: options.maxInFlight ?? 100, callsPerSecond: options.callsPerSecond ?? 1000, workspaceShare: options.share ?? 1 },
    logger,
  );
  admissions.push(admission);
  const meter = new Meter({
    market,
    admission,
    ledger: options.ledger ?? ledger,
    dataGate: options.dataGate ?? { sold: 'open', active: 'open', item: 'open' },
    enabledSites: ['market.com', 'market.de'],
    capacityWaitMs: options.capacityWaitMs ?? 0,
    logger,
  });
  const held = async () => Number(await probe.zCard(`${prefix}upstream:in-flight`));
  const charges = async () => Number(await probe.xLen(`${prefix}settlements`));
  return { meter, outbox, prefix, held, charges };
}

const search = (keyword: string, extra: Partial<typeof SAMPLE_QUERY> = {}): MarketCall => ({ kind: 'search', query: { ...SAMPLE_QUERY, keyword, count: 5, ...extra } });
const history = { method: 'GET', path: '/v1/scrape', jobId: null, apiKeyId: null, apiKeyPrefix: null };
const run = (meter: Meter, workspace: { workspaceId: string }, call: MarketCall, options: { signal?: AbortSignal; concurrency?: number; patience?: 'brief' | 'patient' } = {}) =>
  meter.run({
    workspace: { id: workspace.workspaceId, concurrency: options.concurrency ?? 10 },
    requestId: newRequestId(),
    call,
    signal: options.signal ?? new AbortController().signal,
    patience: options.patience ?? 'brief',
    history,
  });
const quotaOf = (workspaceId: string) => accountsClient(stack).usage.get.query({ workspaceId });

t.test('a success: the parsed result, one charge handed to the outbox, nothing left held', async (t) => {
  // No settler runs here, so the charge is seen waiting in the outbox.
  const { meter, held, charges, outbox } = meterWith({ settle: false });
  const workspace = await createWorkspace(stack, { quota: 10 });
  const outcome = await run(meter, workspace, search('lamp'));
  t.ok(outcome.ok, 'succeeded');
  if (!outcome.ok) return;
  t.ok('items' in outcome.value && outcome.value.items.length === 5, 'the parsed collection, not bytes');
  t.match(outcome.record, { status: 200, code: null, charged: 1, resultCount: 5, hasKeyword: true, marketSite: 'market.com' });
  t.match(outcome.quota, { limit: 10, used: 0, remaining: 9 });
  t.equal(await held(), 0, 'permits given back');
  t.equal(await charges(), 1, 'the charge waits in the outbox');
  t.strictSame(await outbox.pendingOf(workspace.workspaceId), [outcome.record.requestId], 'and counts as answered');
});

t.test('a charge carries its history entry: settled together, even when no history writer ever sends it', async (t) => {
  // Nothing here hands the record to a HistoryWriter: a process killed before its writer flushed.
  const { meter } = meterWith();
  const workspace = await createWorkspace(stack, { quota: 10 });
  const outcome = await run(meter, workspace, search('lamp'));
  t.ok(outcome.ok, 'succeeded');
  const entries = await eventually(async () => {
    const { entries } = await accountsClient(stack).history.list.query({ workspaceId: workspace.workspaceId, limit: 10 });
    return entries.length > 0 ? entries : undefined;
  });
  t.match(entries, [{ requestId: outcome.record.requestId, charged: 1, status: 200, resultCount: 5, path: '/v1/scrape' }]);
  t.equal((await quotaOf(workspace.workspaceId)).used, 1, 'and the charge with it');
});

t.test('a failure at each step gives back everything taken before it and charges nothing', async (t) => {
  const workspace = await createWorkspace(stack, { quota: 3 });
  const before = await quotaOf(workspace.workspaceId);

  const gated = meterWith({ dataGate: { sold: 'closed', active: 'open', item: 'open' } });
  const closed = await run(gated.meter, workspace, search('lamp'));
  t.match(closed, { ok: false, error: { code: 'data_gate_closed' } }, 'the gate: nothing taken');
  t.match(await run(gated.meter, workspace, search('lamp', { marketSite: 'market.fr' })), { ok: false, error: { code: 'data_gate_closed' } });
  const site = await run(meterWith().meter, workspace, search('lamp', { marketSite: 'market.fr', sold: true }));
  t.match(site, { ok: false, error: { code: 'site_not_enabled' } }, 'the site: nothing taken');

  const full = meterWith();
  const slow = run(full.meter, workspace, search('lamp sim:slow=800'), { concurrency: 1 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const refused = await run(full.meter, workspace, search('lamp'), { concurrency: 1 });
  t.match(refused, { ok: false, error: { code: 'concurrency_limited' }, quota: null }, 'admission: nothing reserved');
  t.equal((await slow).ok, true);

  const upstream = meterWith();
  for (const [keyword, code] of [['lamp sim:error', 'upstream_error'], ['lamp sim:block', 'upstream_blocked'], ['lamp sim:throttle', 'upstream_rate_limited']] as const) {
    const failed = await run(upstream.meter, workspace, search(keyword));
    t.match(failed, { ok: false, error: { code }, record: { status: new AppError(code, '').status, charged: 0 } }, `the upstream call: ${code}`);
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
  await t.rejects(run(down.meter, workspace, search('lamp')), { code: 'service_unavailable' }, 'the reservation: accounts down is an error, not a value');
  t.equal(await down.held(), 0, 'and the permits taken before it are given back');

  const after = await eventually(async () => {
    const quota = await quotaOf(workspace.workspaceId);
    return quota.used + quota.remaining === quota.plan.monthlyQuota ? quota : undefined;
  });
  t.equal(after.used, before.used + 1, 'only the one success was charged');
  t.equal(after.remaining, before.remaining - 1, 'no unit is left reserved');
});

t.test('quota exhausted: refused before any upstream call, permits given back', async (t) => {
  const { meter, held } = meterWith();
  const workspace = await createWorkspace(stack, { quota: 0 });
  const outcome = await run(meter, workspace, search('lamp'));
  t.match(outcome, { ok: false, error: { code: 'quota_exhausted' }, quota: { limit: 0, remaining: 0 }, record: { status: 403, charged: 0 } });
  t.equal(await held(), 0);
});

t.test('an abort during the upstream call charges nothing and releases the lease, the reservation and the capacity permit', async (t) => {
  const { meter, held, charges, prefix } = meterWith();
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
  t.match(outcome, { ok: false, abandoned: true, record: { status: 499, charged: 0 } });
  t.equal(await held(), 0, 'capacity permit released');
  t.equal(Number(await probe.zCard(`${prefix}upstream:in-flight:${workspace.workspaceId}`)), 0, 'workspace lease released');
  t.equal(await charges(), 0, 'no charge');
  const quota = await quotaOf(workspace.workspaceId);
  t.strictSame([quota.used, quota.remaining], [0, 5], 'reservation released');
});

t.test('combined admission: concurrency, in-flight capacity, calls per second and the workspace share', async (t) => {
  const slowCall = search('lamp sim:slow=600');
  const concurrency = meterWith();
  const workspace = await createWorkspace(stack, { quota: 1000 });
  const three = await Promise.all(Array.from({ length: 5 }, () => run(concurrency.meter, workspace, slowCall, { concurrency: 3 })));
  t.equal(three.filter((outcome) => outcome.ok).length, 3, 'concurrency 3: three of five run');
  t.equal(three.filter((outcome) => !outcome.ok && outcome.error.code === 'concurrency_limited').length, 2);

  const inFlight = meterWith({ maxInFlight: 2 });
  const others = await Promise.all(Array.from({ length: 4 }, () => createWorkspace(stack)));
  const two = await Promise.all(others.map((other) => run(inFlight.meter, other, slowCall)));
  t.equal(two.filter((outcome) => outcome.ok).length, 2, 'two in flight for the deployment');
  t.ok(two.filter((outcome) => !outcome.ok).every((outcome) => !outcome.ok && outcome.error.code === 'upstream_rate_limited'));

  const perSecond = meterWith({ callsPerSecond: 2 });
  const burst = await Promise.all(others.map((other) => run(perSecond.meter, other, search('lamp'))));
  t.ok(burst.filter((outcome) => outcome.ok).length <= 2, 'two calls a second for the deployment');

  const shared = meterWith({ maxInFlight: 4, share: 0.5 });
  const greedy = await Promise.all(Array.from({ length: 4 }, () => run(shared.meter, workspace, slowCall, { concurrency: 10 })));
  t.equal(greedy.filter((outcome) => outcome.ok).length, 2, 'one workspace holds at most half');

  const patient = meterWith({ maxInFlight: 1 });
  const waited = await Promise.all(others.slice(0, 3).map((other) => run(patient.meter, other, search('lamp sim:slow=200'), { patience: 'patient' })));
  t.ok(waited.every((outcome) => outcome.ok), 'patient calls wait their turn instead of failing');
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
  await t.rejects(run(meter, workspace, search('lamp')), { code: 'service_unavailable' });
  t.equal(await held(), 0, 'permits given back');
  const quota = await quotaOf(workspace.workspaceId);
  t.strictSame([quota.used, quota.remaining], [0, 2], 'the unit is free again, not held until the reservation expires');
});

t.test('a confirmation that never comes or fails: the answer is given back uncharged, nothing left held', async (t) => {
  const { meter, held, charges } = meterWith();
  const workspace = await createWorkspace(stack, { quota: 5 });
  const confirmRun = (confirm: () => Promise<boolean>, signal: AbortSignal) =>
    meter.run({ workspace: { id: workspace.workspaceId, concurrency: 10 }, requestId: newRequestId(), call: search('lamp'), signal, patience: 'patient', confirm, history });

  const stopping = new AbortController();
  const waiting = confirmRun(() => new Promise<boolean>(() => {}), stopping.signal);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(await held(), 1, 'the permit is held while the confirmation is awaited');
  stopping.abort(new AppError('service_unavailable', 'stopping'));
  t.match(await waiting, { ok: false, abandoned: true, record: { charged: 0 } }, 'the caller\'s signal ends the wait');

  const failing = await confirmRun(async () => {
    throw new Error('the database went away');
  }, new AbortController().signal);
  t.match(failing, { ok: false, abandoned: true, record: { charged: 0 } }, 'a confirmation that throws is a no');

  t.equal(await held(), 0, 'permits given back');
  t.equal(await charges(), 0, 'no charge');
  const quota = await eventually(async () => {
    const figures = await quotaOf(workspace.workspaceId);
    return figures.remaining === 5 ? figures : undefined;
  });
  t.equal(quota.used, 0, 'reservations released');
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
  poisoned.add(outcomes[1]!.record.requestId);
  t.equal(await charges(), 3, 'three charges wait in the outbox');
  outbox.start();
  await eventually(async () => ((await charges()) === 0 ? true : undefined));
  const quota = await quotaOf(workspace.workspaceId);
  t.equal(quota.used, 2, 'the two others are charged');
  t.strictSame(await outbox.pendingOf(workspace.workspaceId), [], 'none is left counted as pending');
});
