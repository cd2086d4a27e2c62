import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { getTrackedSearch } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.get;

/** One tracked search with its last run and its archive's figures. */
export const getTrackedSearchProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => getTrackedSearch(ctx.tracked, input.workspaceId, input.trackedSearchId));
