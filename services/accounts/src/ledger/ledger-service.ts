import type { HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import type { AllowanceCharge, QuotaSnapshot, ReserveOutcome, SettleBatchOutcome, SettleOutcome } from '@comps/shared/internal/accounts/quota';
import { quotaPeriodAt } from '@comps/shared/db/period';
import { retryingDeadlocks, withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { recordHistory } from '../history/history-service.js';
import type { LedgerContext } from './ledger-context.js';
import type { AccountsExecutor } from '../db/database.js';
import { changeAllowance, heldUnitsOf, insertAllowanceCharges, lockAllowances, type Allowance } from './allowance-repository.js';
import { releaseExpiredAllowances } from './allowance-service.js';
import { monthlyQuotaOf } from './monthly-quota.js';
import {
  adjustCounter,
  countUnsettled,
  deleteSettledReservations,
  ensureCounter,
  findReservation,
  listExpiredReservations,
  lockReservations,
  readCounter,
  reserveUnit,
  setReservationState,
  type Counter,
} from './ledger-repository.js';
import { deleteInBatches } from '@comps/shared/db/delete-in-batches';

/**
 * The usage ledger. A request reserves one unit before it calls upstream; success settles the
 * reservation into a charge, failure releases it, and a reservation whose request died expires
 * and is released by the sweeper. The counter row of the period is the single point that every
 * reservation passes through with a conditional UPDATE, so concurrent callers cannot overspend (a
 * reservation makes it in the stored procedure reserve_quota_unit: every charged request reserves,
 * and one round trip to the database costs less than the five of a transaction from here).
 * Connections run at READ COMMITTED (see createDb), so these short transactions take no gap locks.
 */

function snapshot(limit: number, counter: { used: number; reserved: number }): QuotaSnapshot {
  return { limit, used: counter.used, remaining: Math.max(0, limit - counter.used - counter.reserved) };
}

/** More calls of the procedure after `no_counter` or `again`: each is a race lost to another reservation, rare. */
const AGAIN_TRIES = 3;

/**
 * Takes one unit and records the reservation: one round trip in the common case (a new request id, a
 * counter row for the month). The first reservation of a month creates the counter; a request id seen
 * before is a retry, answered as the first was. `expiredHeld`: refused while units of this workspace
 * are held by reservations past their lease.
 */
async function tryReserve(
  ledger: LedgerContext,
  workspaceId: string,
  requestId: string,
  limit: number,
): Promise<{ ok: boolean; counter: Counter; expiredHeld: boolean }> {
  const now = ledger.now();
  const period = quotaPeriodAt(now).key;
  const expiresAt = new Date(now.getTime() + ledger.reservationTtlMs);
  const reserve = () => retryingDeadlocks(() => reserveUnit(ledger.db, { requestId, workspaceId, periodStart: period, expiresAt }, limit, now));
  let attempt = await reserve();
  // The month's first reservation creates its counter; a counter that gained room while the call looked is asked again.
  for (let tries = 1; (attempt.outcome === 'no_counter' || attempt.outcome === 'again') && tries <= AGAIN_TRIES; tries += 1) {
    if (attempt.outcome === 'no_counter') await ensureCounter(ledger.db, workspaceId, period);
    attempt = await reserve();
  }
  switch (attempt.outcome) {
    case 'reserved':
      return { ok: true, counter: attempt.counter, expiredHeld: false };
    case 'expired':
    case 'refused':
      return { ok: false, counter: attempt.counter, expiredHeld: attempt.outcome === 'expired' };
    case 'seen':
      return { ...(await withTransaction(ledger.db, (trx) => retriedReservation(trx, requestId, workspaceId, limit, expiresAt, now))), expiredHeld: false };
    case 'no_counter':
    case 'again':
      // Lost to other reservations every time (a burst at the start of a month): busy, not broken, and
      // not a refusal (the counter had room). The caller may try again at once.
      throw new AppError('service_unavailable', `The quota counter of ${workspaceId} for ${period} is busy; try again`, { retryAfter: 1 });
  }
}

/** A reserve call for a request id that already has a reservation: a retry, answered as the first was. */
async function retriedReservation(trx: AccountsExecutor, requestId: string, workspaceId: string, limit: number, expiresAt: Date, now: Date) {
  const existing = await findReservation(trx, requestId);
  if (!existing || existing.workspaceId !== workspaceId) throw new AppError('invalid_request', `Request id ${requestId} belongs to another reservation`);
  if (existing.state === 'released') {
    if (!(await adjustCounter(trx, workspaceId, existing.periodStart, { reserve: 1, charge: 0 }, limit))) {
      return { ok: false, counter: await readCounter(trx, workspaceId, existing.periodStart) };
    }
    await setReservationState(trx, [requestId], { from: 'released', to: 'reserved', at: now, expiresAt });
  }
  return { ok: true, counter: await readCounter(trx, workspaceId, existing.periodStart) };
}

export async function reserveQuota(ledger: LedgerContext, input: { workspaceId: string; requestId: string }): Promise<ReserveOutcome> {
  const limit = await monthlyQuotaOf(ledger, input.workspaceId);
  let attempt = await tryReserve(ledger, input.workspaceId, input.requestId, limit);
  if (attempt.expiredHeld) {
    // Units held by requests or allowances whose process died may be all that stands in the way: free them and look again.
    const freed = (await releaseExpiredReservations(ledger, input.workspaceId)) + (await releaseExpiredAllowances(ledger, input.workspaceId));
    if (freed > 0) attempt = await tryReserve(ledger, input.workspaceId, input.requestId, limit);
  }
  const quota = snapshot(limit, attempt.counter);
  return attempt.ok ? { ok: true, ...quota } : { ok: false, reason: 'quota_exhausted', ...quota };
}

/** The charges of one month's counter in a settlement, applied together (counters in one order). */
interface CounterWork {
  workspaceId: string;
  periodStart: string;
  /** Units held (by a reservation, or by an allowance) that become charges. */
  moved: number;
  /** Charges whose unit is no longer held (its lease ran out): made only while the quota allows. */
  late: Array<{ requestId: string; reservation: boolean; allowanceId: string | null }>;
}

/**
 * Turns successes into charges, exactly once each, in the caller's transaction. A request that
 * reserved its own unit: its unit moves from `reserved` to `used` (a charge settled before stays as
 * it was). A success answered with a unit of an allowance: the allowance's unit moves the same way
 * and a row under its request id records it (the primary key makes it once). A unit no longer held
 * (a reservation released after its lease, an allowance freed after its lease or with nothing left)
 * is charged only if the quota still allows it. Locks are taken in one order everywhere:
 * allowances, then reservations, then counters.
 */
async function settleCharges(
  ledger: LedgerContext,
  trx: AccountsExecutor,
  requestIds: string[],
  allowanceCharges: AllowanceCharge[],
  now: Date,
): Promise<{ charged: Map<string, boolean>; unknown: string[] }> {
  const ownUnits = new Set(requestIds);
  const takes = [...new Map(allowanceCharges.filter((take) => !ownUnits.has(take.requestId)).map((take) => [take.requestId, take])).values()];
  // The allowances first: a concurrent settlement of the same takes holds them until it commits, so
  // the rows it recorded are seen by the reservations' locking read that follows, and stand.
  const allowances = new Map((await lockAllowances(trx, [...new Set(takes.map((take) => take.allowanceId))])).map((allowance) => [allowance.id, allowance]));
  const reservations = await lockReservations(trx, [...ownUnits, ...takes.map((take) => take.requestId)]);
  const withRow = new Set(reservations.map((reservation) => reservation.requestId));
  // A take whose request id has a row already was settled before (a retry), or is a page that also reserved its own unit: settled as that row.
  const newTakes = takes.filter((take) => !withRow.has(take.requestId));

  const charged = new Map<string, boolean>();
  const unknown = [...ownUnits].filter((requestId) => !withRow.has(requestId));
  const work = new Map<string, CounterWork>();
  const workOf = (workspaceId: string, periodStart: string): CounterWork => {
    const key = `${workspaceId}|${periodStart}`;
    let entry = work.get(key);
    if (!entry) work.set(key, (entry = { workspaceId, periodStart, moved: 0, late: [] }));
    return entry;
  };
  const movedReservations: string[] = [];
  for (const reservation of reservations) {
    if (reservation.state === 'charged') charged.set(reservation.requestId, true);
    else if (reservation.state === 'reserved') {
      workOf(reservation.workspaceId, reservation.periodStart).moved += 1;
      movedReservations.push(reservation.requestId);
      charged.set(reservation.requestId, true);
    } else workOf(reservation.workspaceId, reservation.periodStart).late.push({ requestId: reservation.requestId, reservation: true, allowanceId: null });
  }
  const chargedFrom = new Map<string, number>();
  const rows: Parameters<typeof insertAllowanceCharges>[1] = [];
  for (const take of newTakes) {
    const allowance: Allowance | undefined = allowances.get(take.allowanceId);
    if (!allowance) {
      unknown.push(take.requestId);
      continue;
    }
    const taken = chargedFrom.get(allowance.id) ?? 0;
    // Held, though perhaps past its lease: until the sweep frees them, its units are still on the counter.
    if (allowance.state === 'held' && heldUnitsOf(allowance) > taken) {
      chargedFrom.set(allowance.id, taken + 1);
      workOf(allowance.workspaceId, allowance.periodStart).moved += 1;
      rows.push({ requestId: take.requestId, workspaceId: allowance.workspaceId, periodStart: allowance.periodStart, allowanceId: allowance.id, state: 'charged' });
      charged.set(take.requestId, true);
    } else workOf(allowance.workspaceId, allowance.periodStart).late.push({ requestId: take.requestId, reservation: false, allowanceId: allowance.id });
  }

  const lateCharged: string[] = [];
  for (const key of [...work.keys()].sort()) {
    const entry = work.get(key)!;
    if (entry.moved > 0) await adjustCounter(trx, entry.workspaceId, entry.periodStart, { reserve: -entry.moved, charge: entry.moved });
    if (entry.late.length === 0) continue;
    const limit = await monthlyQuotaOf(ledger, entry.workspaceId, trx);
    for (const late of entry.late) {
      const ok = await adjustCounter(trx, entry.workspaceId, entry.periodStart, { reserve: 0, charge: 1 }, limit);
      charged.set(late.requestId, ok);
      if (late.reservation) {
        if (ok) lateCharged.push(late.requestId);
      } else {
        rows.push({ requestId: late.requestId, workspaceId: entry.workspaceId, periodStart: entry.periodStart, allowanceId: late.allowanceId!, state: ok ? 'charged' : 'released' });
      }
    }
  }
  for (const [allowanceId, count] of chargedFrom) await changeAllowance(trx, allowanceId, { charged: count });
  await setReservationState(trx, movedReservations, { from: 'reserved', to: 'charged', at: now });
  await setReservationState(trx, lateCharged, { from: 'released', to: 'charged', at: now });
  await insertAllowanceCharges(trx, rows, now);
  return { charged, unknown };
}

/** Turns the request's reservation into a charge, exactly once however often it is called. */
export async function settleQuota(ledger: LedgerContext, requestId: string): Promise<SettleOutcome> {
  const now = ledger.now();
  const outcome = await withTransaction(ledger.db, async (trx) => {
    const reservation = await findReservation(trx, requestId);
    if (!reservation) throw new AppError('invalid_request', `No reservation for ${requestId}`);
    const charged = (await settleCharges(ledger, trx, [requestId], [], now)).charged.get(requestId) ?? false;
    const limit = await monthlyQuotaOf(ledger, reservation.workspaceId, trx);
    return { limit, charged, counter: await readCounter(trx, reservation.workspaceId, reservation.periodStart) };
  });
  return { charged: outcome.charged, ...snapshot(outcome.limit, outcome.counter) };
}

/**
 * Settles many requests in one transaction (the settlement outbox delivers them in batches): those
 * that reserved their own unit, and those answered with a unit of an allowance. Each is charged
 * exactly once; a request id without a reservation (or an allowance id unknown) is reported, not fatal.
 */
export async function settleQuotaBatch(
  ledger: LedgerContext,
  requestIds: string[],
  history: HistoryRecord[],
  allowanceCharges: AllowanceCharge[] = [],
): Promise<SettleBatchOutcome> {
  const now = ledger.now();
  return withTransaction(ledger.db, async (trx) => {
    const { charged, unknown } = await settleCharges(ledger, trx, requestIds, allowanceCharges, now);
    // Each entry says what the ledger did: a late settlement beyond the quota, or one without a
    // reservation, is recorded as not charged.
    await recordHistory(trx, history.map((record) => ({ ...record, charged: charged.get(record.requestId) === true ? record.charged : 0 })));
    const values = [...charged.values()];
    return {
      charged: values.filter(Boolean).length,
      notCharged: values.filter((value) => !value).length,
      unknown,
    };
  });
}

/** Gives the request's unit back; a failure is never charged. Releasing twice, or after a charge, does nothing. */
export async function releaseQuota(ledger: LedgerContext, requestId: string): Promise<{ released: boolean }> {
  const now = ledger.now();
  const released = await withTransaction(ledger.db, async (trx) => {
    const reservation = await findReservation(trx, requestId);
    if (!reservation || reservation.state !== 'reserved') return false;
    await adjustCounter(trx, reservation.workspaceId, reservation.periodStart, { reserve: -1, charge: 0 });
    return (await setReservationState(trx, [requestId], { from: 'reserved', to: 'released', at: now })) > 0;
  });
  return { released };
}

/** Releases reservations whose lease ran out (their request crashed or hung); returns how many. */
export async function releaseExpiredReservations(ledger: LedgerContext, workspaceId?: string): Promise<number> {
  const now = ledger.now();
  let total = 0;
  for (;;) {
    const expired = await listExpiredReservations(ledger.db, now, 100, workspaceId);
    for (const requestId of expired) {
      if ((await releaseQuota(ledger, requestId)).released) total += 1;
    }
    if (expired.length < 100) return total;
  }
}

export async function quotaSnapshot(db: AccountsExecutor, workspaceId: string, limit: number, now: Date): Promise<QuotaSnapshot> {
  return snapshot(limit, await readCounter(db, workspaceId, quotaPeriodAt(now).key));
}

/** How many of these answered requests are not charged yet (their charge is on its way). */
export function unsettledAmong(db: AccountsExecutor, workspaceId: string, requestIds: string[]): Promise<number> {
  return countUnsettled(db, workspaceId, requestIds);
}

/**
 * A settled reservation is kept while its request id may still be settled or retried (settling is
 * idempotent by it); after that it is only weight. Kept 40 days: past the month it was charged in.
 */
export async function purgeSettledReservations(ledger: LedgerContext): Promise<number> {
  const cutoff = new Date(ledger.now().getTime() - 40 * 86_400_000);
  return deleteInBatches((limit) => deleteSettledReservations(ledger.db, cutoff, limit));
}
