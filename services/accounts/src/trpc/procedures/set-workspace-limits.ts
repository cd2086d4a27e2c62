import { z } from 'zod';
import { effectivePlanSchema, planIdSchema } from '@comps/shared/contract/usage';
import { setWorkspaceLimits as setLimits } from '../../workspaces/workspace-service.js';
import { forgetQuota } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

/** A number sets an override, null clears it (back to the plan's value), absent leaves it. */
export const setWorkspaceLimitsInput = z.object({
  workspaceId: z.string().min(1).max(32),
  planId: planIdSchema.optional(),
  monthlyQuota: z.number().int().min(0).nullable().optional(),
  rateLimit: z.number().int().min(1).nullable().optional(),
  concurrency: z.number().int().min(1).nullable().optional(),
});

export const setWorkspaceLimits = procedure
  .input(setWorkspaceLimitsInput)
  .output(effectivePlanSchema)
  .mutation(({ ctx, input }) => {
    const { workspaceId, ...patch } = input;
    forgetQuota(ctx.ledger, workspaceId);
    return setLimits(ctx.db, workspaceId, patch);
  });
