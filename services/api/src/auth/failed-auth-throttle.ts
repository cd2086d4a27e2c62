import { AppError } from '@comps/shared/errors/app-error';
import type { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { callRedis } from '@comps/shared/redis/redis-errors';

/**
 * Failed authentications per client address, shared by every api process through Redis. Past the
 * limit, the address is refused with 429 before its keys are looked up, so guessing keys costs the
 * guesser, not accounts. Callers with a cached valid key never pay for this check.
 */
export class FailedAuthThrottle {
  constructor(
    private readonly limiter: FixedWindowLimiter,
    private readonly failuresPerMinute: number,
  ) {}

  /** Throws 429 `rate_limited` when the address has failed too often this minute. */
  async check(address: string): Promise<void> {
    const decision = await callRedis(() => this.limiter.peek(address, this.failuresPerMinute, 60));
    if (!decision.allowed) throw this.refusal(decision.resetSeconds);
  }

  /** Counts one failed attempt of the address. */
  async recordFailure(address: string): Promise<void> {
    await callRedis(() => this.limiter.consume(address, this.failuresPerMinute, 60));
  }

  private refusal(retryAfter: number): AppError {
    return new AppError('rate_limited', `Too many failed authentications from this address; retry after ${retryAfter} s`, { retryAfter });
  }
}
