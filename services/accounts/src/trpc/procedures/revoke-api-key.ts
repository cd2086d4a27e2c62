import { z } from 'zod';
import { revokeKey } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

export const revokeApiKeyInput = z.object({ keyOrId: z.string().min(1).max(200) });

export const revokeApiKey = procedure
  .input(revokeApiKeyInput)
  .mutation(({ ctx, input }) => revokeKey(ctx.db, input.keyOrId));
