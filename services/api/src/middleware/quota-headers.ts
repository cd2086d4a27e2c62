import type { Middleware } from 'koa';
import type { ApiState } from '../http/api-state.js';

/** `X-Quota-Limit` and `X-Quota-Remaining` on every authenticated answer, with the freshest figures. */
export function quotaHeaders(): Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const quota = ctx.state.quota ?? ctx.state.principal?.quota;
      if (quota) {
        ctx.set('X-Quota-Limit', String(quota.limit));
        ctx.set('X-Quota-Remaining', String(quota.remaining));
      }
    }
  };
}
