import type { HistoryRecord } from '../internal/accounts/history-record.js';
import type {
  AllowanceCharge,
  AllowanceLease,
  AllowanceRenewal,
  QuotaSnapshot,
  ReserveOutcome,
  SettleBatchOutcome,
  SettleOutcome,
} from '../internal/accounts/quota.js';

/**
 * The usage ledger as the metering module needs it. Accounts owns the ledger; its client
 * (`@comps/accounts/client`) provides this, so every caller charges through the same service.
 * Failures reach callers as AppErrors (`service_unavailable` when accounts cannot be reached).
 */
export interface QuotaLedger {
  reserve(workspaceId: string, requestId: string): Promise<ReserveOutcome>;
  release(requestId: string): Promise<void>;
  settle(requestId: string): Promise<SettleOutcome>;
  /** Settles the charges (of reservations, and of allowance units) and records their history entries, in one transaction. */
  settleBatch(requestIds: string[], history: HistoryRecord[], allowanceCharges?: AllowanceCharge[]): Promise<SettleBatchOutcome>;
  /** A block of units for the workspace's allowance (see QuotaAllowances). */
  leaseAllowance(input: { workspaceId: string; allowanceId: string | null; units: number; leaseMs: number }): Promise<AllowanceLease>;
  renewAllowances(allowanceIds: string[], leaseMs: number): Promise<AllowanceRenewal['renewed']>;
  /** Gives back idle units; answers how many were freed. */
  returnAllowance(allowanceId: string, units: number): Promise<number>;
}

export type { QuotaSnapshot };
