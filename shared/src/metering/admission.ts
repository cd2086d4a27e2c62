import type { HistoryRecord } from '../internal/accounts/history-record.js';
import type { Logger } from '../logging/create-logger.js';
import type { RedisClient } from '../redis/create-redis.js';
import { callRedis } from '../redis/redis-errors.js';
import { luaScript, runScript } from '../redis/run-script.js';

/**
 * Admission to one marketplace call, in one Redis round trip: the workspace's concurrency (its
 * plan's requests in flight) and the deployment's shared upstream capacity (calls in flight and
 * calls per second toward the marketplace, for every api and jobs process together).
 *
 * Permits are leases: members of sorted sets scored by their expiry. They are short and renewed
 * while the call runs (one Redis call per process per renewal, whatever the number held), so the
 * permits of a process that dies come back within a lease.
 *
 * Fair share: no workspace holds more than its share of the capacity (in flight and per second),
 * so one busy workspace cannot keep every other one waiting; a deployment with one workspace sets
 * the share to 1.
 */
const ADMIT = luaScript(`
local wsInFlight, allInFlight, allRate, wsRate = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now = tonumber(ARGV[1])
local expiresAt = tonumber(ARGV[2])
local holder = ARGV[3]
local concurrency = tonumber(ARGV[4])
local maxInFlight = tonumber(ARGV[5])
local shareInFlight = tonumber(ARGV[6])
local perSecond = tonumber(ARGV[7])
local sharePerSecond = tonumber(ARGV[8])
local keyTtl = tonumber(ARGV[9])
redis.call('ZREMRANGEBYSCORE', wsInFlight, '-inf', now)
redis.call('ZREMRANGEBYSCORE', allInFlight, '-inf', now)
local wsHeld = redis.call('ZCARD', wsInFlight)
if wsHeld >= concurrency then
  local soonest = redis.call('ZRANGE', wsInFlight, 0, 0, 'WITHSCORES')
  return {0, 'concurrency', tonumber(soonest[2]) - now}
end
if redis.call('ZCARD', allInFlight) >= maxInFlight or wsHeld >= shareInFlight then
  return {0, 'capacity', 25}
end
local calls = tonumber(redis.call('GET', allRate) or '0')
local wsCalls = tonumber(redis.call('GET', wsRate) or '0')
if calls >= perSecond or wsCalls >= sharePerSecond then
  return {0, 'capacity', 1000 - (now % 1000)}
end
redis.call('INCR', allRate)
redis.call('PEXPIRE', allRate, 2000)
redis.call('INCR', wsRate)
redis.call('PEXPIRE', wsRate, 2000)
redis.call('ZADD', wsInFlight, expiresAt, holder)
redis.call('PEXPIRE', wsInFlight, keyTtl)
redis.call('ZADD', allInFlight, expiresAt, holder)
redis.call('PEXPIRE', allInFlight, keyTtl)
return {1, 'admitted', 0}
`);

/** Extends the leases still alive (one that expired is not brought back): KEYS[1] all, then one workspace key per holder. */
const RENEW = luaScript(`
local expiresAt = ARGV[1]
local keyTtl = ARGV[2]
local now = tonumber(ARGV[3])
for i = 2, #KEYS do
  local holder = ARGV[i + 2]
  local score = redis.call('ZSCORE', KEYS[i], holder)
  if score and tonumber(score) > now then
    redis.call('ZADD', KEYS[i], 'XX', expiresAt, holder)
    redis.call('ZADD', KEYS[1], 'XX', expiresAt, holder)
    redis.call('PEXPIRE', KEYS[i], keyTtl)
  end
end
redis.call('PEXPIRE', KEYS[1], keyTtl)
return 1
`);

/**
 * Gives the permits back and, for a success, hands the charge and its history entry to the
 * settlement outbox (the stream every settler reads, and the workspace's set of answered,
 * unsettled charges): one round trip.
 */
const COMPLETE = luaScript(`
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[2] ~= '' then
  redis.call('XADD', KEYS[3], '*', 'r', ARGV[2], 'w', ARGV[3], 'h', ARGV[5])
  redis.call('SADD', KEYS[4], ARGV[2])
  redis.call('PEXPIRE', KEYS[4], ARGV[4])
end
return 1
`);

export interface CapacityOptions {
  /** Calls in flight toward the marketplace, for the whole deployment. */
  maxInFlight: number;
  /** Calls started per second, for the whole deployment. */
  callsPerSecond: number;
  /** The share (0 to 1) of the capacity one workspace may hold. */
  workspaceShare: number;
}

export interface AdmissionOptions extends CapacityOptions {
  keyPrefix: string;
  /** Life of a permit; renewed every third of it while held. */
  leaseMs: number;
}

export type AdmissionDecision =
  | { admitted: true; permit: Permit }
  | { admitted: false; reason: 'concurrency' | 'capacity'; retryAfterMs: number };

export interface Permit {
  workspaceId: string;
  holder: string;
}

/** Where a charge goes when a call succeeded (see SettlementOutbox, which reads these keys). */
export interface ChargeKeys {
  stream: string;
  pendingSetOf(workspaceId: string): string;
  /** How long an idle pending set is kept; settling removes its members long before. */
  pendingTtlMs: number;
}

export class Admission {
  private readonly held = new Map<string, Permit>();
  private readonly renewal: NodeJS.Timeout;
  private renewing: Promise<void> = Promise.resolve();
  private renewalRunning = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly charges: ChargeKeys,
    private readonly options: AdmissionOptions,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.renewal = setInterval(() => {
      // One renewal at a time: a slow Redis must not pile them up.
      if (this.renewalRunning) return;
      this.renewalRunning = true;
      this.renewing = this.renewHeld().finally(() => {
        this.renewalRunning = false;
      });
    }, Math.max(100, Math.floor(options.leaseMs / 3)));
    this.renewal.unref();
  }

  private key(name: string): string {
    return `${this.options.keyPrefix}${name}`;
  }

  private workspaceKey(workspaceId: string): string {
    return this.key(`in-flight:${workspaceId}`);
  }

  /** One attempt; a refusal is a value with how long to wait before the next. */
  async admit(workspaceId: string, holder: string, concurrency: number): Promise<AdmissionDecision> {
    const { maxInFlight, callsPerSecond, workspaceShare, leaseMs } = this.options;
    const now = this.clock();
    const second = Math.floor(now / 1000);
    const reply = (await callRedis(() =>
      runScript(
        this.redis,
        ADMIT,
        [this.workspaceKey(workspaceId), this.key('in-flight'), this.key(`calls:${second}`), this.key(`calls:${second}:${workspaceId}`)],
        [
          now,
          now + leaseMs,
          holder,
          concurrency,
          maxInFlight,
          Math.max(1, Math.floor(maxInFlight * workspaceShare)),
          callsPerSecond,
          Math.max(1, Math.floor(callsPerSecond * workspaceShare)),
          leaseMs * 4,
        ],
      ),
    )) as [number, string, number];
    const [ok, reason, wait] = reply;
    if (Number(ok) === 1) {
      const permit = { workspaceId, holder };
      this.held.set(holder, permit);
      return { admitted: true, permit };
    }
    return { admitted: false, reason: reason === 'concurrency' ? 'concurrency' : 'capacity', retryAfterMs: Math.max(1, Number(wait)) };
  }

  /**
   * Gives the permit back; with `charge`, hands the request's charge to the settlement outbox in the
   * same call, with its history entry: a charge and its entry are recorded together, even when this
   * process dies before its history writer flushes.
   */
  async complete(permit: Permit, charge: { requestId: string; history: HistoryRecord } | null): Promise<void> {
    this.held.delete(permit.holder);
    await callRedis(() =>
      runScript(
        this.redis,
        COMPLETE,
        [this.workspaceKey(permit.workspaceId), this.key('in-flight'), this.charges.stream, this.charges.pendingSetOf(permit.workspaceId)],
        [permit.holder, charge?.requestId ?? '', permit.workspaceId, this.charges.pendingTtlMs, charge ? JSON.stringify(charge.history) : ''],
      ),
    );
  }

  private async renewHeld(): Promise<void> {
    const permits = [...this.held.values()];
    if (permits.length === 0) return;
    const now = this.clock();
    const expiresAt = now + this.options.leaseMs;
    try {
      // Large sets go in slices, so no one script holds Redis for long.
      for (let start = 0; start < permits.length; start += 500) {
        const slice = permits.slice(start, start + 500);
        await callRedis(() =>
          runScript(
            this.redis,
            RENEW,
            [this.key('in-flight'), ...slice.map((permit) => this.workspaceKey(permit.workspaceId))],
            [expiresAt, this.options.leaseMs * 4, now, ...slice.map((permit) => permit.holder)],
          ),
        );
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), held: permits.length }, 'permit renewal failed; permits may lapse');
    }
  }

  /** Stops renewing (permits still held lapse within a lease). */
  async close(): Promise<void> {
    clearInterval(this.renewal);
    await this.renewing;
  }
}
