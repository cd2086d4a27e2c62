import type { EffectivePlan, PlanId } from '@comps/shared/contract/usage';

export interface PlanLimits {
  id: PlanId;
  name: string;
  monthlyQuota: number;
  rateLimitRequests: number;
  rateLimitWindowSeconds: number;
  concurrency: number;
  activeJobs: number;
  trackedSearches: number;
  webhookEndpoints: number;
}

export interface LimitOverrides {
  monthlyQuota: number | null;
  rateLimit: number | null;
  concurrency: number | null;
  trackedSearches: number | null;
  webhookEndpoints: number | null;
}

/** A workspace's limits: its plan's, except where an operator set an override. */
export function effectivePlan(plan: PlanLimits, overrides: LimitOverrides): EffectivePlan {
  return {
    id: plan.id,
    name: plan.name,
    monthlyQuota: overrides.monthlyQuota ?? plan.monthlyQuota,
    rateLimit: {
      requests: overrides.rateLimit ?? plan.rateLimitRequests,
      windowSeconds: plan.rateLimitWindowSeconds,
    },
    concurrency: overrides.concurrency ?? plan.concurrency,
    activeJobs: plan.activeJobs,
    trackedSearches: overrides.trackedSearches ?? plan.trackedSearches,
    webhookEndpoints: overrides.webhookEndpoints ?? plan.webhookEndpoints,
  };
}
