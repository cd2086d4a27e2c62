import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from './create-redis.js';

export interface WindowDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

/**
 * Fixed-window counters in Redis (rate-limiter-flexible) for limits that differ per caller:
 * one limiter per (limit, window) pair, all sharing the caller's counter key.
 */
export class FixedWindowLimiter {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    private readonly client: RedisClient,
    private readonly keyPrefix: string,
  ) {}

  private limiterFor(limit: number, windowSeconds: number): RateLimiterRedis {
    const id = `${limit}/${windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.client,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        keyPrefix: `${this.keyPrefix}${windowSeconds}s`,
        points: limit,
        duration: windowSeconds,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /**
   * The Redis key of a caller's counter for a window: for scripts that count a call together with
   * other work in one round trip (Admission), as rate-limiter-flexible counts it (see windowDecision).
   */
  keyOf(key: string, windowSeconds: number): string {
    return `${this.keyPrefix}${windowSeconds}s:${key}`;
  }

  /** Counts one call; a refusal is a value, a Redis failure throws. */
  async consume(key: string, limit: number, windowSeconds: number): Promise<WindowDecision> {
    let result: RateLimiterRes;
    try {
      result = await this.limiterFor(limit, windowSeconds).consume(key);
    } catch (rejection) {
      // rate-limiter-flexible rejects with the counter's state past the limit.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      result = rejection;
    }
    return windowDecision(result.consumedPoints, result.msBeforeNext, limit, windowSeconds);
  }

  /** Whether a call would be allowed now, without counting one. */
  async peek(key: string, limit: number, windowSeconds: number): Promise<WindowDecision> {
    const result = await this.limiterFor(limit, windowSeconds).get(key);
    const consumed = result?.consumedPoints ?? 0;
    return {
      allowed: consumed < limit,
      limit,
      remaining: Math.max(0, limit - consumed),
      windowSeconds,
      resetSeconds: Math.max(1, Math.ceil((result?.msBeforeNext ?? windowSeconds * 1000) / 1000)),
    };
  }
}

/** The decision of a fixed window from its counter after the call was counted and the window's time left, as consume() makes it. */
export function windowDecision(consumed: number, msLeft: number, limit: number, windowSeconds: number): WindowDecision {
  return {
    allowed: consumed <= limit,
    limit,
    remaining: Math.max(0, limit - consumed),
    windowSeconds,
    resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
  };
}
