import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { runNow } from '../../../tracked/tracked-search-service.js';
import { procedure } from '../../trpc.js';

const contract = jobsContract.trackedSearches.runNow;

/** Starts a run now (409 `run_in_progress` while one runs). */
export const runTrackedSearchProcedure = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => runNow(ctx.tracked, input));
