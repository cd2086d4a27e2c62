import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { listTrackedSearches } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.list;

/** The workspace's tracked searches, newest first. */
export const listTrackedSearchesProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => listTrackedSearches(ctx.tracked, input.workspaceId));
