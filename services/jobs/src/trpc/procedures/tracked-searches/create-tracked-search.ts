import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { createTrackedSearch } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.create;

/** Creates a tracked search (409 `tracked_search_limit` at the plan's number) and starts its first run. */
export const createTrackedSearchProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => createTrackedSearch(ctx.tracked, input));
