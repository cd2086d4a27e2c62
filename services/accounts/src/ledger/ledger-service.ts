import type { HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import type { QuotaSnapshot, ReserveOutcome, SettleBatchOutcome, SettleOutcome } from '@comps/shared/internal/accounts/quota';
import { quotaPeriodAt } from '@comps/shared/db/period';
import { retryingDeadlocks, withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { recordHistory } from '../history/history-service.js';
import { effectivePlan } from '../workspaces/effective-plan.js';
import { findWorkspaceWithPlan } from '../workspaces/workspace-repository.js';
import type { LedgerContext } from './ledger-context.js';
import type { AccountsExecutor } from '../db/database.js';
import {
  adjustCounter,
  countReserved,
  deleteSettledReservations,
  ensureCounter,
  findReservation,
  listExpiredReservations,
  lockReservations,
  readCounter,
  reserveUnit,
  setReservationState,
  type Counter,
  type Reservation,
} from './ledger-repository.js';

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

/** The workspace's monthly quota, read at most once a second per workspace. */
async function monthlyQuotaOf(ledger: LedgerContext, workspaceId: string, db: AccountsExecutor = ledger.db): Promise<number> {
  const now = ledger.now().getTime();
  const cached = ledger.quotaCache.get(workspaceId, now);
  if (cached) return cached.value;
  const workspace = await findWorkspaceWithPlan(db, workspaceId);
  if (!workspace) throw new AppError('invalid_request', `Unknown workspace ${workspaceId}`);
  const limit = effectivePlan(workspace.plan, workspace.overrides).monthlyQuota;
  ledger.quotaCache.set(workspaceId, limit, now);
  return limit;
}

/** A limit changed by this process applies at once here (other processes: within the cache's second). */
export function forgetQuota(ledger: LedgerContext, workspaceId: string): void {
  ledger.quotaCache.delete(workspaceId);
}

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
  if (attempt.outcome === 'no_counter') {
    await ensureCounter(ledger.db, workspaceId, period);
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
      throw new Error(`The counter of ${workspaceId} for ${period} is still missing after it was created`);
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
    // Units held by requests that died may be all that stands in the way: free them and look again.
    const freed = await releaseExpiredReservations(ledger, input.workspaceId);
    if (freed > 0) attempt = await tryReserve(ledger, input.workspaceId, input.requestId, limit);
  }
  const quota = snapshot(limit, attempt.counter);
  return attempt.ok ? { ok: true, ...quota } : { ok: false, reason: 'quota_exhausted', ...quota };
}

/**
 * Turns locked reservations into charges, exactly once each: reserved units move from `reserved` to
 * `used` per counter in one UPDATE; a charge settled before stays as it was; a reservation that
 * outlived its lease and was released is charged only if the quota still allows it.
 */
async function chargeReservations(ledger: LedgerContext, trx: AccountsExecutor, reservations: Reservation[], now: Date): Promise<Map<string, boolean>> {
  const charged = new Map<string, boolean>();
  const reservedByCounter = new Map<string, Reservation[]>();
  for (const reservation of reservations) {
    if (reservation.state === 'charged') charged.set(reservation.requestId, true);
    if (reservation.state !== 'reserved') continue;
    const key = `${reservation.workspaceId}|${reservation.periodStart}`;
    reservedByCounter.set(key, [...(reservedByCounter.get(key) ?? []), reservation]);
  }
  // Counters in one order in every transaction, so that concurrent batches cannot deadlock on them.
  for (const key of [...reservedByCounter.keys()].sort()) {
    const group = reservedByCounter.get(key)!;
    await adjustCounter(trx, group[0]!.workspaceId, group[0]!.periodStart, { reserve: -group.length, charge: group.length });
    for (const reservation of group) charged.set(reservation.requestId, true);
  }
  const reservedIds = [...reservedByCounter.values()].flat().map((reservation) => reservation.requestId);
  await setReservationState(trx, reservedIds, { from: 'reserved', to: 'charged', at: now });
  for (const reservation of reservations.filter((candidate) => candidate.state === 'released')) {
    const limit = await monthlyQuotaOf(ledger, reservation.workspaceId, trx);
    const ok = await adjustCounter(trx, reservation.workspaceId, reservation.periodStart, { reserve: 0, charge: 1 }, limit);
    if (ok) await setReservationState(trx, [reservation.requestId], { from: 'released', to: 'charged', at: now });
    charged.set(reservation.requestId, ok);
  }
  return charged;
}

/** Turns the request's reservation into a charge, exactly once however often it is called. */
export async function settleQuota(ledger: LedgerContext, requestId: string): Promise<SettleOutcome> {
  const now = ledger.now();
  const outcome = await withTransaction(ledger.db, async (trx) => {
    const reservation = await findReservation(trx, requestId);
    if (!reservation) throw new AppError('invalid_request', `No reservation for ${requestId}`);
    const charged = (await chargeReservations(ledger, trx, [reservation], now)).get(requestId) ?? false;
    const limit = await monthlyQuotaOf(ledger, reservation.workspaceId, trx);
    return { limit, charged, counter: await readCounter(trx, reservation.workspaceId, reservation.periodStart) };
  });
  return { charged: outcome.charged, ...snapshot(outcome.limit, outcome.counter) };
}

/**
 * Settles many requests in one transaction (the settlement outbox delivers them in batches). Each is
 * charged exactly once; a request id without a reservation is reported, not fatal.
 */
export async function settleQuotaBatch(ledger: LedgerContext, requestIds: string[], history: HistoryRecord[]): Promise<SettleBatchOutcome> {
  const now = ledger.now();
  const unique = [...new Set(requestIds)];
  return withTransaction(ledger.db, async (trx) => {
    const reservations = await lockReservations(trx, unique);
    const found = new Set(reservations.map((reservation) => reservation.requestId));
    const charged = await chargeReservations(ledger, trx, reservations, now);
    // Each entry says what the ledger did: a late settlement beyond the quota, or one without a
    // reservation, is recorded as not charged.
    await recordHistory(trx, history.map((record) => ({ ...record, charged: charged.get(record.requestId) === true ? record.charged : 0 })));
    const values = [...charged.values()];
    return {
      charged: values.filter(Boolean).length,
      notCharged: values.filter((value) => !value).length,
      unknown: unique.filter((requestId) => !found.has(requestId)),
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

/** How many of these answered requests still hold their reservation (their charge is on its way). */
export function unsettledAmong(db: AccountsExecutor, workspaceId: string, requestIds: string[]): Promise<number> {
  return countReserved(db, workspaceId, requestIds);
}

/**
 * A settled reservation is kept while its request id may still be settled or retried (settling is
 * idempotent by it); after that it is only weight. Kept 40 days: past the month it was charged in.
 */
export async function purgeSettledReservations(ledger: LedgerContext): Promise<number> {
  const cutoff = new Date(ledger.now().getTime() - 40 * 86_400_000);
  let total = 0;
  for (;;) {
    const deleted = await deleteSettledReservations(ledger.db, cutoff, 5000);
    total += deleted;
    if (deleted < 5000) return total;
  }
}
