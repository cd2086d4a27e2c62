import type { Middleware } from 'koa';
import { AppError } from '../errors/app-error.js';
import type { Logger } from '../logging/create-logger.js';
import type { BaseState } from './app-state.js';
import { toAppError, writeErrorResponse } from './error-response.js';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Every failure leaves as the contract's error object with `requestId`; a request that matched
 * no route is `not_found`. Unexpected errors are logged whole and answered without internals.
 */
export function handleErrors(logger: Logger): Middleware<BaseState> {
  return async (ctx, next) => {
    try {
      await next();
      // No body and Koa's default 404 is a miss, unless an answer was already sent by other means (tRPC's handler).
      if (ctx.status === 404 && ctx.body == null && !ctx.headerSent) {
        throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === 'internal_error') {
        logger.error({ err: error }, 'unexpected error');
      } else if (appError.code === 'service_unavailable') {
        logger.warn({ reason: describe(appError.cause ?? appError) }, 'dependency unavailable');
      }
      writeErrorResponse(ctx, appError);
    }
  };
}
