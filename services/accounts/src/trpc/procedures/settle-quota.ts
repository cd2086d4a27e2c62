import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { settleQuota as settle } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.quota.settle;

export const settleQuota = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => settle(ctx.ledger, input.requestId));
