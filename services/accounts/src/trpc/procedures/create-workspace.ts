import { z } from 'zod';
import { planIdSchema } from '@comps/shared/contract/usage';
import { createWorkspace as create } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';
import { issuedApiKeySchema } from './create-api-key.js';

export const createWorkspaceInput = z.object({
  name: z.string().trim().min(1).max(200),
  planId: planIdSchema.default('free'),
});

export const createWorkspace = procedure
  .input(createWorkspaceInput)
  .output(z.object({ workspaceId: z.string(), apiKey: issuedApiKeySchema }))
  .mutation(({ ctx, input }) => create(ctx.db, input));
