import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip, constants } from 'node:zlib';
import { RESP_TYPES } from 'redis';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { luaScript, runScript, type ScriptClient } from '@comps/shared/redis/run-script';

const compress = promisify(gzip);
const decompress = promisify(gunzip);

/**
 * The state of one (workspace, Idempotency-Key) in Redis, as a hash: `running` while the first
 * request works (a lease, so a crashed request frees the key), then `done` with the answer to
 * replay for 24 hours, gzipped (a 60-item answer of about 200 KB keeps as about 25 KB). Failures
 * delete the entry: a retry after a failure runs again.
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
  /** The same connection, answering bulk strings as Buffers: the stored body is binary. */
  private readonly binary: ScriptClient;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: IdempotencyOptions,
  ) {
    this.binary = redis.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }) as unknown as ScriptClient;
  }

  private keyOf(workspaceId: string, idempotencyKey: string): string {
    return `${this.options.keyPrefix}${workspaceId}:${createHash('sha256').update(idempotencyKey).digest('hex')}`;
  }

  async begin(workspaceId: string, idempotencyKey: string, fingerprint: string, owner: string): Promise<IdempotencyBegin> {
    const key = this.keyOf(workspaceId, idempotencyKey);
    const reply = (await callRedis(() => runScript(this.binary, BEGIN, [key], [fingerprint, owner, this.options.lockMs]))) as Array<Buffer | null>;
    const [state, storedFingerprint, status, body, resultCount] = reply.map((value) => value ?? null);
    if (state?.toString() === 'started') return { kind: 'started' };
    if (storedFingerprint?.toString() !== fingerprint) return { kind: 'reused' };
    if (state?.toString() !== 'done' || !body) return { kind: 'in_progress' };
    return {
      kind: 'replay',
      status: Number(status?.toString()),
      body: (await decompress(body)).toString('utf8'),
      resultCount: resultCount?.length ? Number(resultCount.toString()) : null,
    };
  }

  async complete(workspaceId: string, idempotencyKey: string, owner: string, status: number, body: string, resultCount: number | null): Promise<void> {
    const key = this.keyOf(workspaceId, idempotencyKey);
    // A low level: JSON compresses about eightfold even so, in a millisecond or two off the event loop.
    const stored = await compress(body, { level: constants.Z_BEST_SPEED });
    await callRedis(() => runScript(this.redis, COMPLETE, [key], [owner, status, stored, resultCount ?? '', this.options.retentionMs]));
  }

  async abandon(workspaceId: string, idempotencyKey: string, owner: string): Promise<void> {
    await callRedis(() => runScript(this.redis, ABANDON, [this.keyOf(workspaceId, idempotencyKey)], [owner]));
  }
}

/** Same key, same method, path and parameters (after defaults) is the same operation. */
export function operationFingerprint(method: string, path: string, parameters: unknown): string {
  return createHash('sha256').update(JSON.stringify([method, path, parameters])).digest('hex');
}
