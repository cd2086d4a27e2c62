import { z } from 'zod';
import { includableReasonSchema, statsIncludeBody, statsSchema } from './comps.js';
import { errorCodeSchema } from './error-codes.js';
import { listingItemSchema, listingQueryOf, SEARCH_DEFAULTS, type ListingQuery } from './listing.js';
import { LIMITS } from './limits.js';
import { marketSiteSchema } from './market-sites.js';
import { queryInt } from './query-fields.js';
import { bodyMarketSite, integerIn, searchTextField } from './search-fields.js';

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
export type JobResultType = z.infer<typeof jobResultTypeSchema>;

export const jobItemSchema = listingItemSchema.extend({ page: z.number().int() });
export type JobItem = z.infer<typeof jobItemSchema>;

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
    statsInclude: z.array(includableReasonSchema),
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
  /** Over every item collected so far, whatever `offset` and `limit` (beyond the specification). */
  stats: statsSchema,
  items: z.array(jobItemSchema),
  itemsPage: z.object({ offset: z.number().int(), limit: z.number().int(), total: z.number().int() }),
});
export type JobRecord = z.infer<typeof jobRecordSchema>;

export const jobSummarySchema = jobRecordSchema.omit({ stats: true, items: true, itemsPage: true });
export type JobSummary = z.infer<typeof jobSummarySchema>;

/** Body of `GET /v1/scrape/max` (beyond the specification): the workspace's jobs within retention, newest first. */
export const jobListSchema = z.object({ jobs: z.array(jobSummarySchema) });
export type JobList = z.infer<typeof jobListSchema>;

/** Body of `POST /v1/scrape/max` (JSON); unknown fields are ignored, as unknown query parameters are. */
export const jobCreateBodySchema = z.object(
  {
    keyword: searchTextField('must be a string').meta({ description: 'search text' }),
    marketSite: bodyMarketSite,
    maxPages: integerIn(LIMITS.jobPages.min, LIMITS.jobPages.max).default(LIMITS.jobPages.default).meta({ description: 'at most this many pages are fetched (and charged)' }),
    count: integerIn(LIMITS.jobCount.min, LIMITS.jobCount.max).default(LIMITS.jobCount.default).meta({ description: 'results per page' }),
    resultType: jobResultTypeSchema.default('inline').meta({ description: '`download`: items only through the CSV' }),
    statsInclude: statsIncludeBody.default([]),
  },
  { error: 'must be a JSON object' },
);
export type JobCreateBody = z.output<typeof jobCreateBodySchema>;

/** A window of a job's items, as the jobs service reads it. */
export const jobItemsWindowSchema = z.object({
  offset: z.number().int().min(0).max(LIMITS.jobItemsPage.maxOffset),
  limit: z.number().int().min(LIMITS.jobItemsPage.min).max(LIMITS.jobItemsPage.max),
});

/** Query of `GET /v1/scrape/max/results/{jobId}`. */
export const jobResultsQuerySchema = z.object({
  offset: queryInt(0, LIMITS.jobItemsPage.maxOffset).default(0).meta({ description: 'items to skip' }),
  limit: queryInt(LIMITS.jobItemsPage.min, LIMITS.jobItemsPage.max).default(LIMITS.jobItemsPage.default).meta({ description: 'items to return' }),
});

export const jobIdSchema = z.uuid({ error: 'must be a job id (a UUID)' }).meta({ param: { type: 'string', format: 'uuid' }, description: 'the job id' });

/** The search a job makes for one of its pages: its request, the specification's defaults for everything else. */
export function jobPageQuery(request: Pick<JobCreateBody, 'keyword' | 'marketSite' | 'count' | 'statsInclude'>, page: number): ListingQuery {
  return listingQueryOf({ ...SEARCH_DEFAULTS, keyword: request.keyword, marketSite: request.marketSite, count: request.count, statsInclude: request.statsInclude, page });
}
