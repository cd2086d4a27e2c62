import type { PlanId } from '@comps/shared/contract/usage';
import type { LimitOverrides, PlanLimits } from './effective-plan.js';
import type { AccountsExecutor } from '../db/database.js';

export interface WorkspaceWithPlan {
  id: string;
  name: string;
  plan: PlanLimits;
  overrides: LimitOverrides;
}

export async function insertWorkspace(
  db: AccountsExecutor,
  workspace: { id: string; name: string; planId: PlanId },
): Promise<void> {
  await db.insertInto('workspaces').values(workspace).execute();
}

export async function planExists(db: AccountsExecutor, planId: string): Promise<boolean> {
  const row = await db.selectFrom('plans').select('id').where('id', '=', planId).executeTakeFirst();
  return row !== undefined;
}

export async function findWorkspaceWithPlan(db: AccountsExecutor, workspaceId: string): Promise<WorkspaceWithPlan | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .innerJoin('plans', 'plans.id', 'workspaces.planId')
    .select([
      'workspaces.id',
      'workspaces.name',
      'workspaces.monthlyQuotaOverride',
      'workspaces.rateLimitOverride',
      'workspaces.concurrencyOverride',
      'workspaces.trackedSearchesOverride',
      'workspaces.webhookEndpointsOverride',
      'plans.id as planId',
      'plans.name as planName',
      'plans.monthlyQuota',
      'plans.rateLimitRequests',
      'plans.rateLimitWindowSeconds',
      'plans.concurrency',
      'plans.activeJobs',
      'plans.trackedSearches',
      'plans.webhookEndpoints',
    ])
    .where('workspaces.id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    plan: {
      id: row.planId as PlanId,
      name: row.planName,
      monthlyQuota: row.monthlyQuota,
      rateLimitRequests: row.rateLimitRequests,
      rateLimitWindowSeconds: row.rateLimitWindowSeconds,
      concurrency: row.concurrency,
      activeJobs: row.activeJobs,
      trackedSearches: row.trackedSearches,
      webhookEndpoints: row.webhookEndpoints,
    },
    overrides: {
      monthlyQuota: row.monthlyQuotaOverride,
      rateLimit: row.rateLimitOverride,
      concurrency: row.concurrencyOverride,
      trackedSearches: row.trackedSearchesOverride,
      webhookEndpoints: row.webhookEndpointsOverride,
    },
  };
}

export interface LimitsPatch {
  monthlyQuota?: number | null;
  rateLimit?: number | null;
  concurrency?: number | null;
  trackedSearches?: number | null;
  webhookEndpoints?: number | null;
  planId?: PlanId;
}

export async function updateWorkspaceLimits(db: AccountsExecutor, workspaceId: string, patch: LimitsPatch): Promise<boolean> {
  const values = {
    ...(patch.monthlyQuota === undefined ? {} : { monthlyQuotaOverride: patch.monthlyQuota }),
    ...(patch.rateLimit === undefined ? {} : { rateLimitOverride: patch.rateLimit }),
    ...(patch.concurrency === undefined ? {} : { concurrencyOverride: patch.concurrency }),
    ...(patch.trackedSearches === undefined ? {} : { trackedSearchesOverride: patch.trackedSearches }),
    ...(patch.webhookEndpoints === undefined ? {} : { webhookEndpointsOverride: patch.webhookEndpoints }),
    ...(patch.planId === undefined ? {} : { planId: patch.planId }),
  };
  if (Object.keys(values).length === 0) return (await findWorkspaceWithPlan(db, workspaceId)) !== undefined;
  const result = await db.updateTable('workspaces').set(values).where('id', '=', workspaceId).executeTakeFirst();
  // MySQL counts matched rows only when values change; fall back to a lookup for "unchanged".
  return result.numUpdatedRows > 0n || (await findWorkspaceWithPlan(db, workspaceId)) !== undefined;
}
