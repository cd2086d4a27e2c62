import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { listJobs as list } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

const contract = jobsContract.jobs.list;

export const listJobs = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => list(ctx.jobs, input.workspaceId));
