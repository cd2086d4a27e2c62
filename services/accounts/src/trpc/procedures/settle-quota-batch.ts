import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { settleQuotaBatch as settleBatch } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.quota.settleBatch;

export const settleQuotaBatch = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => settleBatch(ctx.ledger, input.requestIds, input.history, input.allowanceCharges));
