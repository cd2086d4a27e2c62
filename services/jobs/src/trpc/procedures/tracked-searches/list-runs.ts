import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { listRuns } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.runs;

/** The runs of the last 30 days, newest first. */
export const listRunsProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => listRuns(ctx.tracked, input.workspaceId, input.trackedSearchId));
