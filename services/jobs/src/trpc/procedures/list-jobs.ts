import { z } from 'zod';
import { jobListSchema } from '@comps/shared/contract/job';
import { listJobs as list } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

export const listJobs = procedure
  .input(z.object({ workspaceId: z.string().min(1).max(32) }))
  .output(jobListSchema)
  .query(({ ctx, input }) => list(ctx.jobs, input.workspaceId));
