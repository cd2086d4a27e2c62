import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { retryingDeadlocks } from '@comps/shared/db/with-transaction';
import { recordHistory as record } from '../../history/history-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.history.record;

export const recordHistory = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(async ({ ctx, input }) => {
    // Batches from several processes may upsert neighbouring rows at once: a deadlock victim goes again.
    await retryingDeadlocks(() => record(ctx.db, input.entries));
    return { recorded: input.entries.length };
  });
