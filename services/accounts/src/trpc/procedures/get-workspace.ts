import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { getEffectivePlan } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';

const { get } = accountsContract.workspaces;

/** The limits in force for a workspace (its plan with the operator's overrides); unknown: `invalid_request`. */
export const getWorkspace = procedure
  .input(get.input)
  .output(get.output)
  .query(async ({ ctx, input }) => ({ workspaceId: input.workspaceId, plan: await getEffectivePlan(ctx.db, input.workspaceId) }));
