import { z } from 'zod';
import { createApiKey as createKey } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

export const createApiKeyInput = z.object({
  workspaceId: z.string().min(1).max(32),
  name: z.string().min(1).max(100).nullable().default(null),
});

export const createApiKey = procedure
  .input(createApiKeyInput)
  .mutation(({ ctx, input }) => createKey(ctx.db, input.workspaceId, input.name));
