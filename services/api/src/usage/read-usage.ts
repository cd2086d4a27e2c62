import type { Usage } from '@comps/shared/contract/usage';
import { MAX_ANSWERED_REQUEST_IDS } from '@comps/shared/internal/accounts/accounts-contract';
import { type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import type { QuotaAllowances } from '@comps/shared/metering/quota-allowances';
import type { SettlementOutbox } from '@comps/shared/metering/settlement-outbox';

/**
 * The workspace's usage as its caller must see it: successes already answered count at once,
 * though their charge may still wait in the settlement outbox (read your own writes); the idle
 * units of the workspace's allowance count as remaining (they can still be started), once a block
 * on its way between accounts and Redis has arrived. Both are read from Redis, the allowance first,
 * then accounts answers.
 */
export async function readUsage(
  deps: { accounts: AccountsClient; settlements: SettlementOutbox; allowances?: QuotaAllowances | undefined },
  workspaceId: string,
  signal: AbortSignal,
): Promise<Usage> {
  const allowanceUnits = (await deps.allowances?.idleUnitsOf(workspaceId, signal)) ?? [];
  // After the allowance: a success answered while the read waited for a block on its way counts (its unit left the allowance).
  const pending = await deps.settlements.pendingOf(workspaceId);
  // Normally a second's worth at most (the settlement batch interval); a stalled backlog is counted up to the limit.
  const answeredRequestIds = pending.slice(0, MAX_ANSWERED_REQUEST_IDS);
  return deps.accounts.usage.get.query({ workspaceId, answeredRequestIds, allowanceUnits });
}
