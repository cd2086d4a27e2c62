import type { PlanId } from '@comps/shared/contract/usage';
import type { EffectivePlan, Usage } from '@comps/shared/contract/usage';
import { quotaPeriodAt } from '@comps/shared/db/period';
import { withTransaction } from '@comps/shared/db/with-transaction';
import { AppError } from '@comps/shared/errors/app-error';
import { newWorkspaceId } from '@comps/shared/ids';
import type { KeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import { issueApiKey, type IssuedApiKey } from '../api-keys/api-key-service.js';
import { idleAllowanceUnits } from '../ledger/allowance-service.js';
import { quotaSnapshot, unsettledAmong } from '../ledger/ledger-service.js';
import { effectivePlan } from './effective-plan.js';
import type { AccountsDb, AccountsExecutor } from '../db/database.js';
import {
  findWorkspaceWithPlan,
  insertWorkspace,
  planExists,
  updateWorkspaceLimits,
  type LimitsPatch,
} from './workspace-repository.js';

export interface CreatedWorkspace {
  workspaceId: string;
  apiKey: IssuedApiKey;
}

/**
 * A workspace and its first API key, together or not at all. The key is announced to the apis when
 * `keys` is given; sign-up gives none, since it deletes that key unseen.
 */
export async function createWorkspace(db: AccountsDb, input: { name: string; planId: PlanId }, keys?: KeyAnnouncer): Promise<CreatedWorkspace> {
  if (!(await planExists(db, input.planId))) throw new AppError('invalid_request', `Unknown plan ${input.planId}`);
  const workspaceId = newWorkspaceId();
  const { keyHash, ...apiKey } = await withTransaction(db, async (trx) => {
    await insertWorkspace(trx, { id: workspaceId, name: input.name, planId: input.planId });
    return issueApiKey(trx, workspaceId, 'default');
  });
  await keys?.created(keyHash);
  return { workspaceId, apiKey };
}

export async function setWorkspaceLimits(db: AccountsDb, workspaceId: string, patch: LimitsPatch): Promise<EffectivePlan> {
  if (patch.planId !== undefined && !(await planExists(db, patch.planId))) {
    throw new AppError('invalid_request', `Unknown plan ${patch.planId}`);
  }
  if (!(await updateWorkspaceLimits(db, workspaceId, patch))) {
    throw new AppError('invalid_request', `Unknown workspace ${workspaceId}`);
  }
  return getEffectivePlan(db, workspaceId);
}

export async function getEffectivePlan(db: AccountsDb, workspaceId: string): Promise<EffectivePlan> {
  const workspace = await findWorkspaceWithPlan(db, workspaceId);
  if (!workspace) throw new AppError('invalid_request', `Unknown workspace ${workspaceId}`);
  return effectivePlan(workspace.plan, workspace.overrides);
}

/**
 * What the contract's `GET /usage` answers: `used` counts the successes answered but not yet
 * settled (`answeredRequestIds`, which the caller's settlement outbox knows); `remaining` is the
 * quota less `used` and less the units held by requests in flight, so idle units of the
 * workspace's allowances (`allowanceUnits`, which the caller's Redis knows) count as remaining.
 */
export async function getUsage(
  db: AccountsDb,
  workspaceId: string,
  now: Date,
  answeredRequestIds: string[] = [],
  allowanceUnits: Array<{ allowanceId: string; units: number }> = [],
): Promise<Usage> {
  const plan = await getEffectivePlan(db, workspaceId);
  const period = quotaPeriodAt(now);
  // One snapshot for all reads (when there are several): a settlement committed between them would
  // move a charge from "reserved" to "used" unseen, and the answer would count it nowhere.
  const read = async (executor: AccountsExecutor) => ({
    quota: await quotaSnapshot(executor, workspaceId, plan.monthlyQuota, now),
    unsettled: answeredRequestIds.length > 0 ? await unsettledAmong(executor, workspaceId, answeredRequestIds) : 0,
    idle: allowanceUnits.length > 0 ? await idleAllowanceUnits(executor, workspaceId, allowanceUnits) : 0,
  });
  const { quota, unsettled, idle } =
    answeredRequestIds.length === 0 && allowanceUnits.length === 0 ? await read(db) : await db.transaction().setIsolationLevel('repeatable read').execute(read);
  const used = quota.used + unsettled;
  return {
    workspaceId,
    plan,
    period: { start: period.start.toISOString(), end: period.end.toISOString() },
    used,
    remaining: Math.max(0, Math.min(plan.monthlyQuota - used, quota.remaining + idle)),
  };
}
