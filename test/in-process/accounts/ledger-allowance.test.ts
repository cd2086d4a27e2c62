import t from 'tap';
import { quotaPeriodAt } from '@comps/shared/db/period';
import { newRequestId } from '@comps/shared/ids';
import type { HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import {
  leaseAllowance,
  releaseExpiredAllowances,
  renewAllowances,
  returnAllowance,
} from '../../../services/accounts/src/ledger/allowance-service.js';
import { readCounter } from '../../../services/accounts/src/ledger/ledger-repository.js';
import { releaseQuota, reserveQuota, settleQuota, settleQuotaBatch } from '../../../services/accounts/src/ledger/ledger-service.js';
import { getUsage } from '../../../services/accounts/src/workspaces/workspace-service.js';
import { forAllAsync, integerBetween, type Random } from '../../helpers/property-test.js';
import { ledgerHarness } from '../../helpers/ledger-harness.js';
import type { LedgerContext } from '../../../services/accounts/src/ledger/ledger-context.js';
import { chargedRequests } from '../../helpers/charged-requests.js';

// The ledger's allowances in process, on pools made as accounts' main makes its own, with a clock of the test's.
const TTL_MS = 60_000;
const LEASE_MS = 2000;
const { db, pool, ledgerAt, workspaceWithQuota } = await ledgerHarness(t, { reservationTtlMs: TTL_MS, workspaceName: 'ledger-allowance' });
const NOW = new Date();
const period = quotaPeriodAt(NOW).key;

async function allowanceRow(id: string) {
  return db.selectFrom('quotaAllowances').select(['units', 'charged', 'returned', 'state']).where('id', '=', id).executeTakeFirstOrThrow();
}

async function chargedRows(workspaceId: string): Promise<string[]> {
  const rows = await chargedRequests(db, workspaceId);
  return rows.map((row) => row.requestId);
}

function entry(workspaceId: string, requestId: string): HistoryRecord {
  return { requestId, workspaceId, apiKeyId: null, apiKeyPrefix: null, method: 'GET', path: '/v1/scrape', status: 200, code: null, charged: 1, durationMs: 3, marketSite: 'market.com', hasKeyword: true, resultCount: 5, jobId: null };
}

async function lease(ledger: LedgerContext, workspaceId: string, units: number, allowanceId: string | null = null) {
  return leaseAllowance(ledger, { workspaceId, allowanceId, units, leaseMs: LEASE_MS });
}

t.test('a lease holds its block on the counter; a second is refused unless a block stays free after it', async (t) => {
  const workspaceId = await workspaceWithQuota(100);
  const ledger = ledgerAt(NOW);
  const first = await lease(ledger, workspaceId, 40);
  t.match(first, { ok: true, granted: 40, leaseMs: LEASE_MS, limit: 100, used: 0, free: 60 });
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 40 }, 'held as reserved: nothing can overspend it');
  t.strictSame(await lease(ledger, workspaceId, 40), { ok: false, reason: 'headroom', limit: 100, used: 0, free: 60 }, '60 free: 40 more would leave less than a block');
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 40 }, 'a refusal takes nothing');
  const small = await lease(ledger, workspaceId, 30, first.ok ? first.allowanceId : null);
  t.match(small, { ok: true, granted: 30, free: 30 }, '30 more on the same allowance leaves 30 free');
  t.equal(small.ok && first.ok && small.allowanceId, first.ok && first.allowanceId, 'a top-up keeps the allowance id');
  if (first.ok) t.match(await allowanceRow(first.allowanceId), { units: 70, charged: 0, returned: 0, state: 'held' });
});

t.test('successes are charged from their allowance once per request id, with their history entries', async (t) => {
  const workspaceId = await workspaceWithQuota(1000);
  const ledger = ledgerAt(NOW);
  const leased = await lease(ledger, workspaceId, 10);
  if (!leased.ok) throw new Error('lease refused');
  const { allowanceId } = leased;
  const requests = [newRequestId(), newRequestId(), newRequestId()];
  const outcome = await settleQuotaBatch(ledger, [], requests.map((requestId) => entry(workspaceId, requestId)), requests.map((requestId) => ({ requestId, allowanceId })));
  t.strictSame(outcome, { charged: 3, notCharged: 0, unknown: [] });
  t.strictSame(await readCounter(db, workspaceId, period), { used: 3, reserved: 7 }, 'three units moved from held to used');
  t.match(await allowanceRow(allowanceId), { units: 10, charged: 3, returned: 0 });

  // The outbox delivers at least once: the same charges again, also at once from two processes.
  const again = await Promise.all([ledgerAt(NOW), ledgerAt(NOW, pool())].map((other) => settleQuotaBatch(other, [], [], requests.map((requestId) => ({ requestId, allowanceId })))));
  t.ok(again.every((result) => result.charged === 3 && result.notCharged === 0), 'answered as charged');
  t.strictSame(await readCounter(db, workspaceId, period), { used: 3, reserved: 7 }, 'and charged nothing more');
  t.strictSame((await chargedRows(workspaceId)).sort(), [...requests].sort(), 'one charged row per request id');
  const history = await db.selectFrom('requestHistory').select(['requestId', 'charged']).where('workspaceId', '=', workspaceId).execute();
  t.equal(history.length, 3, 'the entries recorded with their charges');
  t.ok(history.every((row) => row.charged === 1));

  const racing = newRequestId();
  const raced = await Promise.all(Array.from({ length: 4 }, (_, index) => settleQuotaBatch(ledgerAt(NOW, index % 2 ? pool(2) : db), [], [], [{ requestId: racing, allowanceId }])));
  t.ok(raced.every((result) => result.charged === 1), 'a new charge sent four times at once: every answer says charged');
  t.strictSame(await readCounter(db, workspaceId, period), { used: 4, reserved: 6 }, 'and it is charged once');
});

t.test('a return frees at most what the allowance still holds; the sweep frees exactly its unused units after the lease', async (t) => {
  const workspaceId = await workspaceWithQuota(1000);
  const ledger = ledgerAt(NOW);
  const leased = await lease(ledger, workspaceId, 10);
  if (!leased.ok) throw new Error('lease refused');
  const { allowanceId } = leased;
  await settleQuotaBatch(ledger, [], [], [newRequestId(), newRequestId()].map((requestId) => ({ requestId, allowanceId })));
  t.strictSame(await returnAllowance(ledger, { allowanceId, units: 3 }), { returned: 3 });
  t.strictSame(await readCounter(db, workspaceId, period), { used: 2, reserved: 5 });
  t.equal(await releaseExpiredAllowances(ledger, workspaceId), 0, 'within its lease, nothing is freed');

  ledger.clock.time = new Date(NOW.getTime() + LEASE_MS + 1);
  t.equal(await releaseExpiredAllowances(ledger, workspaceId), 5, 'after it: the five units neither charged nor returned');
  t.strictSame(await readCounter(db, workspaceId, period), { used: 2, reserved: 0 });
  t.match(await allowanceRow(allowanceId), { units: 10, charged: 2, returned: 3, state: 'expired' });
  t.strictSame(await returnAllowance(ledger, { allowanceId, units: 5 }), { returned: 0 }, 'a return after the lease frees nothing twice');
  t.strictSame((await renewAllowances(ledger, { allowanceIds: [allowanceId], leaseMs: LEASE_MS })).renewed, [], 'nor is it renewed');
  t.strictSame(await readCounter(db, workspaceId, period), { used: 2, reserved: 0 });
});

t.test('a charge from an allowance past its lease is made only while the quota allows it', async (t) => {
  const workspaceId = await workspaceWithQuota(4);
  const ledger = ledgerAt(NOW);
  const leased = await lease(ledger, workspaceId, 2);
  if (!leased.ok) throw new Error('lease refused');
  const { allowanceId } = leased;
  ledger.clock.time = new Date(NOW.getTime() + LEASE_MS + 1);
  const late = newRequestId();
  t.strictSame(await settleQuotaBatch(ledger, [], [], [{ requestId: late, allowanceId }]), { charged: 1, notCharged: 0, unknown: [] }, 'not swept yet: its units are still held, and one is charged');
  t.equal(await releaseExpiredAllowances(ledger, workspaceId), 1, 'the sweep frees the other');
  // The quota is now taken by others: a late charge finds nothing left.
  const others = [newRequestId(), newRequestId(), newRequestId()];
  for (const requestId of others) t.equal((await reserveQuota(ledger, { workspaceId, requestId })).ok, true);
  const tooLate = newRequestId();
  t.strictSame(await settleQuotaBatch(ledger, [], [entry(workspaceId, tooLate)], [{ requestId: tooLate, allowanceId }]), { charged: 0, notCharged: 1, unknown: [] });
  t.strictSame(await readCounter(db, workspaceId, period), { used: 1, reserved: 3 }, 'no overspend');
  const [history] = await db.selectFrom('requestHistory').select('charged').where('requestId', '=', tooLate).execute();
  t.equal(history?.charged, 0, 'its entry says not charged');
  t.strictSame(await settleQuotaBatch(ledger, [], [], [{ requestId: newRequestId(), allowanceId: 'alw_00000000000000000000000000' }]).then((result) => result.unknown.length), 1, 'an unknown allowance is reported');
});

t.test('a refused reservation frees the units of an allowance past its lease and takes one', async (t) => {
  const workspaceId = await workspaceWithQuota(4);
  const ledger = ledgerAt(NOW);
  t.equal((await lease(ledger, workspaceId, 2)).ok, true);
  t.equal((await reserveQuota(ledger, { workspaceId, requestId: newRequestId() })).ok, true);
  t.equal((await reserveQuota(ledger, { workspaceId, requestId: newRequestId() })).ok, true);
  t.equal((await reserveQuota(ledger, { workspaceId, requestId: newRequestId() })).ok, false, 'within its lease, the allowance holds two units');
  ledger.clock.time = new Date(NOW.getTime() + LEASE_MS + 1);
  t.strictSame(await reserveQuota(ledger, { workspaceId, requestId: newRequestId() }), { ok: true, limit: 4, used: 0, remaining: 1 });
  t.strictSame(await readCounter(db, workspaceId, period), { used: 0, reserved: 3 });
});

t.test('renewal extends a lease from now, never past its month, and answers the figures', async (t) => {
  const workspaceId = await workspaceWithQuota(1000);
  const ledger = ledgerAt(NOW);
  const leased = await lease(ledger, workspaceId, 10);
  if (!leased.ok) throw new Error('lease refused');
  ledger.clock.time = new Date(NOW.getTime() + LEASE_MS - 100);
  const { renewed } = await renewAllowances(ledger, { allowanceIds: [leased.allowanceId], leaseMs: LEASE_MS });
  t.strictSame(renewed, [{ allowanceId: leased.allowanceId, leaseMs: LEASE_MS, limit: 1000, used: 0, free: 990 }]);
  ledger.clock.time = new Date(NOW.getTime() + LEASE_MS + 500);
  t.equal(await releaseExpiredAllowances(ledger, workspaceId), 0, 'renewed: still held after its first lease');

  const endOfMonth = new Date(quotaPeriodAt(NOW).end.getTime() - 500);
  const late = ledgerAt(endOfMonth);
  const short = await lease(late, workspaceId, 10);
  t.match(short, { ok: true, leaseMs: 500 }, 'a lease ends with its month');
  late.clock.time = quotaPeriodAt(NOW).end;
  if (short.ok) t.strictSame((await renewAllowances(late, { allowanceIds: [short.allowanceId], leaseMs: LEASE_MS })).renewed, [], 'and is not renewed into the next');
});

t.test('usage counts answered allowance charges as used at once, and idle allowance units as remaining', async (t) => {
  const workspaceId = await workspaceWithQuota(100);
  const ledger = ledgerAt(NOW);
  const leased = await lease(ledger, workspaceId, 20);
  if (!leased.ok) throw new Error('lease refused');
  const { allowanceId } = leased;
  const settled = newRequestId();
  await settleQuotaBatch(ledger, [], [], [{ requestId: settled, allowanceId }]);
  // Of the 19 units still held: 2 answered (their charges on their way), 1 in flight, 16 idle.
  const answered = [newRequestId(), newRequestId()];
  const usage = await getUsage(db, workspaceId, NOW, [...answered, settled], [{ allowanceId, units: 16 }]);
  t.strictSame([usage.used, usage.remaining], [3, 96], 'used: 1 settled + 2 answered; remaining: 100 - 3 - the one in flight');
  const claimed = await getUsage(db, workspaceId, NOW, [], [{ allowanceId, units: 500 }]);
  t.equal(claimed.remaining, 99, 'idle units are bounded by what the allowance holds');
  await returnAllowance(ledger, { allowanceId, units: 19 });
  const quiet = await getUsage(db, workspaceId, NOW);
  t.equal(quiet.used + quiet.remaining, 100, 'once nothing is held, used and remaining make the quota');
});

/**
 * A reference model of one workspace's ledger: the quota, the charges, the units held by
 * reservations and by allowances, and what a process has taken from each allowance. Every
 * operation is applied to the model and to the ledger, and the two must agree after each.
 */
interface ModelAllowance {
  id: string;
  units: number;
  charged: number;
  returned: number;
  expiresAt: number;
  state: 'held' | 'expired';
  /** Units taken by requests and not yet charged or given back (the process's side). */
  inFlight: string[];
  /** Units given back to the process's allowance, free to take again. */
  idle: number;
}

interface Model {
  limit: number;
  used: number;
  /** Per-request reservations held. */
  reservedOwn: Set<string>;
  allowances: ModelAllowance[];
  /** Request id to what the ledger made of it. */
  outcomes: Map<string, 'charged' | 'released'>;
}

const heldOf = (allowance: ModelAllowance) => allowance.units - allowance.charged - allowance.returned;
const reservedOf = (model: Model) => model.reservedOwn.size + model.allowances.filter((a) => a.state === 'held').reduce((sum, a) => sum + heldOf(a), 0);
const pick = <T>(random: Random, items: T[]): T | undefined => (items.length === 0 ? undefined : items[integerBetween(random, 0, items.length - 1)]);

t.test('property: no sequence of lease, take, charge, return, renewal and expiry charges more than the quota or a request twice, and expiry frees exactly the unused units', async (t) => {
  const CASES = 12;
  const STEPS = 30;
  let checked = 0;
  /** Steps checked while a reservation of its own was held from an earlier step. */
  let heldAcross = 0;
  // Each case a subtest named by its seed: a failed assertion says which sequence to replay.
  await forAllAsync(CASES, (random, seed) => t.test(`PROPERTY_SEED=${seed}`, async (t) => {
    const limit = integerBetween(random, 20, 60);
    const workspaceId = await workspaceWithQuota(limit);
    const ledger = ledgerAt(NOW);
    const model: Model = { limit, used: 0, reservedOwn: new Set(), allowances: [], outcomes: new Map() };
    const now = () => ledger.clock.time.getTime();
    const lateCharge = (requestId: string) => {
      const ok = model.used + reservedOf(model) + 1 <= model.limit;
      if (ok) model.used += 1;
      model.outcomes.set(requestId, ok ? 'charged' : 'released');
      return ok;
    };
    /** The ledger's charge of one success taken from `allowance`, as the model predicts it. */
    const chargeInModel = (allowance: ModelAllowance, requestId: string) => {
      const seen = model.outcomes.get(requestId);
      if (seen === 'charged') return;
      if (seen === 'released') return void lateCharge(requestId);
      if (allowance.state === 'held' && heldOf(allowance) > 0) {
        allowance.charged += 1;
        model.used += 1;
        model.outcomes.set(requestId, 'charged');
      } else lateCharge(requestId);
    };

    for (let step = 0; step < STEPS; step += 1) {
      const roll = random();
      const live = model.allowances.filter((a) => a.state === 'held');
      if (roll < 0.15) {
        // Lease a block, or more on one.
        const units = integerBetween(random, 1, 8);
        const onto = random() < 0.5 ? pick(random, model.allowances) : undefined;
        const free = model.limit - model.used - reservedOf(model);
        const answer = await lease(ledger, workspaceId, units, onto?.id ?? null);
        t.equal(answer.ok, free - units >= units, `lease of ${units} with ${free} free`);
        if (answer.ok) {
          const topUp = onto && onto.state === 'held' && onto.expiresAt > now();
          if (topUp) {
            t.equal(answer.allowanceId, onto.id);
            onto.units += units;
            onto.idle += units;
            onto.expiresAt = Math.max(onto.expiresAt, now() + LEASE_MS);
          } else {
            model.allowances.push({ id: answer.allowanceId, units, charged: 0, returned: 0, expiresAt: now() + LEASE_MS, state: 'held', inFlight: [], idle: units });
          }
        }
      } else if (roll < 0.45) {
        // A request takes an idle unit of an allowance the process still uses.
        const from = pick(random, live.filter((a) => a.idle > 0 && a.expiresAt > now()));
        if (from) {
          from.idle -= 1;
          from.inFlight.push(newRequestId());
        }
      } else if (roll < 0.65) {
        // Requests in flight end: successes are charged (a batch, sometimes delivered twice), failures give their unit back.
        const from = pick(random, model.allowances.filter((a) => a.inFlight.length > 0));
        if (from) {
          const ending = from.inFlight.splice(0, integerBetween(random, 1, from.inFlight.length));
          const successes = ending.filter(() => random() < 0.7);
          from.idle += ending.length - successes.length;
          if (successes.length > 0) {
            const twice = random() < 0.3;
            const charges = successes.map((requestId) => ({ requestId, allowanceId: from.id }));
            await settleQuotaBatch(ledger, [], [], twice ? [...charges, ...charges] : charges);
            for (const requestId of successes) chargeInModel(from, requestId);
            if (twice) await settleQuotaBatch(ledgerAt(ledger.clock.time, pool(1)), [], [], charges);
          }
        }
      } else if (roll < 0.72) {
        // A charge delivered again long after (the outbox redelivers): never a second charge.
        const [requestId] = [...model.outcomes.entries()].filter(([, outcome]) => outcome === 'charged').map(([id]) => id);
        const allowance = pick(random, model.allowances);
        if (requestId && allowance) await settleQuotaBatch(ledger, [], [], [{ requestId, allowanceId: allowance.id }]);
      } else if (roll < 0.8) {
        // The process gives back idle units (stopping, or idle), perhaps claiming more than it has.
        const from = pick(random, live.filter((a) => a.idle > 0));
        if (from) {
          const units = integerBetween(random, 1, from.idle + 2);
          const expected = Math.min(units, heldOf(from));
          t.strictSame(await returnAllowance(ledger, { allowanceId: from.id, units }), { returned: expected });
          from.returned += expected;
          from.idle = Math.max(0, from.idle - units);
        }
      } else if (roll < 0.86) {
        const ids = live.map((a) => a.id);
        if (ids.length > 0) {
          const { renewed } = await renewAllowances(ledger, { allowanceIds: ids, leaseMs: LEASE_MS });
          const renewable = live.filter((a) => a.expiresAt > now());
          t.strictSame(renewed.map((r) => r.allowanceId).sort(), renewable.map((a) => a.id).sort(), 'the allowances within their lease are renewed');
          for (const allowance of renewable) allowance.expiresAt = Math.max(allowance.expiresAt, now() + LEASE_MS);
        }
      } else if (roll < 0.91) {
        ledger.clock.time = new Date(now() + integerBetween(random, 200, 1500));
      } else if (roll < 0.94) {
        // The sweep: exactly the unused units of allowances past their lease come back.
        const expiring = live.filter((a) => a.expiresAt < now());
        const freed = await releaseExpiredAllowances(ledger, workspaceId);
        t.equal(freed, expiring.reduce((sum, a) => sum + heldOf(a), 0), 'the sweep frees the units neither charged nor returned');
        for (const allowance of expiring) allowance.state = 'expired';
      } else if (model.reservedOwn.size > 0 && random() < 0.4) {
        // A request that held its own unit across the steps before ends: a success charged, or a failure released.
        const requestId = pick(random, [...model.reservedOwn])!;
        model.reservedOwn.delete(requestId);
        if (random() < 0.5) {
          await settleQuota(ledger, requestId);
          model.used += 1;
          model.outcomes.set(requestId, 'charged');
        } else await releaseQuota(ledger, requestId);
      } else {
        // A request that reserves its own unit, then succeeds or fails now, or holds it for the steps after.
        const requestId = newRequestId();
        const answer = await reserveQuota(ledger, { workspaceId, requestId });
        let fits = model.used + reservedOf(model) + 1 <= model.limit;
        if (!fits) {
          // Refused at the limit, the ledger frees what allowances past their lease hold, and looks again.
          for (const allowance of live.filter((a) => a.expiresAt < now())) allowance.state = 'expired';
          fits = model.used + reservedOf(model) + 1 <= model.limit;
        }
        t.equal(answer.ok, fits, 'a reservation is refused only when the quota is used up or held');
        if (answer.ok) {
          const next = random();
          if (next < 0.35) {
            await settleQuota(ledger, requestId);
            model.used += 1;
            model.outcomes.set(requestId, 'charged');
          } else if (next < 0.7) await releaseQuota(ledger, requestId);
          else model.reservedOwn.add(requestId);
        }
      }

      const counter = await readCounter(db, workspaceId, period);
      t.ok(counter.used + counter.reserved <= model.limit, `never over the quota: used ${counter.used} + held ${counter.reserved} of ${model.limit}`);
      t.strictSame(counter, { used: model.used, reserved: reservedOf(model) }, `step ${step}: the counter agrees with the model`);
      checked += 1;
      if (model.reservedOwn.size > 0) heldAcross += 1;
    }
    const rows = await chargedRows(workspaceId);
    t.equal(new Set(rows).size, rows.length, 'no request id charged twice');
    t.equal(rows.length, model.used, 'every unit used is one charged request');
    for (const allowance of model.allowances) {
      t.match(await allowanceRow(allowance.id), { units: allowance.units, charged: allowance.charged, returned: allowance.returned, state: allowance.state });
    }
  }).then(() => undefined));
  t.equal(checked, (process.env.PROPERTY_SEED ? 1 : CASES) * STEPS, 'every step of every case checked against the model');
  if (!process.env.PROPERTY_SEED) t.ok(heldAcross > 0, `the model held reservations of their own across steps (${heldAcross} steps)`);
});
