import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { getJobCountedSales as get } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

const contract = jobsContract.jobs.countedSales;

export const getJobCountedSales = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => get(ctx.jobs, input.workspaceId, input.jobId));
