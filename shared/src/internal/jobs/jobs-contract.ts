import { z } from 'zod';
import { jobCreateBodySchema, jobItemsWindowSchema, jobListSchema, jobRecordSchema } from '../../contract/job.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../contract/idempotency.js';
import { workspaceIdSchema } from '../../ids.js';
import { mutation, query } from '../procedure-contract.js';

const ownedJob = z.object({ workspaceId: workspaceIdSchema, jobId: z.uuid() });

/**
 * The jobs service's internal procedures, as the api and the dashboard call them (services/jobs
 * implements each with these schemas). A job of another workspace is `job_not_found`, as a missing one.
 */
export const jobsContract = {
  jobs: {
    /** `created: false` is a repeat with the same Idempotency-Key and body: the earlier job, nothing new. */
    create: mutation(
      z.object({
        workspaceId: workspaceIdSchema,
        apiKeyId: z.string().max(32).nullable(),
        apiKeyPrefix: z.string().max(16).nullable(),
        body: jobCreateBodySchema,
        idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN).nullable(),
      }),
      z.object({ created: z.boolean(), job: jobRecordSchema }),
    ),
    get: query(ownedJob.extend(jobItemsWindowSchema.shape), jobRecordSchema),
    list: query(z.object({ workspaceId: workspaceIdSchema }), jobListSchema),
    cancel: mutation(ownedJob, jobRecordSchema),
  },
} as const;
