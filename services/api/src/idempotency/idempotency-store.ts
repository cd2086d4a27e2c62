import { createHash } from 'node:crypto';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { luaScript, runScript } from '@comps/shared/redis/run-script';

/**
 * The state of one (workspace, Idempotency-Key) in Redis, as a hash: `running` while the first
 * request works (a lease, so a crashed request frees the key), then `done` with the answer to
 * replay for 24 hours. Failures delete the entry: a retry after a failure runs again.
 */
const BEGIN = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'status', 'body', 'resultCount')
end
redis.call('HSET', KEYS[1], 'state', 'running', 'fingerprint', ARGV[1], 'owner', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'started'}
`);

const COMPLETE = luaScript(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'done', 'status', ARGV[2], 'body', ARGV[3], 'resultCount', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`);

const ABANDON = luaScript(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
`);

export type IdempotencyBegin =
  | { kind: 'started' }
  | { kind: 'replay'; status: number; body: string; resultCount: number | null }
  | { kind: 'in_progress' }
  | { kind: 'reused' };

export interface IdempotencyOptions {
  keyPrefix: string;
  /** How long a running request holds the key before a retry may take it over. */
  lockMs: number;
  retentionMs: number;
}

export class IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly options: IdempotencyOptions,
  ) {}

  private keyOf(workspaceId: string, idempotencyKey: string): string {
    return `${this.options.keyPrefix}${workspaceId}:${createHash('sha256').update(idempotencyKey).digest('hex')}`;
  }

  async begin(workspaceId: string, idempotencyKey: string, fingerprint: string, owner: string): Promise<IdempotencyBegin> {
    const key = this.keyOf(workspaceId, idempotencyKey);
    const reply = (await callRedis(() => runScript(this.redis, BEGIN, [key], [fingerprint, owner, this.options.lockMs]))) as Array<string | null>;
    if (reply[0] === 'started') return { kind: 'started' };
    const [state, storedFingerprint, status, body, resultCount] = reply;
    if (storedFingerprint !== fingerprint) return { kind: 'reused' };
    if (state !== 'done' || body === null || body === undefined) return { kind: 'in_progress' };
    return { kind: 'replay', status: Number(status), body, resultCount: resultCount ? Number(resultCount) : null };
  }

  async complete(workspaceId: string, idempotencyKey: string, owner: string, status: number, body: string, resultCount: number | null): Promise<void> {
    const key = this.keyOf(workspaceId, idempotencyKey);
    await callRedis(() => runScript(this.redis, COMPLETE, [key], [owner, status, body, resultCount ?? '', this.options.retentionMs]));
  }

  async abandon(workspaceId: string, idempotencyKey: string, owner: string): Promise<void> {
    await callRedis(() => runScript(this.redis, ABANDON, [this.keyOf(workspaceId, idempotencyKey)], [owner]));
  }
}

/** Same key, same method, path and parameters (after defaults) is the same operation. */
export function operationFingerprint(method: string, path: string, parameters: unknown): string {
  return createHash('sha256').update(JSON.stringify([method, path, parameters])).digest('hex');
}
