import { withTransaction } from '@comps/shared/db/with-transaction';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import type { JobsDb, JobsExecutor } from '../db/database.js';
import { clearJobPageChargePending, uncountCharge } from '../jobs/job-repository.js';
import { clearRunPageChargePending, uncountRunCharge } from '../tracked/run-repository.js';
import { listPendingCharges, type PendingCharge } from './pending-charge-repository.js';

/** Pages read at a time; each is settled in a round trip of its own (they are rare: a process died between a page's store and its charge's handover). */
const BATCH = 100;

export interface PendingChargeDeps {
  db: JobsDb;
  ledger: QuotaLedger;
}

/**
 * A page is counted as charged in the transaction that stores it, and its charge is handed to the
 * settlement outbox (Redis) just after. A jobs process that dies in between leaves a page its
 * caller has, with no charge on its way: its reservation (or allowance unit) would lapse unsettled,
 * and the ledger would show a page fewer than the job or run says it charged. The page's row says
 * so until the handover (`chargePendingSince`); this settles those still waiting after
 * `graceMs` (the settlement outbox's own takeover of a dead process's charges), by request id,
 * so a charge the outbox settled after all is not made twice. One the ledger can no longer make
 * (its unit freed and the quota used up since) is uncounted, as when a live process could not
 * hand it over. Answers how many were charged and how many not.
 */
export async function settlePendingCharges(deps: PendingChargeDeps, now: Date, graceMs: number, signal: AbortSignal): Promise<{ charged: number; notCharged: number }> {
  const totals = { charged: 0, notCharged: 0 };
  const before = new Date(now.getTime() - graceMs);
  for (;;) {
    const pending = await listPendingCharges(deps.db, before, BATCH);
    for (const charge of pending) {
      signal.throwIfAborted();
      const outcome = charge.allowanceId
        ? await deps.ledger.settleBatch([], [], [{ requestId: charge.requestId, allowanceId: charge.allowanceId }])
        : await deps.ledger.settleBatch([charge.requestId], []);
      const charged = outcome.charged === 1;
      // Cleared and uncounted together, once: a live process that handed it over meanwhile cleared it first, and decided.
      await withTransaction(deps.db, async (trx) => {
        if ((await clearPending(trx, charge)) && !charged) await uncount(trx, charge);
      });
      totals[charged ? 'charged' : 'notCharged'] += 1;
    }
    if (pending.length < BATCH) return totals;
  }
}

function clearPending(db: JobsExecutor, charge: PendingCharge): Promise<boolean> {
  return charge.kind === 'job' ? clearJobPageChargePending(db, charge.ownerId, charge.page) : clearRunPageChargePending(db, charge.ownerId, charge.page);
}

function uncount(db: JobsExecutor, charge: PendingCharge): Promise<void> {
  return charge.kind === 'job' ? uncountCharge(db, charge.ownerId) : uncountRunCharge(db, charge.ownerId);
}
