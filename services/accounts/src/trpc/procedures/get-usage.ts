import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { getUsage as usage } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';

const { get } = accountsContract.usage;

export const getUsage = procedure
  .input(get.input)
  .output(get.output)
  .query(({ ctx, input }) => usage(ctx.db, input.workspaceId, ctx.ledger.now(), input.answeredRequestIds, input.allowanceUnits));
