import type { HistoryRecord } from '../internal/accounts/history-record.js';
import type { QuotaSnapshot } from '../internal/accounts/quota.js';
import type { Logger } from '../logging/create-logger.js';
import type { RedisClient } from '../redis/create-redis.js';
import { callRedis } from '../redis/redis-errors.js';
import { windowDecision, type WindowDecision } from '../redis/fixed-window-limiter.js';
import { luaScript, runScript } from '../redis/run-script.js';
import type { AllowanceKeys } from './allowance-keys.js';

/**
 * Admission to one marketplace call, in one Redis round trip: the workspace's concurrency (its
 * plan's requests in flight) and the deployment's shared upstream capacity (calls in flight and
 * calls per second toward the marketplace, for every api and jobs process together). In the same
 * round trip, when asked: the workspace's request rate (the first call of an API request counts
 * the request), and a unit of the workspace's quota allowance (QuotaAllowances), so that most
 * calls reserve no quota of their own.
 *
 * Permits are leases: members of sorted sets scored by their expiry. They are short and renewed
 * while the call runs (one Redis call per process per renewal, whatever the number held), so the
 * permits of a process that dies come back within a lease; so do the allowance units its calls
 * held (the next admission of the workspace puts them back).
 *
 * Fair share: no workspace holds more than its share of the capacity (in flight and per second),
 * so one busy workspace cannot keep every other one waiting; a deployment with one workspace sets
 * the share to 1.
 */
const ADMIT = luaScript(`
local wsInFlight, allInFlight, allRate, wsRate = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local rateKey, allowanceKey, leaseLock = KEYS[5], KEYS[6], KEYS[7]
local now = tonumber(ARGV[1])
local expiresAt = tonumber(ARGV[2])
local holder = ARGV[3]
local concurrency = tonumber(ARGV[4])
local maxInFlight = tonumber(ARGV[5])
local shareInFlight = tonumber(ARGV[6])
local perSecond = tonumber(ARGV[7])
local sharePerSecond = tonumber(ARGV[8])
local keyTtl = tonumber(ARGV[9])
local rateLimit = tonumber(ARGV[10])
local rateWindow = tonumber(ARGV[11])
local heldPrefix = ARGV[12]
local lowWater = tonumber(ARGV[13])
local hotCalls = tonumber(ARGV[14])
local lockMs = tonumber(ARGV[15])
local consumed, rateTtl = 0, 0
if rateLimit > 0 then
  redis.call('SET', rateKey, 0, 'EX', rateWindow, 'NX')
  consumed = redis.call('INCRBY', rateKey, 1)
  rateTtl = redis.call('PTTL', rateKey)
  if rateTtl == -1 then
    redis.call('EXPIRE', rateKey, rateWindow)
    rateTtl = rateWindow * 1000
  end
  if consumed > rateLimit then
    return {0, 'rate', 0, consumed, rateTtl}
  end
end
redis.call('ZREMRANGEBYSCORE', wsInFlight, '-inf', now)
redis.call('ZREMRANGEBYSCORE', allInFlight, '-inf', now)
local wsHeld = redis.call('ZCARD', wsInFlight)
if wsHeld >= concurrency then
  local soonest = redis.call('ZRANGE', wsInFlight, 0, 0, 'WITHSCORES')
  return {0, 'concurrency', tonumber(soonest[2]) - now, consumed, rateTtl}
end
if redis.call('ZCARD', allInFlight) >= maxInFlight or wsHeld >= shareInFlight then
  return {0, 'capacity', 25, consumed, rateTtl}
end
local calls = tonumber(redis.call('GET', allRate) or '0')
local wsCalls = tonumber(redis.call('GET', wsRate) or '0')
if calls >= perSecond or wsCalls >= sharePerSecond then
  return {0, 'capacity', 1000 - (now % 1000), consumed, rateTtl}
end
redis.call('INCR', allRate)
redis.call('PEXPIRE', allRate, 2000)
wsCalls = redis.call('INCR', wsRate)
redis.call('PEXPIRE', wsRate, 2000)
redis.call('ZADD', wsInFlight, expiresAt, holder)
redis.call('PEXPIRE', wsInFlight, keyTtl)
redis.call('ZADD', allInFlight, expiresAt, holder)
redis.call('PEXPIRE', allInFlight, keyTtl)
local taken = {'', 0, 0, 0, 0}
local due = ''
if heldPrefix ~= '' then
  local allowance = redis.call('HMGET', allowanceKey, 'id', 'units', 'ends', 'free', 'limit', 'used', 'returning')
  local id = allowance[1]
  local low = not allowance[7]
  if id and not allowance[7] and tonumber(allowance[3]) > now then
    local held = heldPrefix .. id
    -- Units of holders whose lease ran out (their process died) come back first.
    local units = tonumber(allowance[2]) + redis.call('ZREMRANGEBYSCORE', held, '-inf', now)
    if units > 0 then
      units = units - 1
      redis.call('ZADD', held, expiresAt, holder)
      redis.call('PEXPIRE', held, keyTtl)
      taken = {id, tonumber(allowance[4]), tonumber(allowance[5]), tonumber(allowance[6]), units}
      redis.call('HSET', allowanceKey, 'units', units, 'taken', now)
    else
      -- No unit taken: the allowance is not in use for that (it idles out, and goes back, as one nobody takes from).
      redis.call('HSET', allowanceKey, 'units', units)
    end
    low = units <= lowWater
  end
  if low and wsCalls >= hotCalls and redis.call('SET', leaseLock, holder, 'NX', 'PX', lockMs) then
    due = id or '-'
  end
end
-- No unit taken while a block is on its way (this call's lease, or another's): the call waits for it.
local coming = 0
if heldPrefix ~= '' and taken[1] == '' then
  local lock = due == '' and redis.call('GET', leaseLock)
  if due ~= '' or (lock and lock ~= 'refused') then coming = 1 end
end
return {1, 'admitted', 0, consumed, rateTtl, taken[1], taken[2], taken[3], taken[4], taken[5], due, coming}
`);

/**
 * How long a reader waits at most for units on their way into or out of a workspace's allowance (a
 * lease or a return takes a round trip to accounts; past this, the process moving them died), and
 * how often it looks: a call refused its reservation (Meter), a usage read (QuotaAllowances).
 */
export const UNITS_IN_TRANSIT_WAIT_MS = 2000;
export const UNITS_IN_TRANSIT_POLL_MS = 10;
/**
 * How long a call admitted while a block is on its way waits for it before it reserves a unit of its
 * own (Meter): a lease lands in one round trip to accounts (5–20 ms here); one that takes longer has
 * met a slow accounts or a process that died, and the call no longer waits on it.
 */
export const LEASE_LANDING_WAIT_MS = 250;

/**
 * A unit of the allowance for a call already admitted without one (a block was on its way at its
 * admission, or its reservation was refused: the allowance may have idle units by now). Answers {'taken', id, free, limit, used, units left}; {'wait'} while
 * units are on their way between accounts and the allowance (a lease or a return in flight), after
 * which the call looks again; {'none'} otherwise. KEYS: the hash, the lease lock; ARGV: now,
 * expiresAt, holder, heldPrefix, keyTtl.
 */
const TAKE = luaScript(`
local now = tonumber(ARGV[1])
local allowance = redis.call('HMGET', KEYS[1], 'id', 'units', 'ends', 'free', 'limit', 'used', 'returning')
if allowance[7] then return {'wait'} end
local id = allowance[1]
if id and tonumber(allowance[3]) > now then
  local held = ARGV[4] .. id
  local units = tonumber(allowance[2]) + redis.call('ZREMRANGEBYSCORE', held, '-inf', now)
  if units > 0 then
    units = units - 1
    redis.call('ZADD', held, ARGV[2], ARGV[3])
    redis.call('PEXPIRE', held, ARGV[5])
    redis.call('HSET', KEYS[1], 'units', units, 'taken', now)
    return {'taken', id, tonumber(allowance[4]), tonumber(allowance[5]), tonumber(allowance[6]), units}
  end
  redis.call('HSET', KEYS[1], 'units', units)
end
local lock = redis.call('GET', KEYS[2])
if lock and lock ~= 'refused' then return {'wait'} end
return {'none'}
`);

/**
 * Extends the leases still alive (one that expired is not brought back): KEYS[1] all, then per
 * holder its workspace key and the key of the allowance units it holds (ARGV: its name and whether
 * it holds one).
 */
const RENEW = luaScript(`
local expiresAt = ARGV[1]
local keyTtl = ARGV[2]
local now = tonumber(ARGV[3])
for i = 2, #KEYS, 2 do
  local holder = ARGV[i + 2]
  local score = redis.call('ZSCORE', KEYS[i], holder)
  if score and tonumber(score) > now then
    redis.call('ZADD', KEYS[i], 'XX', expiresAt, holder)
    redis.call('ZADD', KEYS[1], 'XX', expiresAt, holder)
    redis.call('PEXPIRE', KEYS[i], keyTtl)
    if ARGV[i + 3] == '1' then
      redis.call('ZADD', KEYS[i + 1], 'XX', expiresAt, holder)
      redis.call('PEXPIRE', KEYS[i + 1], keyTtl)
    end
  end
end
redis.call('PEXPIRE', KEYS[1], keyTtl)
return 1
`);

/**
 * Gives the permits back and, for a success, hands the charge and its history entry to the
 * settlement outbox (the stream every settler reads, and the workspace's set of answered,
 * unsettled charges), naming the allowance its unit came from; a failure's allowance unit goes
 * back to the allowance, if the allowance is still the one in use and the unit was still held
 * (one whose lease ran out was put back already). A call that never reached the marketplace
 * (ARGV[7] = '1': its input refused, its quota refused) is also taken out of the calls per second
 * it was counted in (KEYS[7], KEYS[8]), if that second's counters are still there. One round trip.
 */
const COMPLETE = luaScript(`
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[7] == '1' then
  for i = 7, 8 do
    if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
  end
end
if ARGV[6] ~= '' then
  local held = redis.call('ZREM', KEYS[6], ARGV[1])
  if ARGV[2] == '' and held == 1 and redis.call('HGET', KEYS[5], 'id') == ARGV[6] then
    redis.call('HINCRBY', KEYS[5], 'units', 1)
  end
end
if ARGV[2] ~= '' then
  if ARGV[6] ~= '' then
    redis.call('XADD', KEYS[3], '*', 'r', ARGV[2], 'w', ARGV[3], 'h', ARGV[5], 'a', ARGV[6])
  else
    redis.call('XADD', KEYS[3], '*', 'r', ARGV[2], 'w', ARGV[3], 'h', ARGV[5])
  end
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

/** How calls take units of their workspace's quota allowance (see QuotaAllowances). */
export interface AllowanceTaking {
  keys: AllowanceKeys;
  /** At or below this many idle units (or none), more are leased. */
  lowWater: number;
  /** Calls a workspace starts in a second before its allowance is worth leasing (fewer reserve per call). */
  hotCallsPerSecond: number;
  /** How long the process that leases holds the lease lock (also how soon a refused lease is asked again). */
  lockMs: number;
}

export interface AdmissionOptions extends CapacityOptions {
  keyPrefix: string;
  /** Life of a permit; renewed every third of it while held. */
  leaseMs: number;
  /** Absent: calls take no allowance units (each reserves its own). */
  allowance?: AllowanceTaking;
}

/** A request's rate, counted with its first call's admission: the counter's key (FixedWindowLimiter.keyOf) and the limit. */
export interface RateCheck {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** A unit of the workspace's allowance that the call holds, with the quota figures as they stand with it taken. */
export interface AllowanceTake {
  allowanceId: string;
  quota: QuotaSnapshot;
}

/** The workspace's allowance runs low (or there is none) and this process was picked to lease more: `allowanceId` to top up, or null for a new one. */
export interface LeaseDue {
  workspaceId: string;
  allowanceId: string | null;
}

export type AdmissionDecision =
  | { admitted: true; permit: Permit; rate: WindowDecision | null; leaseDue: LeaseDue | null }
  | { admitted: false; reason: 'rate'; rate: WindowDecision }
  | { admitted: false; reason: 'concurrency' | 'capacity'; retryAfterMs: number; rate: WindowDecision | null };

export interface Permit {
  workspaceId: string;
  holder: string;
  /** The second (Unix time) whose calls-per-second counters count the call. */
  countedIn: number;
  /** The allowance unit the call holds; null: it reserves its own (or needs none). */
  allowance: AllowanceTake | null;
  /**
   * Admitted without a unit while a block was on its way into the allowance (a lease in flight, this
   * call's own or another's): the call waits for it rather than reserve its own.
   */
  unitsComing: boolean;
}

/**
 * A unit taken, with the figures a reservation would answer: accounts' counter as of its last answer
 * (a lease or a renewal, at most a second or so old) and the allowance's idle units, which can
 * still be started, counted exactly.
 */
function allowanceTakeOf(allowanceId: string, free: number, limit: number, used: number, idle: number): AllowanceTake {
  return { allowanceId, quota: { limit: Number(limit), used: Number(used), remaining: Math.max(0, Math.min(Number(limit) - Number(used), Number(free) + Number(idle))) } };
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

  /**
   * One attempt; a refusal is a value with how long to wait before the next. With `rate`, the call
   * is counted against the request rate first (a refusal there admits nothing); with `allowance`,
   * an admitted call takes a unit of the workspace's allowance when one is idle. `together`: calls of
   * the caller's starting with this one (a bulk search's keywords), counted as made already when
   * deciding whether the workspace is busy enough to lease a block (`hotCallsPerSecond`), so that the
   * first of them asks for it.
   */
  async admit(workspaceId: string, holder: string, concurrency: number, extras: { rate?: RateCheck; allowance?: boolean; together?: number } = {}): Promise<AdmissionDecision> {
    const { maxInFlight, callsPerSecond, workspaceShare, leaseMs } = this.options;
    const taking = extras.allowance ? this.options.allowance : undefined;
    const now = this.clock();
    const second = Math.floor(now / 1000);
    const wsKey = this.workspaceKey(workspaceId);
    const reply = (await callRedis(() =>
      runScript(
        this.redis,
        ADMIT,
        [
          wsKey,
          this.key('in-flight'),
          this.key(`calls:${second}`),
          this.key(`calls:${second}:${workspaceId}`),
          extras.rate?.key ?? wsKey,
          taking ? taking.keys.hash(workspaceId) : wsKey,
          taking ? taking.keys.leaseLock(workspaceId) : wsKey,
        ],
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
          extras.rate?.limit ?? 0,
          extras.rate?.windowSeconds ?? 0,
          taking ? taking.keys.heldPrefix(workspaceId) : '',
          taking?.lowWater ?? 0,
          taking ? Math.max(1, taking.hotCallsPerSecond - ((extras.together ?? 1) - 1)) : 0,
          taking?.lockMs ?? 0,
        ],
      ),
    )) as [number, string, number, number, number, string?, number?, number?, number?, number?, string?, number?];
    const [ok, reason, wait, consumed, rateMs] = reply;
    const rate = extras.rate ? windowDecision(Number(consumed), Number(rateMs), extras.rate.limit, extras.rate.windowSeconds) : null;
    if (Number(ok) !== 1) {
      if (reason === 'rate') return { admitted: false, reason: 'rate', rate: rate! };
      return { admitted: false, reason: reason === 'concurrency' ? 'concurrency' : 'capacity', retryAfterMs: Math.max(1, Number(wait)), rate };
    }
    const [, , , , , allowanceId, free, limit, used, idle, due, coming] = reply;
    const allowance = allowanceId ? allowanceTakeOf(allowanceId, free!, limit!, used!, idle!) : null;
    const permit: Permit = { workspaceId, holder, countedIn: second, allowance, unitsComing: Number(coming) === 1 };
    this.held.set(holder, permit);
    const leaseDue = due ? { workspaceId, allowanceId: due === '-' ? null : due } : null;
    return { admitted: true, permit, rate, leaseDue };
  }

  /**
   * A unit of the workspace's allowance for an admitted call that holds none (a block was on its way
   * at its admission, or its reservation was refused): `wait` while units are on their way into or
   * out of the allowance.
   */
  async takeUnit(permit: Permit): Promise<AllowanceTake | 'wait' | 'none'> {
    const taking = this.options.allowance;
    if (!taking || permit.allowance) return 'none';
    const now = this.clock();
    const reply = (await callRedis(() =>
      runScript(
        this.redis,
        TAKE,
        [taking.keys.hash(permit.workspaceId), taking.keys.leaseLock(permit.workspaceId)],
        [now, now + this.options.leaseMs, permit.holder, taking.keys.heldPrefix(permit.workspaceId), this.options.leaseMs * 4],
      ),
    )) as [string, string?, number?, number?, number?, number?];
    const [outcome, allowanceId, free, limit, used, idle] = reply;
    if (outcome !== 'taken') return outcome === 'wait' ? 'wait' : 'none';
    // The permit is renewed (and completed) with the unit it now holds.
    permit.allowance = allowanceTakeOf(allowanceId!, free!, limit!, used!, idle!);
    return permit.allowance;
  }

  /**
   * Gives the permit back; with `charge`, hands the request's charge to the settlement outbox in the
   * same call, with its history entry: a charge and its entry are recorded together, even when this
   * process dies before its history writer flushes. Without it, an allowance unit the call held goes
   * back to the allowance. `uncalled`: the call never reached the marketplace, so it no longer
   * counts in the calls per second (the deployment's, and its workspace's share).
   */
  async complete(permit: Permit, charge: { requestId: string; history: HistoryRecord } | null, uncalled = false): Promise<void> {
    this.held.delete(permit.holder);
    const wsKey = this.workspaceKey(permit.workspaceId);
    const taking = this.options.allowance;
    const allowanceId = permit.allowance?.allowanceId ?? '';
    await callRedis(() =>
      runScript(
        this.redis,
        COMPLETE,
        [
          wsKey,
          this.key('in-flight'),
          this.charges.stream,
          this.charges.pendingSetOf(permit.workspaceId),
          taking && allowanceId ? taking.keys.hash(permit.workspaceId) : wsKey,
          taking && allowanceId ? taking.keys.held(permit.workspaceId, allowanceId) : wsKey,
          this.key(`calls:${permit.countedIn}`),
          this.key(`calls:${permit.countedIn}:${permit.workspaceId}`),
        ],
        [permit.holder, charge?.requestId ?? '', permit.workspaceId, this.charges.pendingTtlMs, charge ? JSON.stringify(charge.history) : '', allowanceId, uncalled && !charge ? '1' : '0'],
      ),
    );
  }

  private async renewHeld(): Promise<void> {
    const permits = [...this.held.values()];
    if (permits.length === 0) return;
    const now = this.clock();
    const expiresAt = now + this.options.leaseMs;
    const taking = this.options.allowance;
    try {
      // Large sets go in slices, so no one script holds Redis for long.
      for (let start = 0; start < permits.length; start += 500) {
        const slice = permits.slice(start, start + 500);
        await callRedis(() =>
          runScript(
            this.redis,
            RENEW,
            [
              this.key('in-flight'),
              ...slice.flatMap((permit) => {
                const wsKey = this.workspaceKey(permit.workspaceId);
                return [wsKey, taking && permit.allowance ? taking.keys.held(permit.workspaceId, permit.allowance.allowanceId) : wsKey];
              }),
            ],
            [expiresAt, this.options.leaseMs * 4, now, ...slice.flatMap((permit) => [permit.holder, permit.allowance ? '1' : '0'])],
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
