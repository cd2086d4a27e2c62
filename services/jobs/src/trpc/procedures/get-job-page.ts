import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { getJobPage as get } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

const contract = jobsContract.jobs.page;

export const getJobPage = procedure
  .input(contract.input)
  .output(contract.output)
  .query(({ ctx, input }) => get(ctx.jobs, input.workspaceId, input.jobId, { offset: input.offset, limit: input.limit }));
