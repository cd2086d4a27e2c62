import { AppError } from '@comps/shared/errors/app-error';
import type { LeaseSemaphore } from '@comps/shared/redis/lease-semaphore';
import { callRedis } from '@comps/shared/redis/redis-errors';

export interface Release {
  release(): Promise<void>;
}

/**
 * Requests in flight per workspace, counted in Redis so every api process sees the same number.
 * Each permit is a lease: a process that dies holding one loses it when the lease runs out.
 */
export class WorkspaceConcurrency {
  constructor(
    private readonly semaphore: LeaseSemaphore,
    private readonly keyPrefix: string,
  ) {}

  async acquire(workspaceId: string, requestId: string, limit: number): Promise<Release> {
    const key = `${this.keyPrefix}${workspaceId}`;
    const lease = await callRedis(() => this.semaphore.acquire(key, requestId, limit));
    if (!lease.acquired) {
      throw new AppError('concurrency_limited', `The workspace already has its maximum of ${limit} requests in flight`, { retryAfter: 1 });
    }
    return { release: () => this.semaphore.release(key, requestId) };
  }
}
