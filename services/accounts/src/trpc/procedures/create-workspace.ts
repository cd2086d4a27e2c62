import { z } from 'zod';
import { planIdSchema } from '@comps/shared/contract/usage';
import { createWorkspace as create } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';

export const createWorkspaceInput = z.object({
  name: z.string().trim().min(1).max(200),
  planId: planIdSchema.default('free'),
});

export const createWorkspace = procedure
  .input(createWorkspaceInput)
  .mutation(({ ctx, input }) => create(ctx.db, input));
