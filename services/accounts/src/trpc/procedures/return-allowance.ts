import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { returnAllowance as giveBack } from '../../ledger/allowance-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.quota.returnAllowance;

export const returnAllowance = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => giveBack(ctx.ledger, input));
