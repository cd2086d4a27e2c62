import { jobsContract } from '@comps/shared/internal/jobs/jobs-contract';
import { createJob as create } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

const contract = jobsContract.jobs.create;

/** `created: false` is a repeat with the same Idempotency-Key and body: the earlier job, nothing new. */
export const createJob = procedure
  .input(contract.input)
  .output(contract.output)
  .mutation(({ ctx, input }) => create(ctx.jobs, input));
