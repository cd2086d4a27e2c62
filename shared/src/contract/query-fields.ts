import { z } from 'zod';

/**
 * Query parameters arrive as strings (or arrays, when repeated). These turn them into typed
 * values with messages a caller can act on; a repeated parameter is refused, not guessed at.
 * Each carries `param` metadata: how the OpenAPI document describes it (the string it parses is
 * an implementation detail of query strings).
 */

const single = z.string({ error: 'must be given once, as a single value' });

export const queryInt = (min: number, max: number) =>
  single
    .regex(/^-?\d+$/, { error: 'must be an integer' })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )
    .meta({ param: { type: 'integer', minimum: min, maximum: max } });

export const queryNumber = (min: number) =>
  single
    .regex(/^(\d+(\.\d+)?|\.\d+)$/, { error: min >= 0 ? `must be a number of at least ${min}` : 'must be a number' })
    .transform(Number)
    .pipe(z.number().min(min, { error: `must be at least ${min}` }).max(1e9, { error: 'must be at most 1000000000' }))
    .meta({ param: { type: 'number', minimum: min } });

export const queryBoolean = () =>
  single
    .refine((value) => value === 'true' || value === 'false', { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .meta({ param: { type: 'boolean' } });

export const queryDate = () =>
  single.pipe(z.iso.date({ error: 'must be a calendar date, YYYY-MM-DD' })).meta({ param: { type: 'string', format: 'date' } });

export const queryEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  single.pipe(z.enum(values, { error: `must be one of ${values.join(', ')}` })).meta({ param: { type: 'string', enum: [...values] } });
