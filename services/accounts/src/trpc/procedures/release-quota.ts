import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { releaseQuota as release } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.quota.release;

export const releaseQuota = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => release(ctx.ledger, input.requestId));
