import type { z } from 'zod';
import type { ErrorDetail } from '../contract/error-body.js';
import { AppError } from './app-error.js';

export function detailsFromZod(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
}

/** Parses untrusted input, turning a failure into the contract's `invalid_request` with details. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, message = 'Invalid request'): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new AppError('invalid_request', message, { details: detailsFromZod(result.error) });
  }
  return result.data;
}
