import { z } from 'zod';
import { jobRecordSchema } from '@comps/shared/contract/job';
import { getJob as get } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

export const getJobInput = z.object({
  workspaceId: z.string().min(1).max(32),
  jobId: z.uuid(),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(5000),
});

export const getJob = procedure
  .input(getJobInput)
  .output(jobRecordSchema)
  .query(({ ctx, input }) => get(ctx.jobs, input.workspaceId, input.jobId, { offset: input.offset, limit: input.limit }));
