import type { Db } from '@comps/shared/db/create-db';
import type { Executor } from '@comps/shared/db/with-transaction';
import { quotaPeriodAt } from '@comps/shared/db/period';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { effectivePlan } from '../workspaces/effective-plan.js';
import { findWorkspaceWithPlan } from '../workspaces/workspace-repository.js';
import {
  adjustCounter,
  findReservation,
  insertReservation,
  listExpiredReservations,
  lockCounter,
  readCounter,
  setReservationState,
} from './ledger-repository.js';

/**
 * The usage ledger. A request reserves one unit before it calls upstream; success settles the
 * reservation into a charge, failure releases it, and a reservation whose request died expires
 * and is released by the sweeper. The counter row of the period is the single point that every
 * reservation passes through with a conditional UPDATE, so concurrent callers cannot overspend.
 */

export interface QuotaSnapshot {
  limit: number;
  used: number;
  remaining: number;
}

export type ReserveOutcome = ({ ok: true } & QuotaSnapshot) | ({ ok: false; reason: 'quota_exhausted' } & QuotaSnapshot);

export type SettleOutcome = { charged: boolean } & QuotaSnapshot;

export interface LedgerOptions {
  reservationTtlMs: number;
  now?: () => Date;
}

function snapshot(limit: number, used: number): QuotaSnapshot {
  return { limit, used, remaining: Math.max(0, limit - used) };
}

async function monthlyQuotaOf(db: Executor, workspaceId: string): Promise<number> {
  const workspace = await findWorkspaceWithPlan(db, workspaceId);
  if (!workspace) throw new AppError('invalid_request', `Unknown workspace ${workspaceId}`);
  return effectivePlan(workspace.plan, workspace.overrides).monthlyQuota;
}

async function tryReserve(db: Db, workspaceId: string, requestId: string, limit: number, options: LedgerOptions) {
  const now = options.now?.() ?? new Date();
  const period = quotaPeriodAt(now);
  const expiresAt = new Date(now.getTime() + options.reservationTtlMs);
  return withTransaction(db, async (trx) => {
    await lockCounter(trx, workspaceId, period.key);
    const existing = await findReservation(trx, requestId);
    if (existing && existing.state !== 'released') {
      // A retried call for the same request: the first reservation stands.
      return { ok: true as const, counter: await readCounter(trx, existing.workspaceId, existing.periodStart) };
    }
    const reserved = await adjustCounter(trx, workspaceId, period.key, { reserve: 1, charge: 0 }, limit);
    if (reserved) {
      if (existing) {
        await setReservationState(trx, requestId, { from: 'released', to: 'reserved', at: now, expiresAt });
      } else {
        await insertReservation(trx, { requestId, workspaceId, periodStart: period.key, expiresAt });
      }
    }
    return { ok: reserved, counter: await readCounter(trx, workspaceId, period.key) };
  });
}

export async function reserveQuota(
  db: Db,
  input: { workspaceId: string; requestId: string },
  options: LedgerOptions,
): Promise<ReserveOutcome> {
  const limit = await monthlyQuotaOf(db, input.workspaceId);
  let attempt = await tryReserve(db, input.workspaceId, input.requestId, limit, options);
  if (!attempt.ok) {
    // Units held by requests that died may be all that stands in the way: free them and look again.
    const freed = await releaseExpiredReservations(db, options, input.workspaceId);
    if (freed > 0) attempt = await tryReserve(db, input.workspaceId, input.requestId, limit, options);
  }
  const quota = snapshot(limit, attempt.counter.used);
  return attempt.ok ? { ok: true, ...quota } : { ok: false, reason: 'quota_exhausted', ...quota };
}

/** Turns the request's reservation into a charge, exactly once however often it is called. */
export async function settleQuota(db: Db, requestId: string, options: LedgerOptions): Promise<SettleOutcome> {
  const now = options.now?.() ?? new Date();
  const outcome = await withTransaction(db, async (trx) => {
    const reservation = await findReservation(trx, requestId);
    if (!reservation) throw new AppError('invalid_request', `No reservation for ${requestId}`);
    const { workspaceId, periodStart } = reservation;
    // Read inside the transaction: a second connection per transaction could exhaust the pool under load.
    const limit = await monthlyQuotaOf(trx, workspaceId);
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
  return { charged: outcome.charged, ...snapshot(outcome.limit, outcome.counter.used) };
}

/** Gives the request's unit back; a failure is never charged. Releasing twice, or after a charge, does nothing. */
export async function releaseQuota(db: Db, requestId: string, options: LedgerOptions): Promise<{ released: boolean }> {
  const now = options.now?.() ?? new Date();
  const released = await withTransaction(db, async (trx) => {
    const reservation = await findReservation(trx, requestId);
    if (!reservation || reservation.state !== 'reserved') return false;
    await adjustCounter(trx, reservation.workspaceId, reservation.periodStart, { reserve: -1, charge: 0 });
    return setReservationState(trx, requestId, { from: 'reserved', to: 'released', at: now });
  });
  return { released };
}

/** Releases reservations whose lease ran out (their request crashed or hung); returns how many. */
export async function releaseExpiredReservations(db: Db, options: LedgerOptions, workspaceId?: string): Promise<number> {
  const now = options.now?.() ?? new Date();
  let total = 0;
  for (;;) {
    const expired = await listExpiredReservations(db, now, 100, workspaceId);
    for (const requestId of expired) {
      if ((await releaseQuota(db, requestId, options)).released) total += 1;
    }
    if (expired.length < 100) return total;
  }
}

export async function quotaSnapshot(db: Db, workspaceId: string, limit: number, now = new Date()): Promise<QuotaSnapshot> {
  const counter = await readCounter(db, workspaceId, quotaPeriodAt(now).key);
  return snapshot(limit, counter.used);
}
