import { z } from 'zod';
import { errorCodeSchema } from '../../contract/error-codes.js';
import { marketSiteSchema } from '../../contract/market-sites.js';
import { REQUEST_ID_PATTERN } from '../../ids.js';

/**
 * What a service reports about one finished request (or one job page, or one bulk keyword), for the
 * request history that accounts keeps. Search text has no field: it cannot be stored.
 */
export const historyRecordSchema = z.object({
  requestId: z.string().regex(REQUEST_ID_PATTERN),
  workspaceId: z.string().min(1).max(32),
  apiKeyId: z.string().max(32).nullable(),
  apiKeyPrefix: z.string().max(16).nullable(),
  method: z.string().min(1).max(8),
  path: z.string().min(1).max(100),
  /** The HTTP status, or 499 when the caller went away before its answer. */
  status: z.number().int().min(100).max(599),
  code: errorCodeSchema.nullable(),
  charged: z.union([z.literal(0), z.literal(1)]),
  durationMs: z.number().int().min(0),
  marketSite: marketSiteSchema.nullable(),
  hasKeyword: z.boolean(),
  resultCount: z.number().int().min(0).nullable(),
  jobId: z.string().max(36).nullable(),
});
export type HistoryRecord = z.infer<typeof historyRecordSchema>;

/** Where finished requests' entries go (accounts' history, in batches off the request path). */
export interface HistorySink {
  add(record: HistoryRecord): void;
}
