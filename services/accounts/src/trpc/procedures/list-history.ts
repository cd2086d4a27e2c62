import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { listHistory as list } from '../../history/history-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.history.list;

export const listHistory = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => list(ctx.db, input, ctx.ledger.now()));
