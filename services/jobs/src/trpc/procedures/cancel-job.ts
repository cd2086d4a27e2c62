import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { cancelJob as cancel } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

const contract = jobsContract.jobs.cancel;

export const cancelJob = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => cancel(ctx.jobs, input.workspaceId, input.jobId));
