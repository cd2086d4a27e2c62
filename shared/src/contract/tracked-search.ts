import { z } from 'zod';
import { CONDITION_GROUPS, statsIncludeBody, statsSchema } from './comps.js';
import { errorCodeSchema } from './error-codes.js';
import { BUYING_FORMATS, ITEM_CONDITIONS, listingItemSchema, listingQueryOf, listingQuerySchema, SEARCH_DEFAULTS, type ListingQuery } from './listing.js';
import { queryBoolean, queryDate, queryEnum, queryInt } from './query-fields.js';
import { bodyMarketSite, integerIn, oneOf, searchTextField } from './search-fields.js';

/** Limits of tracked searches and their archive (contract, "Tracked searches and the sold archive"). */
export const TRACKED_SEARCH_LIMITS = {
  name: { min: 1, max: 100 },
  maxPagesPerRun: { min: 1, max: 20, default: 5 },
  /** Each page of a run asks for this many rows (the most the marketplace gives). */
  pageSize: 200,
  sales: { min: 1, max: 1000, default: 200 },
  /** Runs listed: those of the last 30 days. */
  runsDays: 30,
  /** `upstream_blocked` runs in a row that pause a tracked search. */
  blockedRunsToPause: 3,
  /** The most a run's next time is pushed past its schedule, as a share of the schedule's period. */
  jitter: 0.1,
} as const;

export const TRACKED_SEARCH_ID_PATTERN = /^ts_[0-9A-HJKMNP-TV-Z]{26}$/;
export const RUN_ID_PATTERN = /^run_[0-9A-HJKMNP-TV-Z]{26}$/;
export const trackedSearchIdSchema = z.string().regex(TRACKED_SEARCH_ID_PATTERN, { error: 'must be a tracked search id (ts_…)' });
export const runIdSchema = z.string().regex(RUN_ID_PATTERN);

export const SCHEDULES = ['hourly', 'daily', 'weekly'] as const;
export const scheduleSchema = z.enum(SCHEDULES);
export type Schedule = z.infer<typeof scheduleSchema>;

/** How long each schedule waits between runs. */
export const SCHEDULE_PERIOD_MS: Record<Schedule, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 7 * 86_400_000 };

export const trackedSearchStatusSchema = z.enum(['active', 'paused']);
export type TrackedSearchStatus = z.infer<typeof trackedSearchStatusSchema>;

export const runTriggerSchema = z.enum(['schedule', 'manual']);
export type RunTrigger = z.infer<typeof runTriggerSchema>;
export const runStatusSchema = z.enum(['running', 'completed', 'failed']);
export type RunStatus = z.infer<typeof runStatusSchema>;
export const runStopReasonSchema = z.enum(['caught_up', 'max_pages', 'empty_page', 'repeated_page', 'quota_exhausted', 'error']);
export type RunStopReason = z.infer<typeof runStopReasonSchema>;

export const runSchema = z.object({
  runId: runIdSchema,
  trigger: runTriggerSchema,
  status: runStatusSchema,
  stopReason: runStopReasonSchema.nullable(),
  pagesFetched: z.number().int(),
  pagesCharged: z.number().int(),
  newSales: z.number().int(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  error: z.object({ code: errorCodeSchema, error: z.string() }).nullable(),
});
export type Run = z.infer<typeof runSchema>;

/** The search a tracked search runs (always sold, sorted `endedRecently`, 200 a page). */
export const trackedQuerySchema = listingQuerySchema
  .pick({ marketSite: true, categoryId: true, itemCondition: true, minPrice: true, maxPrice: true, buyingFormat: true, exactMatch: true, statsInclude: true })
  .extend({ keyword: z.string() });
export type TrackedQuery = z.infer<typeof trackedQuerySchema>;

export const trackedSearchSchema = z.object({
  trackedSearchId: trackedSearchIdSchema,
  name: z.string(),
  status: trackedSearchStatusSchema,
  /** Why a paused tracked search was paused by the service (three blocked runs in a row); null when paused by the caller or active. */
  pausedReason: z.string().nullable(),
  query: trackedQuerySchema,
  schedule: scheduleSchema,
  maxPagesPerRun: z.number().int(),
  createdAt: z.iso.datetime(),
  /** Null while paused. */
  nextRunAt: z.iso.datetime().nullable(),
  lastRun: runSchema.nullable(),
  archive: z.object({ sales: z.number().int(), firstSoldDate: z.iso.date().nullable(), lastSoldDate: z.iso.date().nullable() }),
  links: z.object({ sales: z.string(), stats: z.string(), csv: z.string() }),
});
export type TrackedSearch = z.infer<typeof trackedSearchSchema>;

export const trackedSearchListSchema = z.object({ trackedSearches: z.array(trackedSearchSchema) });
export const trackedSearchDeletedSchema = z.object({ trackedSearchId: trackedSearchIdSchema, deleted: z.literal(true) });
export const runListSchema = z.object({ runs: z.array(runSchema) });

const price = z.number({ error: 'must be a number' }).min(0, { error: 'must be at least 0' }).max(1e9, { error: 'must be at most 1000000000' });
const nameField = z
  .string({ error: 'must be a string' })
  .trim()
  .min(TRACKED_SEARCH_LIMITS.name.min, { error: 'must not be empty' })
  .max(TRACKED_SEARCH_LIMITS.name.max, { error: `must be at most ${TRACKED_SEARCH_LIMITS.name.max} characters` });
const maxPagesPerRun = integerIn(TRACKED_SEARCH_LIMITS.maxPagesPerRun.min, TRACKED_SEARCH_LIMITS.maxPagesPerRun.max);

/** Body of `POST /v1/tracked-searches` (JSON); unknown fields are ignored. */
export const trackedSearchCreateObject = z.object(
  {
    keyword: searchTextField('must be a string').meta({ description: 'search text' }),
    name: nameField.optional().meta({ description: 'how the tracked search is shown (default: the keyword)' }),
    marketSite: bodyMarketSite,
    categoryId: z.string({ error: 'must be a string' }).regex(/^\d{1,12}$/, { error: 'must be a category number' }).default(SEARCH_DEFAULTS.categoryId).meta({ description: 'the marketplace category (0: all)' }),
    itemCondition: oneOf(ITEM_CONDITIONS).default(SEARCH_DEFAULTS.itemCondition).meta({ description: 'condition filter' }),
    minPrice: price.optional().meta({ description: 'lower price bound' }),
    maxPrice: price.optional().meta({ description: 'upper price bound' }),
    buyingFormat: oneOf(BUYING_FORMATS).default(SEARCH_DEFAULTS.buyingFormat).meta({ description: 'buying-format filter' }),
    exactMatch: z.boolean({ error: 'must be true or false' }).default(SEARCH_DEFAULTS.exactMatch).meta({ description: 'excludes rows the marketplace marks as loose matches' }),
    schedule: oneOf(SCHEDULES).default('daily').meta({ description: 'how often it runs' }),
    maxPagesPerRun: maxPagesPerRun.default(TRACKED_SEARCH_LIMITS.maxPagesPerRun.default).meta({ description: 'at most this many pages a run (each charged one request)' }),
    statsInclude: statsIncludeBody.default([]),
  },
  { error: 'must be a JSON object' },
);
export const trackedSearchCreateSchema = trackedSearchCreateObject.refine(
  (body) => body.minPrice === undefined || body.maxPrice === undefined || body.minPrice <= body.maxPrice,
  { error: 'must not be above maxPrice', path: ['minPrice'] },
);
export type TrackedSearchCreate = z.output<typeof trackedSearchCreateSchema>;

/** Body of `PATCH /v1/tracked-searches/{id}`: any of these; the search itself cannot change (its archive is of that search). */
export const trackedSearchUpdateObject = z.object(
  {
    name: nameField.optional(),
    schedule: oneOf(SCHEDULES).optional().meta({ description: 'how often it runs' }),
    maxPagesPerRun: maxPagesPerRun.optional().meta({ description: 'at most this many pages a run' }),
    status: oneOf(['active', 'paused']).optional().meta({ description: '`paused` stops its runs; `active` resumes them (a run is due at once)' }),
  },
  { error: 'must be a JSON object' },
);
export const trackedSearchUpdateSchema = trackedSearchUpdateObject.refine((body) => Object.values(body).some((value) => value !== undefined), {
  error: 'must change at least one of name, schedule, maxPagesPerRun, status',
});
export type TrackedSearchUpdate = z.output<typeof trackedSearchUpdateSchema>;

/** A sale in the archive: the listing item as first seen, with when. */
export const saleSchema = listingItemSchema.extend({ firstSeenAt: z.iso.datetime() });
export type Sale = z.infer<typeof saleSchema>;

export const saleListSchema = z.object({ sales: z.array(saleSchema), nextCursor: z.string().nullable() });
export type SaleList = z.infer<typeof saleListSchema>;

const dateRange = {
  from: queryDate().optional().meta({ description: 'earliest sold date, inclusive' }),
  to: queryDate().optional().meta({ description: 'latest sold date, inclusive' }),
};
function fromNotAfterTo<T extends { from?: string | undefined; to?: string | undefined }>(schema: z.ZodType<T>) {
  return schema.refine((query) => !query.from || !query.to || query.from <= query.to, { error: 'must not be after to', path: ['from'] });
}

/** The query of `GET …/sales`; unknown parameters are ignored. */
export const salesQueryObject = z.object({
  ...dateRange,
  condition: queryEnum(CONDITION_GROUPS).optional().meta({ description: 'the condition group' }),
  counted: queryBoolean().optional().meta({ description: 'whether the sale counts by what it is (every exclusion but `outlier`, which depends on the period the statistics are asked for)' }),
  limit: queryInt(TRACKED_SEARCH_LIMITS.sales.min, TRACKED_SEARCH_LIMITS.sales.max).default(TRACKED_SEARCH_LIMITS.sales.default).meta({ description: 'sales per page' }),
  cursor: z.string({ error: 'must be given once, as a single value' }).regex(/^[A-Za-z0-9_-]{1,200}$/, { error: 'must be a nextCursor from an earlier page' }).optional().meta({ param: { type: 'string' }, description: 'the `nextCursor` of the page before' }),
});
export const salesQuerySchema = fromNotAfterTo(salesQueryObject);
export type SalesQuery = z.output<typeof salesQuerySchema>;

export const SERIES_INTERVALS = ['day', 'week', 'month'] as const;
export const seriesIntervalSchema = z.enum(SERIES_INTERVALS);
export type SeriesInterval = z.infer<typeof seriesIntervalSchema>;

/** The query of `GET …/stats`. */
export const archiveStatsQueryObject = z.object({
  ...dateRange,
  interval: queryEnum(SERIES_INTERVALS).default('week').meta({ description: 'the series step; a week starts on Monday' }),
});
export const archiveStatsQuerySchema = fromNotAfterTo(archiveStatsQueryObject);
export type ArchiveStatsQuery = z.output<typeof archiveStatsQuerySchema>;

export const seriesEntrySchema = z.object({
  start: z.iso.date(),
  counted: z.number().int(),
  median: z.number().nullable(),
  p25: z.number().nullable(),
  p75: z.number().nullable(),
});
export type SeriesEntry = z.infer<typeof seriesEntrySchema>;

export const archiveStatsSchema = z.object({
  trackedSearchId: trackedSearchIdSchema,
  from: z.iso.date().nullable(),
  to: z.iso.date().nullable(),
  interval: seriesIntervalSchema,
  stats: statsSchema,
  series: z.array(seriesEntrySchema),
});
export type ArchiveStats = z.infer<typeof archiveStatsSchema>;

/** Where a tracked search's resources are. */
export function trackedSearchLinks(trackedSearchId: string): TrackedSearch['links'] {
  const base = `/v1/tracked-searches/${trackedSearchId}`;
  return { sales: `${base}/sales`, stats: `${base}/stats`, csv: `${base}/sales.csv` };
}

/** What a tracked search searches for: its stored query, or the body that creates it (where a price bound not given is absent). */
type TrackedSearchFields = Omit<TrackedQuery, 'minPrice' | 'maxPrice'> & { minPrice?: number | null | undefined; maxPrice?: number | null | undefined };

/**
 * The search of one page of a tracked search's run: always sold, sorted `endedRecently`, the most
 * rows a page. Page 1 is also what creation checks against the data gate and the sites enabled.
 */
export function trackedSearchPageQuery(query: TrackedSearchFields, page: number): ListingQuery {
  return listingQueryOf({ ...query, page, count: TRACKED_SEARCH_LIMITS.pageSize, sold: true, sortOrder: 'endedRecently' });
}
