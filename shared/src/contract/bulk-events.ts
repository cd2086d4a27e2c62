import { z } from 'zod';
import { statsSchema } from './comps.js';
import { errorCodeSchema } from './error-codes.js';
import { dataQualitySchema, listingItemSchema, paginationSchema } from './listing.js';

export const bulkProgressEventSchema = z.object({
  completed: z.number().int(),
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
});

export const bulkResultEventSchema = z.object({
  index: z.number().int(),
  keyword: z.string(),
  requestId: z.string(),
  items: z.array(listingItemSchema),
  pagination: paginationSchema,
  dataQuality: dataQualitySchema,
  stats: statsSchema,
});

export const bulkErrorEventSchema = z.object({
  index: z.number().int(),
  keyword: z.string(),
  requestId: z.string(),
  error: z.string(),
  code: errorCodeSchema,
  retryAfter: z.number().int().min(1).optional(),
});

export const bulkCompleteEventSchema = z.object({
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  charged: z.number().int(),
});

export type BulkProgressEvent = z.infer<typeof bulkProgressEventSchema>;
export type BulkResultEvent = z.infer<typeof bulkResultEventSchema>;
export type BulkErrorEvent = z.infer<typeof bulkErrorEventSchema>;
export type BulkCompleteEvent = z.infer<typeof bulkCompleteEventSchema>;
