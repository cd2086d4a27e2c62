import { z } from 'zod';
import { effectivePlanSchema } from '@comps/shared/contract/usage';
import { getEffectivePlan } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';

/** The limits in force for a workspace (its plan with the operator's overrides); unknown: `invalid_request`. */
export const getWorkspace = procedure
  .input(z.object({ workspaceId: z.string().min(1).max(32) }))
  .output(z.object({ workspaceId: z.string(), plan: effectivePlanSchema }))
  .query(async ({ ctx, input }) => ({ workspaceId: input.workspaceId, plan: await getEffectivePlan(ctx.db, input.workspaceId) }));
