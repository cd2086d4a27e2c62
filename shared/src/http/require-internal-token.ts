import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { AppError } from '../errors/app-error.js';

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Service-to-service calls carry the shared token; a call without it, or with another, is refused. */
export function requireInternalToken(token: string): Middleware {
  const expected = digest(token);
  return (ctx, next) => {
    const presented = ctx.get(INTERNAL_TOKEN_HEADER);
    // Comparing digests keeps the comparison constant-time whatever the presented length.
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      throw new AppError('unauthorized', 'Missing or invalid internal token');
    }
    return next();
  };
}
