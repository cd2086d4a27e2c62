import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { reserveQuota as reserve } from '../../ledger/ledger-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.quota.reserve;

/** An exhausted quota is an answer (`ok: false`), not an error. */
export const reserveQuota = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => reserve(ctx.ledger, input));
