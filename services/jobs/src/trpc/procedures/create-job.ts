import { z } from 'zod';
import { jobCreateBodySchema, jobRecordSchema } from '@comps/shared/contract/job';
import { IDEMPOTENCY_KEY_PATTERN } from '@comps/shared/contract/listing-params';
import { createJob as create } from '../../jobs/job-service.js';
import { procedure } from '../trpc.js';

export const createJobInput = z.object({
  workspaceId: z.string().min(1).max(32),
  apiKeyId: z.string().max(32).nullable(),
  apiKeyPrefix: z.string().max(16).nullable(),
  body: jobCreateBodySchema,
  idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN).nullable(),
});

/** `created: false` is a repeat with the same Idempotency-Key and body: the earlier job, nothing new. */
export const createJob = procedure
  .input(createJobInput)
  .output(z.object({ created: z.boolean(), job: jobRecordSchema }))
  .mutation(({ ctx, input }) => create(ctx.jobs, input));
