import type { Middleware } from 'koa';
import type { Logger } from '../logging/create-logger.js';
import type { BaseState } from './app-state.js';

/**
 * One line per request. It names the route template, never the query string: search text
 * is the caller's business and stays out of logs as it stays out of history.
 */
export function logRequests(logger: Logger): Middleware<BaseState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      logger.info(
        {
          method: ctx.method,
          route: typeof route === 'string' ? route : null,
          // 499: the caller went away before its answer was written whole (nginx's convention).
          status: ctx.state.notReceived ? 499 : ctx.status,
          code: ctx.state.errorCode ?? null,
          durationMs: Math.round(performance.now() - started),
        },
        'request',
      );
    }
  };
}
