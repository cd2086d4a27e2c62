import type { Middleware } from 'koa';
import { AppError } from '@comps/shared/errors/app-error';
import type { FixedWindowLimiter, WindowDecision } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';
import type { ApiState } from '../http/api-state.js';

function policyName(windowSeconds: number): string {
  return windowSeconds === 60 ? 'minute' : `${windowSeconds}s`;
}

/** The IETF fields (draft-ietf-httpapi-ratelimit-headers-11) for one window. */
export function rateLimitFields(decision: WindowDecision): { policy: string; state: string } {
  const name = policyName(decision.windowSeconds);
  return {
    policy: `"${name}";q=${decision.limit};w=${decision.windowSeconds}`,
    state: `"${name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

/** The workspace's request rate, shared by every api process through Redis; past it, 429 `rate_limited`. */
export function enforceRateLimit(limiter: FixedWindowLimiter): Middleware<ApiState> {
  return async (ctx, next) => {
    const principal = ctx.state.principal!;
    const { requests, windowSeconds } = principal.plan.rateLimit;
    const decision = await callRedis(() => limiter.consume(principal.workspaceId, requests, windowSeconds));
    const fields = rateLimitFields(decision);
    ctx.set('RateLimit-Policy', fields.policy);
    ctx.set('RateLimit', fields.state);
    if (!decision.allowed) {
      throw new AppError(
        'rate_limited',
        `Rate limit of ${requests} requests per ${windowSeconds} s exceeded; retry after ${decision.resetSeconds} s`,
        { retryAfter: decision.resetSeconds },
      );
    }
    return next();
  };
}
