import { z } from 'zod';
import { errorCodeSchema } from './error-codes.js';
import { marketSiteSchema } from './market-sites.js';
import { LIMITS } from './limits.js';
import { queryDate, queryInt } from './query-fields.js';

export const REDACTED_KEYWORD = '[redacted]';

export const historyEntrySchema = z.object({
  requestId: z.string(),
  createdAt: z.iso.datetime(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  code: errorCodeSchema.nullable(),
  charged: z.union([z.literal(0), z.literal(1)]),
  durationMs: z.number().int(),
  marketSite: marketSiteSchema.nullable(),
  keyword: z.literal(REDACTED_KEYWORD).nullable(),
  resultCount: z.number().int().nullable(),
  jobId: z.string().nullable(),
  apiKeyPrefix: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** Body of `GET /requests`. */
export const historyPageSchema = z.object({
  entries: z.array(historyEntrySchema),
  nextCursor: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

/** Query of `GET /requests`. */
export const historyQuerySchema = z
  .object({
    limit: queryInt(LIMITS.historyPageSize.min, LIMITS.historyPageSize.max).default(LIMITS.historyPageSize.default),
    cursor: z.string({ error: 'must be given once' }).min(1).max(512).optional(),
    from: queryDate().optional(),
    to: queryDate().optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    error: 'must not be after to',
    path: ['from'],
  });
export type HistoryQuery = z.output<typeof historyQuerySchema>;
