import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { leaseAllowance as lease } from '../../ledger/allowance-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.quota.leaseAllowance;

/** A refusal (too little headroom) is an answer (`ok: false`): the caller reserves per request. */
export const leaseAllowance = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => lease(ctx.ledger, input));
