import { randomBytes } from 'node:crypto';
import { AppError } from '@comps/shared/errors/app-error';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { luaScript, runScript } from '@comps/shared/redis/run-script';
import { abortableSleep } from '@comps/shared/runtime/abortable-sleep';

const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/**
 * One job creation at a time per workspace, across every jobs process (a Redis lock with a lease,
 * so a process that dies mid-creation frees it). It keeps concurrent creations from racing to the
 * database; the database's unique index on the active workspace is what guarantees one active job.
 */
export class ActiveJobLock {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyPrefix: string,
    private readonly leaseMs = 10_000,
  ) {}

  /** Waits up to `waitMs` for the workspace's lock; returns its release. */
  async acquire(workspaceId: string, waitMs: number): Promise<() => Promise<void>> {
    const key = `${this.keyPrefix}active-job:${workspaceId}`;
    const token = randomBytes(12).toString('hex');
    const deadline = Date.now() + waitMs;
    for (;;) {
      const taken = await callRedis(() => this.redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: this.leaseMs } }));
      if (taken === 'OK') return async () => void (await callRedis(() => runScript(this.redis, RELEASE, [key], [token])));
      if (Date.now() >= deadline) throw new AppError('service_unavailable', 'Another job creation of this workspace is still running; retry shortly', { retryAfter: 1 });
      await abortableSleep(20 + Math.random() * 20);
    }
  }
}
