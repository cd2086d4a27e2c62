import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { exploreSellThrough } from '../../../explore/explore-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.explore.sellThrough;

/** A sell-through (two metered searches) for the dashboard's Explore page, charged 2 once its answer was handed back. */
export const exploreSellThroughProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => exploreSellThrough(ctx.explore, input.workspaceId, input.query, ctx.handover));
