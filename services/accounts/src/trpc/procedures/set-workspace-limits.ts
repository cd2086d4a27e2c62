import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { forgetQuota } from '../../ledger/monthly-quota.js';
import { setWorkspaceLimits as setLimits } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.workspaces.setLimits;

export const setWorkspaceLimits = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => {
    const { workspaceId, ...patch } = input;
    forgetQuota(ctx.ledger, workspaceId);
    return setLimits(ctx.db, workspaceId, patch);
  });
