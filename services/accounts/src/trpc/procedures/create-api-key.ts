import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { createApiKey as createKey } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

const { create } = accountsContract.apiKeys;

/** The key itself is in this answer only: it is stored as a hash. */
export const createApiKey = procedure
  .input(create.input)
  .output(create.output)
  .mutation(({ ctx, input }) => createKey(ctx.db, ctx.keys, input.workspaceId, input.name));
