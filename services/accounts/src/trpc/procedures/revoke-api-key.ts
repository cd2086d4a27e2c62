import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { revokeKey } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

const { revoke } = accountsContract.apiKeys;

/** An operator's `key revoke`, given the key or its id. */
export const revokeApiKey = procedure
  .input(revoke.input)
  .output(revoke.output)
  .mutation(({ ctx, input }) => revokeKey(ctx.db, ctx.keys, input.keyOrId, ctx.ledger.now()));
