import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip, constants } from 'node:zlib';
import { RESP_TYPES } from '@redis/client';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { callRedis } from '@comps/shared/redis/redis-errors';
import { luaScript, runScript, type ScriptClient } from '@comps/shared/redis/run-script';

const compress = promisify(gzip);
const decompress = promisify(gunzip);

/**
 * The state of one (workspace, Idempotency-Key) in Redis, as a hash: `running` while the first
 * request works (a lease, so a crashed request frees the key); `delivering` while its answer is
 * being written (the answer is stored, gzipped, but not replayed yet: it may never be received);
 * then `done`, once the answer was received whole and charged, replayed for 24 hours (a 60-item
 * answer of about 200 KB keeps as about 25 KB). Failures and answers not received delete the entry:
 * a retry runs again.
 */
const BEGIN = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'status', 'body', 'resultCount')
end
redis.call('HSET', KEYS[1], 'state', 'running', 'fingerprint', ARGV[1], 'owner', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'started'}
`);

const DELIVERING = luaScript(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'delivering', 'status', ARGV[2], 'body', ARGV[3], 'resultCount', ARGV[4])
return 1
`);

const COMPLETE = luaScript(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'state') ~= 'delivering' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'done')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
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
  /** The first request's answer is being written: it is replayed once received and charged (ask again shortly). */
  | { kind: 'delivering' }
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
    if (state?.toString() === 'delivering') return { kind: 'delivering' };
    if (state?.toString() !== 'done' || !body) return { kind: 'in_progress' };
    return {
      kind: 'replay',
      status: Number(status?.toString()),
      body: (await decompress(body)).toString('utf8'),
      resultCount: resultCount?.length ? Number(resultCount.toString()) : null,
    };
  }

  /** Stores the answer about to be written (not replayed until complete()). */
  async delivering(workspaceId: string, idempotencyKey: string, owner: string, status: number, body: string, resultCount: number | null): Promise<void> {
    const key = this.keyOf(workspaceId, idempotencyKey);
    // A low level: JSON compresses about eightfold even so, in a millisecond or two off the event loop.
    const stored = await compress(body, { level: constants.Z_BEST_SPEED });
    await callRedis(() => runScript(this.redis, DELIVERING, [key], [owner, status, stored, resultCount ?? '']));
  }

  /** The answer stored by delivering() was received whole and charged: it is replayed from now on. */
  async complete(workspaceId: string, idempotencyKey: string, owner: string): Promise<void> {
    await callRedis(() => runScript(this.redis, COMPLETE, [this.keyOf(workspaceId, idempotencyKey)], [owner, this.options.retentionMs]));
  }

  async abandon(workspaceId: string, idempotencyKey: string, owner: string): Promise<void> {
    await callRedis(() => runScript(this.redis, ABANDON, [this.keyOf(workspaceId, idempotencyKey)], [owner]));
  }
}
