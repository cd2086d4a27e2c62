import { AppError } from '@comps/shared/errors/app-error';
import type { AccountsExecutor } from '../db/database.js';
import { effectivePlan } from '../workspaces/effective-plan.js';
import { findWorkspaceWithPlan } from '../workspaces/workspace-repository.js';
import type { LedgerContext } from './ledger-context.js';

/** The workspace's monthly quota, read at most once a second per workspace. */
export async function monthlyQuotaOf(ledger: LedgerContext, workspaceId: string, db: AccountsExecutor = ledger.db): Promise<number> {
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
