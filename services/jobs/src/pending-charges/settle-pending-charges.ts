import { withTransaction } from '@comps/shared/db/with-transaction';
import type { HistoryRecord } from '@comps/shared/internal/accounts/history-record';
import type { Logger } from '@comps/shared/logging/create-logger';
import type { QuotaLedger } from '@comps/shared/metering/quota-ledger';
import { isRefusal } from '@comps/shared/metering/settlement-outbox';
import type { JobsDb, JobsExecutor } from '../db/database.js';
import { clearJobPagesChargePending, uncountCharge } from '../jobs/job-repository.js';
import { RUN_HISTORY_PATH } from '../tracked/run-handler.js';
import { clearRunPageChargePending, uncountRunCharge } from '../tracked/run-repository.js';
import { JOB_PAGE_HISTORY_PATH } from '../worker/scrape-job-handler.js';
import { listPendingCharges, type PendingCharge } from './pending-charge-repository.js';

/** Pages read at a time; each is settled in a round trip of its own (they are rare: a process died between a page's store and its charge's handover). */
const BATCH = 100;

export interface PendingChargeDeps {
  db: JobsDb;
  ledger: QuotaLedger;
  logger: Logger;
}

/**
 * A page is counted as charged in the transaction that stores it, and its charge is handed to the
 * settlement outbox (Redis) just after. A jobs process that dies in between leaves a page its
 * caller has, with no charge on its way: its reservation (or allowance unit) would lapse unsettled,
 * and the ledger would show a page fewer than the job or run says it charged. So would a process
 * that could hand it neither to the outbox nor to accounts. The page's row says its charge waits
 * until the handover (`chargePendingSince`); this settles those still waiting after `graceMs` (the
 * settlement outbox's own takeover of a dead process's charges), by request id, so a charge the
 * outbox settled after all is not made twice, with the page's history entry (the process that died
 * never wrote it). One the ledger does not charge (its unit freed and the quota used up since, or
 * refused) is uncounted: the sweep alone decides a charge a process did not hand over. Accounts out
 * of reach ends the sweep; the next one goes on. Answers how many were charged and how many not.
 */
export async function settlePendingCharges(deps: PendingChargeDeps, now: Date, graceMs: number, signal: AbortSignal): Promise<{ charged: number; notCharged: number }> {
  const totals = { charged: 0, notCharged: 0 };
  const before = new Date(now.getTime() - graceMs);
  for (;;) {
    const pending = await listPendingCharges(deps.db, before, BATCH);
    for (const charge of pending) {
      signal.throwIfAborted();
      const charged = await settle(deps, charge);
      // Cleared and uncounted together, once.
      await withTransaction(deps.db, async (trx) => {
        if ((await clearPending(trx, charge)) && !charged) await uncount(trx, charge);
      });
      totals[charged ? 'charged' : 'notCharged'] += 1;
    }
    if (pending.length < BATCH) return totals;
  }
}

/** Whether the ledger charged the page (now, or before: settling is once per request id). */
async function settle(deps: PendingChargeDeps, charge: PendingCharge): Promise<boolean> {
  const history = [historyOf(charge)];
  try {
    const outcome = charge.allowanceId
      ? await deps.ledger.settleBatch([], history, [{ requestId: charge.requestId, allowanceId: charge.allowanceId }])
      : await deps.ledger.settleBatch([charge.requestId], history);
    return outcome.charged === 1;
  } catch (error) {
    // Sending it again would change nothing (a workspace accounts no longer knows): not charged, loudly.
    if (!isRefusal(error)) throw error;
    deps.logger.error({ err: String(error), requestId: charge.requestId }, 'the charge of a stored page was refused by accounts; it is not charged');
    return false;
  }
}

/** The page's entry as its process would have written it with the charge (how long it took and how many rows it read died with it). */
function historyOf(charge: PendingCharge): HistoryRecord {
  return {
    requestId: charge.requestId,
    workspaceId: charge.workspaceId,
    apiKeyId: charge.apiKeyId,
    apiKeyPrefix: charge.apiKeyPrefix,
    method: 'POST',
    path: charge.kind === 'job' ? JOB_PAGE_HISTORY_PATH : RUN_HISTORY_PATH,
    status: 200,
    code: null,
    charged: 1,
    durationMs: 0,
    marketSite: charge.marketSite,
    hasKeyword: true,
    resultCount: null,
    jobId: charge.ownerId,
  };
}

async function clearPending(db: JobsExecutor, charge: PendingCharge): Promise<boolean> {
  return charge.kind === 'job' ? (await clearJobPagesChargePending(db, charge.ownerId, [charge.page])) === 1 : clearRunPageChargePending(db, charge.ownerId, charge.page);
}

function uncount(db: JobsExecutor, charge: PendingCharge): Promise<void> {
  return charge.kind === 'job' ? uncountCharge(db, charge.ownerId) : uncountRunCharge(db, charge.ownerId);
}
