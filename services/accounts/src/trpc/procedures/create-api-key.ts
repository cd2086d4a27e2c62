import { z } from 'zod';
import { createApiKey as createKey } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

export const createApiKeyInput = z.object({
  workspaceId: z.string().min(1).max(32),
  name: z.string().min(1).max(100).nullable().default(null),
});

/** The key itself is in this answer only: it is stored as a hash. */
export const issuedApiKeySchema = z.object({ apiKeyId: z.string(), key: z.string(), prefix: z.string(), lastFour: z.string() });

export const createApiKey = procedure
  .input(createApiKeyInput)
  .output(issuedApiKeySchema)
  .mutation(({ ctx, input }) => createKey(ctx.db, input.workspaceId, input.name));
