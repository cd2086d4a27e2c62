import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { exploreSearch } from '../../../explore/explore-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.explore.search;

/** A metered search for the dashboard's Explore page, charged once its answer was handed back. */
export const exploreSearchProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => exploreSearch(ctx.explore, input.workspaceId, input.query, ctx.handover));
