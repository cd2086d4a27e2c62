import { MAX_RENEWED_ALLOWANCES } from '../internal/accounts/accounts-contract.js';
import type { Logger } from '../logging/create-logger.js';
import type { RedisClient } from '../redis/create-redis.js';
import { callRedis } from '../redis/redis-errors.js';
import { luaScript, runScript } from '../redis/run-script.js';
import { abortableSleep } from '../runtime/abortable-sleep.js';
import { TaskTracker } from '../runtime/task-tracker.js';
import { UNITS_IN_TRANSIT_POLL_MS, UNITS_IN_TRANSIT_WAIT_MS, type AllowanceTaking, type LeaseDue } from './admission.js';
import { AllowanceKeys } from './allowance-keys.js';
import type { QuotaLedger } from './quota-ledger.js';

/**
 * Puts units accounts leased into the workspace's allowance (KEYS: its hash, the lease lock; ARGV:
 * the allowance, units, ends, expires, free, limit, used, now). More units on the allowance in use
 * are added to it. A new allowance replaces one whose takes have ended (or none): the idle units of
 * the one replaced are answered, for the caller to give back. Units for an allowance that is
 * neither (another is in use, or the one in use is being returned) are answered too: they go back at once. Answers {allowance, units}
 * to give back, or {'', 0}. The lease lock goes once nothing is left on its way: with units to give
 * back it stays, for the caller to delete once accounts has them (readers wait while it is held).
 */
const INSTALL = luaScript(`
local id, units, ends, expires = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local now = tonumber(ARGV[8])
local current = redis.call('HMGET', KEYS[1], 'id', 'units', 'ends', 'returning')
if current[4] then
  return {id, units}
end
if current[1] == id then
  redis.call('HINCRBY', KEYS[1], 'units', units)
  if ends > tonumber(current[3]) then redis.call('HSET', KEYS[1], 'ends', ends) end
  redis.call('HSET', KEYS[1], 'free', ARGV[5], 'limit', ARGV[6], 'used', ARGV[7])
  if redis.call('PEXPIRETIME', KEYS[1]) < expires then redis.call('PEXPIREAT', KEYS[1], expires) end
  redis.call('DEL', KEYS[2])
  return {'', 0}
end
if current[1] and tonumber(current[3]) > now then
  return {id, units}
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'id', id, 'units', units, 'ends', ends, 'free', ARGV[5], 'limit', ARGV[6], 'used', ARGV[7], 'taken', now)
redis.call('PEXPIREAT', KEYS[1], expires)
if current[1] then return {current[1], tonumber(current[2])} end
redis.call('DEL', KEYS[2])
return {'', 0}
`);

/**
 * What a usage read needs, in one step (KEYS: the hash, the lease lock): the allowance's id, idle
 * units, end of takes and `returning` mark, then the lock ('' for each one absent).
 */
const IN_TRANSIT = luaScript(`
local allowance = redis.call('HMGET', KEYS[1], 'id', 'units', 'ends', 'returning')
local lock = redis.call('GET', KEYS[2])
return {allowance[1] or '', allowance[2] or '', allowance[3] or '', allowance[4] or '', lock or ''}
`);

/** After a renewal: the later end and the counter's figures, for each allowance still the one in use (KEYS: hashes; ARGV: per hash id, ends, expires, free, limit, used). */
const REFRESH = luaScript(`
for i = 1, #KEYS do
  local base = (i - 1) * 6
  local id = ARGV[base + 1]
  if redis.call('HGET', KEYS[i], 'id') == id then
    local ends, expires = tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3])
    if ends > tonumber(redis.call('HGET', KEYS[i], 'ends')) then redis.call('HSET', KEYS[i], 'ends', ends) end
    redis.call('HSET', KEYS[i], 'free', ARGV[base + 4], 'limit', ARGV[base + 5], 'used', ARGV[base + 6])
    if redis.call('PEXPIRETIME', KEYS[i]) < expires then redis.call('PEXPIREAT', KEYS[i], expires) end
  end
end
return 1
`);

/**
 * Takes the allowance out of use, if it is still the one in use and (with idleSince > 0) nobody
 * took a unit since then and no call holds one any more: it is marked `returning` (no unit is taken from it any more, and a call
 * refused its reservation meanwhile waits for the return), and its idle units, with those of
 * holders whose lease ran out, are answered for the caller to give back. Else -1: it is no longer
 * the one in use (gone); -2: it is still in use (a unit taken since, or held by a call), and renewed.
 * KEYS: the hash, its holders; ARGV: id, now, idleSince.
 */
const DRAIN = luaScript(`
local current = redis.call('HMGET', KEYS[1], 'id', 'units', 'taken', 'returning')
if current[1] ~= ARGV[1] or current[4] then return -1 end
local idleSince = tonumber(ARGV[3])
if idleSince > 0 and tonumber(current[3]) > idleSince then return -2 end
local lapsed = redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if idleSince > 0 and redis.call('ZCARD', KEYS[2]) > 0 then
  -- Calls still hold units (of a process that died, until their permits lapse): given back once none does,
  -- else accounts would keep their units until the lease ran out. Lapsed ones are idle units again.
  if lapsed > 0 then redis.call('HINCRBY', KEYS[1], 'units', lapsed) end
  return -2
end
local units = tonumber(current[2]) + lapsed
redis.call('HSET', KEYS[1], 'units', 0, 'returning', ARGV[2])
return units
`);

/** Once accounts has the units back: the allowance is gone (KEYS: the hash; ARGV: its id). */
const FINISH = luaScript(`
if redis.call('HGET', KEYS[1], 'id') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

export interface AllowanceOptions {
  /** Redis keys of the allowances (every api and jobs process of a deployment uses the same). */
  keyPrefix: string;
  /** Units a lease asks for. */
  blockUnits: number;
  /** How long accounts holds an allowance without a renewal: what a process that dies holds at most. */
  leaseMs: number;
  /** An allowance nobody took from for this long is given back. */
  idleMs: number;
}

/** The lease lock's value after a refused lease: no lease is in flight, and none is asked until it lapses. */
const REFUSED = 'refused';

/** Calls a workspace starts in a second before leasing pays: a block then serves several before it idles out. */
const HOT_CALLS_PER_SECOND = 3;

/**
 * Quota allowances: the units a deployment's metering takes for a workspace without a round trip
 * to accounts. Accounts leases them in blocks (QuotaLedger.leaseAllowance); they are kept in Redis,
 * so every api and jobs process of the deployment takes from the same allowance, in the admission
 * round trip a call makes anyway (Admission). No process holds units another one needs: near the
 * end of a quota, the allowance is what every process draws on, and accounts grants no block
 * unless a block's worth stays free, so the last units are reserved one request at a time.
 *
 * A success is charged once by its request id, from its allowance, through the settlement outbox;
 * a failure puts its unit back at once. An allowance running low is topped up by one process
 * (the admission that found it low takes a lock), in the background: calls meanwhile take what is
 * left, or, finding none, wait for the block on its way (Meter), reserving their own only if it
 * does not come. While units are taken, the processes that took them renew the lease;
 * an allowance nobody took from for `idleMs` is given back, and so is every allowance this process
 * used when it stops. If every process that used an allowance dies, accounts frees its units when
 * the lease runs out; the units of calls that died in flight come back within the permits' lease.
 * Units can be taken while a third of the lease is left at least, so a unit taken is charged
 * within its allowance's lease unless the allowance's processes all died.
 */
export class QuotaAllowances {
  readonly keys: AllowanceKeys;
  /** Allowances this process leased or took from: the ones it renews and, once idle, gives back. */
  private readonly used = new Map<string, string>();
  /** The lease this process has in flight, by workspace: settled once its block is in Redis (or it failed). */
  private readonly leasing = new Map<string, Promise<void>>();
  private readonly background: TaskTracker;
  private readonly maintenance: NodeJS.Timeout;
  private maintaining: Promise<void> = Promise.resolve();
  private maintainingNow = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly ledger: QuotaLedger,
    private readonly options: AllowanceOptions,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.keys = new AllowanceKeys(options.keyPrefix);
    this.background = new TaskTracker((error) => this.logger.warn({ err: String(error) }, 'quota allowance: lease not completed; calls reserve per request meanwhile'));
    this.maintenance = setInterval(() => {
      if (this.maintainingNow) return;
      this.maintainingNow = true;
      this.maintaining = this.maintain().finally(() => {
        this.maintainingNow = false;
      });
    }, this.maintainEveryMs());
    this.maintenance.unref();
  }

  /** What Admission needs to take units. */
  get taking(): AllowanceTaking {
    return { keys: this.keys, lowWater: Math.ceil(this.options.blockUnits / 2), hotCallsPerSecond: HOT_CALLS_PER_SECOND, lockMs: Math.max(1000, this.options.idleMs) };
  }

  /** Renewals come often enough that a lease never nears its end while used, and idle allowances go back soon after `idleMs`. */
  private maintainEveryMs(): number {
    return Math.max(100, Math.min(1000, Math.floor(this.options.idleMs / 2), Math.floor(this.options.leaseMs / 6)));
  }

  /** Takes end this long before the lease does, so that the last unit taken is settled within it. */
  private get guardMs(): number {
    return Math.floor(this.options.leaseMs / 3);
  }

  /** A call took a unit of this allowance: this process renews it while it is used. */
  noteTake(workspaceId: string, allowanceId: string): void {
    this.used.set(allowanceId, workspaceId);
  }

  /** Leases more units in the background (the admission that found the allowance low asked this process to). */
  lease(due: LeaseDue): void {
    const landing = this.leaseNow(due);
    this.background.track(landing);
    const landed = landing.then(
      () => undefined,
      () => undefined,
    );
    this.leasing.set(due.workspaceId, landed);
    void landed.then(() => {
      if (this.leasing.get(due.workspaceId) === landed) this.leasing.delete(due.workspaceId);
    });
  }

  /**
   * The lease this process has in flight for the workspace, settled once its block is in Redis (and
   * what had to go back to accounts, an allowance it replaced or its own block, given back) or it
   * failed; none when it has none.
   */
  leaseInFlight(workspaceId: string): Promise<void> | undefined {
    return this.leasing.get(workspaceId);
  }

  private async leaseNow(due: LeaseDue): Promise<void> {
    try {
      await this.leaseOnce(due);
    } catch (error) {
      // Accounts did not answer: no lease in flight any more, and the next ask waits as after a refusal.
      await callRedis(() => this.redis.set(this.keys.leaseLock(due.workspaceId), REFUSED, { PX: this.taking.lockMs })).catch(() => undefined);
      throw error;
    }
  }

  private async leaseOnce(due: LeaseDue): Promise<void> {
    const sentAt = this.clock();
    const answer = await this.ledger.leaseAllowance({ workspaceId: due.workspaceId, allowanceId: due.allowanceId, units: this.options.blockUnits, leaseMs: this.options.leaseMs });
    if (!answer.ok) {
      // Too little headroom: calls reserve their own units; the lock says so until it lapses, and the next ask waits that long.
      await callRedis(() => this.redis.set(this.keys.leaseLock(due.workspaceId), REFUSED, { PX: this.taking.lockMs }));
      return;
    }
    const ends = sentAt + answer.leaseMs - this.guardMs;
    const replaced = (await callRedis(() =>
      runScript(
        this.redis,
        INSTALL,
        [this.keys.hash(due.workspaceId), this.keys.leaseLock(due.workspaceId)],
        [answer.allowanceId, answer.granted, ends, sentAt + answer.leaseMs, answer.free, answer.limit, answer.used, this.clock()],
      ),
    )) as [string, number];
    this.used.set(answer.allowanceId, due.workspaceId);
    const [idleId, idleUnits] = replaced;
    if (!idleId) return;
    try {
      if (Number(idleUnits) > 0) await this.ledger.returnAllowance(idleId, Number(idleUnits));
    } finally {
      // Nothing on its way any more (should the lock have lapsed meanwhile and another lease taken it, that lease starts beside this one's end: harmless).
      await callRedis(() => this.redis.del(this.keys.leaseLock(due.workspaceId)));
    }
  }

  /**
   * The idle units of the workspace's allowance (for a usage read: they can still be started). A block on its way
   * between accounts and Redis (while a lease is asked and answered and until its units are in Redis, or while units
   * go back) is held in accounts and idle in no allowance Redis shows: a read then would count a block's worth fewer
   * units remaining than one a moment later. So the read waits while one is (a round trip to accounts), as a call
   * refused its reservation does, at most `UNITS_IN_TRANSIT_WAIT_MS` (past that, the process moving it died, and
   * accounts holds its units until their lease ends). A caller that leaves ends the wait with its signal's reason.
   */
  async idleUnitsOf(workspaceId: string, signal: AbortSignal): Promise<Array<{ allowanceId: string; units: number }>> {
    const waitUntil = this.clock() + UNITS_IN_TRANSIT_WAIT_MS;
    for (;;) {
      const [id, units, ends, returning, lock] = (await callRedis(() =>
        runScript(this.redis, IN_TRANSIT, [this.keys.hash(workspaceId), this.keys.leaseLock(workspaceId)], []),
      )) as [string, string, string, string, string];
      const now = this.clock();
      const inTransit = (lock !== '' && lock !== REFUSED) || (returning !== '' && now - Number(returning) < UNITS_IN_TRANSIT_WAIT_MS);
      if (!inTransit || now >= waitUntil) {
        if (!id || returning || Number(ends) <= now) return [];
        return [{ allowanceId: id, units: Math.max(0, Number(units)) }];
      }
      await abortableSleep(UNITS_IN_TRANSIT_POLL_MS, signal);
      signal.throwIfAborted();
    }
  }

  /** Renews the allowances in use; gives back those nobody took from for `idleMs`. */
  private async maintain(): Promise<void> {
    if (this.used.size === 0) return;
    try {
      const now = this.clock();
      const entries = [...this.used.entries()];
      const states = await callRedis(() => Promise.all(entries.map(([, workspaceId]) => this.redis.hmGet(this.keys.hash(workspaceId), ['id', 'taken', 'returning']))));
      const renew: Array<[string, string]> = [];
      for (const [index, [allowanceId, workspaceId]] of entries.entries()) {
        const [id, taken, returning] = states[index]!;
        if (id !== allowanceId || returning) this.used.delete(allowanceId);
        else if (now - Number(taken) >= this.options.idleMs) {
          // One that could not be given back is tried at the next tick (Redis failed), or its units come back when
          // its lease runs out (accounts did not answer); the others go on.
          const given = await this.giveBack(allowanceId, workspaceId, now - this.options.idleMs).catch((error: unknown) => {
            this.logger.warn({ err: error instanceof Error ? error.message : String(error), allowanceId }, 'quota allowance: not given back');
            return 'failed' as const;
          });
          // Still in use (a call holds a unit of it, or took one since): renewed, so that its lease does not run out under the call.
          if (given === 'in use') renew.push([allowanceId, workspaceId]);
        } else renew.push([allowanceId, workspaceId]);
      }
      // In slices of what one renewal may name.
      for (let start = 0; start < renew.length; start += MAX_RENEWED_ALLOWANCES) await this.renew(renew.slice(start, start + MAX_RENEWED_ALLOWANCES));
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'quota allowance: renewal failed; it is tried again');
    }
  }

  private async renew(allowances: Array<[string, string]>): Promise<void> {
    const sentAt = this.clock();
    const renewed = await this.ledger.renewAllowances(allowances.map(([allowanceId]) => allowanceId), this.options.leaseMs);
    const workspaceOf = new Map(allowances);
    const still = new Set(renewed.map((entry) => entry.allowanceId));
    // One accounts no longer holds (past its lease, or of last month) takes no more units here.
    for (const [allowanceId] of allowances) if (!still.has(allowanceId)) this.used.delete(allowanceId);
    if (renewed.length === 0) return;
    await callRedis(() =>
      runScript(
        this.redis,
        REFRESH,
        renewed.map((entry) => this.keys.hash(workspaceOf.get(entry.allowanceId)!)),
        renewed.flatMap((entry) => [entry.allowanceId, sentAt + entry.leaseMs - this.guardMs, sentAt + entry.leaseMs, entry.free, entry.limit, entry.used]),
      ),
    );
  }

  /** Takes the allowance out of use (if nobody took from it since `idleSince` and no call holds a unit, when given) and gives its idle units back to accounts. */
  private async giveBack(allowanceId: string, workspaceId: string, idleSince = 0): Promise<'given' | 'in use' | 'gone'> {
    const units = Number(
      await callRedis(() => runScript(this.redis, DRAIN, [this.keys.hash(workspaceId), this.keys.held(workspaceId, allowanceId)], [allowanceId, this.clock(), idleSince])),
    );
    if (units === -2) return 'in use';
    if (units < 0) return 'gone';
    this.used.delete(allowanceId);
    try {
      if (units > 0) await this.ledger.returnAllowance(allowanceId, units);
    } finally {
      // Returned, or accounts could not be told (it frees them when the lease runs out): either way they are no longer here.
      await callRedis(() => runScript(this.redis, FINISH, [this.keys.hash(workspaceId)], [allowanceId]));
    }
    return 'given';
  }

  /** At a clean stop: leases in flight finish, then every allowance this process used is given back (others lease anew if they need). */
  async close(): Promise<void> {
    clearInterval(this.maintenance);
    await this.maintaining;
    await this.background.drain();
    for (const [allowanceId, workspaceId] of [...this.used.entries()]) {
      try {
        await this.giveBack(allowanceId, workspaceId);
      } catch (error) {
        this.logger.warn({ err: error instanceof Error ? error.message : String(error), allowanceId }, 'quota allowance: not given back at stop; its units come back when its lease runs out');
      }
    }
  }
}
