import { z } from 'zod';
import { revokeKey } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

/** With `workspaceId`, only that workspace's key: another's is `not_found`, as a key that does not exist. */
export const revokeApiKeyInput = z.object({ keyOrId: z.string().min(1).max(200), workspaceId: z.string().min(1).max(32).optional() });

export const revokeApiKey = procedure
  .input(revokeApiKeyInput)
  .output(z.object({ apiKeyId: z.string(), workspaceId: z.string() }))
  .mutation(({ ctx, input }) => revokeKey(ctx.db, input.keyOrId, ctx.ledger.now(), input.workspaceId));
