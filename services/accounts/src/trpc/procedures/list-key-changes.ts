import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { keyChangesOf } from '../../api-keys/api-key-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.apiKeys.changes;

/** Keys made and revoked since a moment: each api's catch-up every few seconds. */
export const listKeyChanges = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => keyChangesOf(ctx.db, new Date(input.since)));
