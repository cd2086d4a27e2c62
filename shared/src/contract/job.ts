import { z } from 'zod';
import { errorCodeSchema } from './error-codes.js';
import { listingItemSchema } from './listing.js';
import { marketSiteSchema } from './market-sites.js';

export const jobStatusSchema = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type JobStatus = z.infer<typeof jobStatusSchema>;

export const jobStopReasonSchema = z.enum([
  'max_pages',
  'empty_page',
  'repeated_page',
  'cancelled',
  'quota_exhausted',
  'error',
]);
export type JobStopReason = z.infer<typeof jobStopReasonSchema>;

export const jobResultTypeSchema = z.enum(['inline', 'download']);

export const jobItemSchema = listingItemSchema.extend({ page: z.number().int() });

/** Body of job creation, results and cancellation (contract, "Jobs"). */
export const jobRecordSchema = z.object({
  jobId: z.uuid(),
  status: jobStatusSchema,
  stopReason: jobStopReasonSchema.nullable(),
  request: z.object({
    keyword: z.string(),
    marketSite: marketSiteSchema,
    maxPages: z.number().int(),
    count: z.number().int(),
    resultType: jobResultTypeSchema,
  }),
  progress: z.object({
    pagesFetched: z.number().int(),
    pagesCharged: z.number().int(),
    itemsCollected: z.number().int(),
  }),
  error: z.object({ code: errorCodeSchema, error: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  resultsUrl: z.string(),
  downloadUrl: z.string(),
  items: z.array(jobItemSchema),
  itemsPage: z.object({ offset: z.number().int(), limit: z.number().int(), total: z.number().int() }),
});
export type JobRecord = z.infer<typeof jobRecordSchema>;

export const jobListSchema = z.object({
  jobs: z.array(jobRecordSchema.omit({ items: true, itemsPage: true })),
});
