import type { HistoryRecord } from '../internal/accounts/history-record.js';
import type { QuotaSnapshot, ReserveOutcome, SettleBatchOutcome, SettleOutcome } from '../internal/accounts/quota.js';

/**
 * The usage ledger as the metering module needs it. Accounts owns the ledger; its client
 * (`@comps/accounts/client`) provides this, so every caller charges through the same service.
 * Failures reach callers as AppErrors (`service_unavailable` when accounts cannot be reached).
 */
export interface QuotaLedger {
  reserve(workspaceId: string, requestId: string): Promise<ReserveOutcome>;
  release(requestId: string): Promise<void>;
  settle(requestId: string): Promise<SettleOutcome>;
  /** Settles the charges and records their history entries, in one transaction. */
  settleBatch(requestIds: string[], history: HistoryRecord[]): Promise<SettleBatchOutcome>;
}

export type { QuotaSnapshot };
