import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { updateTrackedSearchSettings } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.update;

/** Changes the name, schedule or pages per run; pauses or resumes. */
export const updateTrackedSearchProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => updateTrackedSearchSettings(ctx.tracked, input.workspaceId, input.trackedSearchId, input.changes));
