import type { RedisClient } from './create-redis.js';
import { luaScript, runScript } from './run-script.js';

/**
 * A counting semaphore in Redis whose permits are leases: each holder is a member of a sorted
 * set scored by its expiry, so a process that dies without releasing loses its permit when the
 * lease runs out. Shared by every process that uses the same key.
 */
const ACQUIRE = luaScript(`
local key = KEYS[1]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local expiresAt = tonumber(ARGV[3])
local holder = ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
if redis.call('ZSCORE', key, holder) then
  redis.call('ZADD', key, expiresAt, holder)
  redis.call('PEXPIRE', key, ARGV[5])
  return {1, redis.call('ZCARD', key), 0}
end
local held = redis.call('ZCARD', key)
if held >= limit then
  local soonest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, held, tonumber(soonest[2]) - now}
end
redis.call('ZADD', key, expiresAt, holder)
redis.call('PEXPIRE', key, ARGV[5])
return {1, held + 1, 0}
`);

const RENEW = luaScript(`
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0
`);

export type LeaseResult =
  | { acquired: true; held: number }
  | { acquired: false; held: number; retryAfterMs: number };

export class LeaseSemaphore {
  constructor(
    private readonly client: RedisClient,
    private readonly leaseMs: number,
  ) {}

  async acquire(key: string, holder: string, limit: number): Promise<LeaseResult> {
    const now = Date.now();
    const reply = (await runScript(this.client, ACQUIRE, [key], [now, limit, now + this.leaseMs, holder, this.leaseMs])) as number[];
    const [acquired, held, waitMs] = reply.map(Number) as [number, number, number];
    return acquired === 1 ? { acquired: true, held } : { acquired: false, held, retryAfterMs: Math.max(waitMs, 1) };
  }

  /** Extends a lease held across a long operation; false if it had already expired. */
  async renew(key: string, holder: string): Promise<boolean> {
    const reply = await runScript(this.client, RENEW, [key], [Date.now() + this.leaseMs, holder, this.leaseMs]);
    return Number(reply) === 1;
  }

  async release(key: string, holder: string): Promise<void> {
    await this.client.zRem(key, holder);
  }
}
