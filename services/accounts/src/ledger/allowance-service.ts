import { quotaPeriodAt } from '@comps/shared/db/period';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { newAllowanceId } from '@comps/shared/ids';
import type { AllowanceLease, AllowanceRenewal } from '@comps/shared/internal/accounts/quota';
import type { AccountsExecutor } from '../db/database.js';
import {
  changeAllowance,
  deleteExpiredAllowances,
  extendAllowances,
  heldAllowancesOf,
  heldUnitsOf,
  insertAllowance,
  listExpiredAllowances,
  liveAllowances,
  lockAllowances,
  markAllowanceExpired,
} from './allowance-repository.js';
import type { LedgerContext } from './ledger-context.js';
import { adjustCounter, ensureCounter, readCounter, type Counter } from './ledger-repository.js';
import { monthlyQuotaOf } from './monthly-quota.js';
import { deleteInBatches } from '@comps/shared/db/delete-in-batches';

/**
 * Quota allowances: a workspace's metering leases units in a block (one round trip for many
 * requests) instead of reserving one unit per request. A block's units are held on the month's
 * counter as `reserved`, like reservations, so that nothing can overspend: each unit is charged
 * by its request id (settleQuotaBatch), returned unused, or freed when the lease runs out (the
 * sweep, or a refused reservation of the workspace). A process that dies holds its units until
 * the lease ends and never charges twice (a charge is a row under its request id).
 *
 * A block is granted only while the workspace's free units stay at least one block above it
 * afterwards: near the end of a quota, requests reserve their own unit, as they did before
 * allowances, so a refusal there means the quota is used up or held by requests in flight.
 */

/** Free units that must remain, in blocks, after a lease. */
const HEADROOM_BLOCKS = 1;

function figures(limit: number, counter: Counter): { limit: number; used: number; free: number } {
  return { limit, used: counter.used, free: Math.max(0, limit - counter.used - counter.reserved) };
}

/** When a lease asked at `now` for `leaseMs` ends: never past the month its units belong to. */
function leaseEnd(now: Date, leaseMs: number): Date {
  return new Date(Math.min(now.getTime() + leaseMs, quotaPeriodAt(now).end.getTime()));
}

/** A block of units for the workspace: more on the allowance given while it is held in this month, else a new one. */
export async function leaseAllowance(
  ledger: LedgerContext,
  input: { workspaceId: string; allowanceId: string | null; units: number; leaseMs: number },
): Promise<AllowanceLease> {
  const { workspaceId, units } = input;
  const limit = await monthlyQuotaOf(ledger, workspaceId);
  const now = ledger.now();
  const period = quotaPeriodAt(now).key;
  const expiresAt = leaseEnd(now, input.leaseMs);
  await ensureCounter(ledger.db, workspaceId, period);
  return withTransaction(ledger.db, async (trx) => {
    const [current] = input.allowanceId ? await lockAllowances(trx, [input.allowanceId]) : [];
    const topUp = current && current.workspaceId === workspaceId && current.state === 'held' && current.periodStart === period && current.expiresAt > now;
    // One conditional UPDATE, as a reservation's: concurrent leases and reservations cannot overspend.
    const granted = await adjustCounter(trx, workspaceId, period, { reserve: units, charge: 0 }, limit - units * HEADROOM_BLOCKS);
    if (!granted) return { ok: false, reason: 'headroom', ...figures(limit, await readCounter(trx, workspaceId, period)) };
    let allowanceId: string;
    if (topUp) {
      allowanceId = current.id;
      await changeAllowance(trx, allowanceId, { units, expiresAt });
    } else {
      allowanceId = newAllowanceId();
      await insertAllowance(trx, { id: allowanceId, workspaceId, periodStart: period, units, expiresAt });
    }
    return { ok: true, allowanceId, granted: units, leaseMs: expiresAt.getTime() - now.getTime(), ...figures(limit, await readCounter(trx, workspaceId, period)) };
  });
}

/** Extends the leases of allowances in use; one past its lease (or expired) is not brought back. */
export async function renewAllowances(ledger: LedgerContext, input: { allowanceIds: string[]; leaseMs: number }): Promise<AllowanceRenewal> {
  const now = ledger.now();
  const expiresAt = leaseEnd(now, input.leaseMs);
  const live = await liveAllowances(ledger.db, input.allowanceIds, now);
  // An allowance of last month ends with its month: it is not renewed into this one.
  const renewable = live.filter((allowance) => allowance.periodStart === quotaPeriodAt(now).key);
  await extendAllowances(ledger.db, renewable.map((allowance) => allowance.id), expiresAt, now);
  const counters = new Map<string, ReturnType<typeof figures>>();
  const renewed: AllowanceRenewal['renewed'] = [];
  for (const allowance of renewable) {
    let workspace = counters.get(allowance.workspaceId);
    if (!workspace) {
      const limit = await monthlyQuotaOf(ledger, allowance.workspaceId);
      workspace = figures(limit, await readCounter(ledger.db, allowance.workspaceId, allowance.periodStart));
      counters.set(allowance.workspaceId, workspace);
    }
    renewed.push({ allowanceId: allowance.id, leaseMs: expiresAt.getTime() - now.getTime(), ...workspace });
  }
  return { renewed };
}

/** Gives back units nobody took, at most what the allowance still holds; answers how many were freed. */
export async function returnAllowance(ledger: LedgerContext, input: { allowanceId: string; units: number }): Promise<{ returned: number }> {
  return withTransaction(ledger.db, async (trx) => {
    const [allowance] = await lockAllowances(trx, [input.allowanceId]);
    if (!allowance || allowance.state !== 'held') return { returned: 0 };
    const returned = Math.min(input.units, heldUnitsOf(allowance));
    if (returned === 0) return { returned: 0 };
    await adjustCounter(trx, allowance.workspaceId, allowance.periodStart, { reserve: -returned, charge: 0 });
    await changeAllowance(trx, allowance.id, { returned });
    return { returned };
  });
}

/** Frees the units still held by allowances whose lease ran out (their processes died or stopped renewing); returns how many units. */
export async function releaseExpiredAllowances(ledger: LedgerContext, workspaceId?: string): Promise<number> {
  const now = ledger.now();
  let total = 0;
  for (;;) {
    const expired = await listExpiredAllowances(ledger.db, now, 100, workspaceId);
    for (const id of expired) {
      total += await withTransaction(ledger.db, async (trx) => {
        const [allowance] = await lockAllowances(trx, [id]);
        if (!allowance || allowance.state !== 'held' || allowance.expiresAt >= now) return 0;
        const held = heldUnitsOf(allowance);
        if (held > 0) await adjustCounter(trx, allowance.workspaceId, allowance.periodStart, { reserve: -held, charge: 0 });
        await markAllowanceExpired(trx, allowance.id);
        return held;
      });
    }
    if (expired.length < 100) return total;
  }
}

/**
 * Units of these allowances that nobody has taken, bounded by what each still holds: they are on
 * the counter as held, yet can still be started.
 */
export async function idleAllowanceUnits(db: AccountsExecutor, workspaceId: string, reported: Array<{ allowanceId: string; units: number }>): Promise<number> {
  const idle = new Map<string, number>();
  for (const entry of reported) idle.set(entry.allowanceId, Math.max(entry.units, idle.get(entry.allowanceId) ?? 0));
  const held = await heldAllowancesOf(db, workspaceId, [...idle.keys()]);
  return held.reduce((sum, allowance) => sum + Math.min(idle.get(allowance.id) ?? 0, heldUnitsOf(allowance)), 0);
}

/** Expired allowances are kept as long as settled reservations (40 days), for charges that name them; then deleted. */
export async function purgeExpiredAllowances(ledger: LedgerContext): Promise<number> {
  const cutoff = new Date(ledger.now().getTime() - 40 * 86_400_000);
  return deleteInBatches((limit) => deleteExpiredAllowances(ledger.db, cutoff, limit));
}
