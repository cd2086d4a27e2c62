import { accountsContract } from '@comps/shared/internal/accounts/accounts-contract';
import { createWorkspace as create } from '../../workspaces/workspace-service.js';
import { procedure } from '../trpc.js';

const contract = accountsContract.workspaces.create;

export const createWorkspace = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => create(ctx.db, input, ctx.keys));
