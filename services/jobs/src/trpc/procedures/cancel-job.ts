import { z } from 'zod';
import { jobRecordSchema } from '@comps/shared/contract/job';
import { cancelJob as cancel } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

export const cancelJob = procedure
  .input(z.object({ workspaceId: z.string().min(1).max(32), jobId: z.uuid() }))
  .output(jobRecordSchema)
  .mutation(({ ctx, input }) => cancel(ctx.jobs, input.workspaceId, input.jobId));
