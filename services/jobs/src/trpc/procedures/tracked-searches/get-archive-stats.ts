import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { archiveStats } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.stats;

/** The statistics and the series over the archive in a period. */
export const getArchiveStatsProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => archiveStats(ctx.tracked, input.workspaceId, input.trackedSearchId, input));
