import { AppError } from '@comps/shared/errors/app-error';
import type { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import type { LeaseSemaphore } from '@comps/shared/redis/lease-semaphore';
import { callRedis } from '@comps/shared/redis/redis-errors';
import type { Release } from './workspace-concurrency.js';

export interface UpstreamCapacityOptions {
  callsPerSecond: number;
  maxInFlight: number;
  keyPrefix: string;
}

/**
 * One limit for the whole deployment, whatever the workspace: calls per second and calls in
 * flight to the marketplace (through the outbound proxy), shared in Redis by every process.
 * Exhausted capacity is 503 `upstream_rate_limited`: the caller did nothing wrong, we are full.
 */
export class UpstreamCapacity {
  constructor(
    private readonly rate: FixedWindowLimiter,
    private readonly inFlight: LeaseSemaphore,
    private readonly options: UpstreamCapacityOptions,
  ) {}

  async acquire(requestId: string): Promise<Release> {
    const { callsPerSecond, maxInFlight, keyPrefix } = this.options;
    const key = `${keyPrefix}in-flight`;
    const lease = await callRedis(() => this.inFlight.acquire(key, requestId, maxInFlight));
    if (!lease.acquired) {
      throw new AppError('upstream_rate_limited', 'Upstream capacity is exhausted; retry shortly', { retryAfter: 1 });
    }
    const release = () => this.inFlight.release(key, requestId);
    let rate;
    try {
      rate = await callRedis(() => this.rate.consume('calls', callsPerSecond, 1));
    } catch (error) {
      await release().catch(() => undefined);
      throw error;
    }
    if (!rate.allowed) {
      await release().catch(() => undefined);
      throw new AppError('upstream_rate_limited', 'Upstream capacity is exhausted; retry shortly', { retryAfter: rate.resetSeconds });
    }
    return { release };
  }
}
