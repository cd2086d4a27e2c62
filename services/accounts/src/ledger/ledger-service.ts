import { isDuplicateKey } from '@comps/shared/db/database-errors';
import type { Executor } from '@comps/shared/db/with-transaction';
import { quotaPeriodAt } from '@comps/shared/db/period';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { effectivePlan } from '../workspaces/effective-plan.js';
import { findWorkspaceWithPlan } from '../workspaces/workspace-repository.js';
import { QUOTA_CACHE_MS, type LedgerContext } from './ledger-context.js';
import {
  adjustCounter,
  ensureCounter,
  findReservation,
  insertReservation,
  listExpiredReservations,
  readCounter,
  setReservationState,
} from './ledger-repository.js';

/**
 * The usage ledger. A request reserves one unit before it calls upstream; success settles the
 * reservation into a charge, failure releases it, and a reservation whose request died expires
 * and is released by the sweeper. The counter row of the period is the single point that every
 * reservation passes through with a conditional UPDATE, so concurrent callers cannot overspend.
 * Connections run at READ COMMITTED (see createDb), so these short transactions take no gap locks.
 */

export interface QuotaSnapshot {
  limit: number;
  /** Requests charged this month. */
  used: number;
  /** Requests that can still be started: units held by requests in flight are not available. */
  remaining: number;
}

export type ReserveOutcome = ({ ok: true } & QuotaSnapshot) | ({ ok: false; reason: 'quota_exhausted' } & QuotaSnapshot);

export type SettleOutcome = { charged: boolean } & QuotaSnapshot;

function snapshot(limit: number, counter: { used: number; reserved: number }): QuotaSnapshot {
  return { limit, used: counter.used, remaining: Math.max(0, limit - counter.used - counter.reserved) };
}

function nowOf(ledger: LedgerContext): Date {
  return ledger.now?.() ?? new Date();
}

/** The workspace's monthly quota, read at most once a second per workspace. */
async function monthlyQuotaOf(ledger: LedgerContext, workspaceId: string, db: Executor = ledger.db): Promise<number> {
  const cached = ledger.quotaCache.get(workspaceId);
  if (cached && cached.until > Date.now()) return cached.limit;
  const workspace = await findWorkspaceWithPlan(db, workspaceId);
  if (!workspace) throw new AppError('invalid_request', `Unknown workspace ${workspaceId}`);
  const limit = effectivePlan(workspace.plan, workspace.overrides).monthlyQuota;
  if (ledger.quotaCache.size > 50_000) ledger.quotaCache.clear();
  ledger.quotaCache.set(workspaceId, { limit, until: Date.now() + QUOTA_CACHE_MS });
  return limit;
}

/** A limit changed by this process applies at once here (other processes: within the cache's second). */
export function forgetQuota(ledger: LedgerContext, workspaceId: string): void {
  ledger.quotaCache.delete(workspaceId);
}

class QuotaRefused extends Error {}

async function tryReserve(ledger: LedgerContext, workspaceId: string, requestId: string, limit: number) {
  const now = nowOf(ledger);
  const period = quotaPeriodAt(now);
  const expiresAt = new Date(now.getTime() + ledger.reservationTtlMs);
  const counterKey = `${workspaceId}|${period.key}`;
  if (!ledger.knownCounters.has(counterKey)) {
    await ensureCounter(ledger.db, workspaceId, period.key);
    ledger.knownCounters.add(counterKey);
  }
  try {
    return await withTransaction(ledger.db, async (trx) => {
      try {
        await insertReservation(trx, { requestId, workspaceId, periodStart: period.key, expiresAt });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        return retriedReservation(trx, requestId, workspaceId, period.key, limit, expiresAt, now);
      }
      if (!(await adjustCounter(trx, workspaceId, period.key, { reserve: 1, charge: 0 }, limit))) throw new QuotaRefused();
      return { ok: true, counter: await readCounter(trx, workspaceId, period.key) };
    });
  } catch (error) {
    if (!(error instanceof QuotaRefused)) throw error;
    return { ok: false, counter: await readCounter(ledger.db, workspaceId, period.key) };
  }
}

/** A reserve call for a request id that already has a reservation: a retry, answered as the first was. */
async function retriedReservation(trx: Executor, requestId: string, workspaceId: string, periodStart: string, limit: number, expiresAt: Date, now: Date) {
  const existing = await findReservation(trx, requestId);
  if (!existing || existing.workspaceId !== workspaceId) throw new AppError('invalid_request', `Request id ${requestId} belongs to another reservation`);
  if (existing.state === 'released') {
    if (!(await adjustCounter(trx, workspaceId, existing.periodStart, { reserve: 1, charge: 0 }, limit))) throw new QuotaRefused();
    await setReservationState(trx, requestId, { from: 'released', to: 'reserved', at: now, expiresAt });
  }
  return { ok: true, counter: await readCounter(trx, workspaceId, existing.periodStart ?? periodStart) };
}

export async function reserveQuota(ledger: LedgerContext, input: { workspaceId: string; requestId: string }): Promise<ReserveOutcome> {
  const limit = await monthlyQuotaOf(ledger, input.workspaceId);
  let attempt = await tryReserve(ledger, input.workspaceId, input.requestId, limit);
  if (!attempt.ok) {
    // Units held by requests that died may be all that stands in the way: free them and look again.
    const freed = await releaseExpiredReservations(ledger, input.workspaceId);
    if (freed > 0) attempt = await tryReserve(ledger, input.workspaceId, input.requestId, limit);
  }
  const quota = snapshot(limit, attempt.counter);
  return attempt.ok ? { ok: true, ...quota } : { ok: false, reason: 'quota_exhausted', ...quota };
}

/** Turns the request's reservation into a charge, exactly once however often it is called. */
export async function settleQuota(ledger: LedgerContext, requestId: string): Promise<SettleOutcome> {
  const now = nowOf(ledger);
  const outcome = await withTransaction(ledger.db, async (trx) => {
    const reservation = await findReservation(trx, requestId);
    if (!reservation) throw new AppError('invalid_request', `No reservation for ${requestId}`);
    const { workspaceId, periodStart } = reservation;
    const limit = await monthlyQuotaOf(ledger, workspaceId, trx);
    if (reservation.state === 'charged') {
      return { limit, charged: true, counter: await readCounter(trx, workspaceId, periodStart) };
    }
    let charged: boolean;
    if (reservation.state === 'reserved') {
      await adjustCounter(trx, workspaceId, periodStart, { reserve: -1, charge: 1 });
      charged = true;
    } else {
      // The reservation outlived its lease and was released; charge only if the quota still allows it.
      charged = await adjustCounter(trx, workspaceId, periodStart, { reserve: 0, charge: 1 }, limit);
    }
    if (charged) await setReservationState(trx, requestId, { from: reservation.state, to: 'charged', at: now });
    return { limit, charged, counter: await readCounter(trx, workspaceId, periodStart) };
  });
  return { charged: outcome.charged, ...snapshot(outcome.limit, outcome.counter) };
}

/**
 * Settles many requests in one call (the api's settlement outbox delivers them in batches). Each is
 * settled on its own, exactly once; a request id without a reservation is reported, not fatal.
 */
export async function settleQuotaBatch(ledger: LedgerContext, requestIds: string[]): Promise<{ charged: number; notCharged: number; unknown: string[] }> {
  let charged = 0;
  let notCharged = 0;
  const unknown: string[] = [];
  for (const requestId of requestIds) {
    try {
      if ((await settleQuota(ledger, requestId)).charged) charged += 1;
      else notCharged += 1;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      unknown.push(requestId);
    }
  }
  return { charged, notCharged, unknown };
}

/** Gives the request's unit back; a failure is never charged. Releasing twice, or after a charge, does nothing. */
export async function releaseQuota(ledger: LedgerContext, requestId: string): Promise<{ released: boolean }> {
  const now = nowOf(ledger);
  const released = await withTransaction(ledger.db, async (trx) => {
    const reservation = await findReservation(trx, requestId);
    if (!reservation || reservation.state !== 'reserved') return false;
    await adjustCounter(trx, reservation.workspaceId, reservation.periodStart, { reserve: -1, charge: 0 });
    return setReservationState(trx, requestId, { from: 'reserved', to: 'released', at: now });
  });
  return { released };
}

/** Releases reservations whose lease ran out (their request crashed or hung); returns how many. */
export async function releaseExpiredReservations(ledger: LedgerContext, workspaceId?: string): Promise<number> {
  const now = nowOf(ledger);
  let total = 0;
  for (;;) {
    const expired = await listExpiredReservations(ledger.db, now, 100, workspaceId);
    for (const requestId of expired) {
      if ((await releaseQuota(ledger, requestId)).released) total += 1;
    }
    if (expired.length < 100) return total;
  }
}

export async function quotaSnapshot(db: Executor, workspaceId: string, limit: number, now = new Date()): Promise<QuotaSnapshot> {
  return snapshot(limit, await readCounter(db, workspaceId, quotaPeriodAt(now).key));
}
