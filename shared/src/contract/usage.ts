import { z } from 'zod';

export const planIdSchema = z.enum(['free', 'starter', 'pro']);
export type PlanId = z.infer<typeof planIdSchema>;

export const effectivePlanSchema = z.object({
  id: planIdSchema,
  name: z.string(),
  monthlyQuota: z.number().int(),
  rateLimit: z.object({ requests: z.number().int(), windowSeconds: z.number().int() }),
  concurrency: z.number().int(),
  activeJobs: z.number().int(),
  trackedSearches: z.number().int(),
  webhookEndpoints: z.number().int(),
});
export type EffectivePlan = z.infer<typeof effectivePlanSchema>;

/** Body of `GET /usage`. */
export const usageSchema = z.object({
  workspaceId: z.string(),
  plan: effectivePlanSchema,
  period: z.object({ start: z.iso.datetime(), end: z.iso.datetime() }),
  used: z.number().int(),
  remaining: z.number().int(),
});
export type Usage = z.infer<typeof usageSchema>;
