import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { renewAllowances as renew } from '../../ledger/allowance-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.quota.renewAllowances;

export const renewAllowances = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => renew(ctx.ledger, input));
