import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { deleteTrackedSearch } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.delete;

/** Deletes a tracked search with its runs and its archive. */
export const deleteTrackedSearchProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => deleteTrackedSearch(ctx.tracked, input.workspaceId, input.trackedSearchId));
