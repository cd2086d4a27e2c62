import { z } from 'zod';
import { errorCodeSchema } from './error-codes.js';

export const errorDetailSchema = z.object({
  path: z.string(),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** The error object of the specification, with the contract's optional additions. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: errorCodeSchema,
  requestId: z.string(),
  retryAfter: z.number().int().min(1).optional(),
  details: z.array(errorDetailSchema).optional(),
  jobId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
