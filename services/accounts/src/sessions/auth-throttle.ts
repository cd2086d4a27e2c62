import { createHash } from 'node:crypto';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { callRedis } from '@comps/shared/redis/redis-errors';

export interface AuthThrottleLimits {
  /** Failed sign-ins per account (or per unknown e-mail address) per window. */
  accountFailures: number;
  /** Failed sign-ins per client address per window. */
  addressFailures: number;
  windowSeconds: number;
  /** New accounts per client address per hour. */
  signUpsPerAddressPerHour: number;
}

/**
 * Guessing passwords and making accounts in bulk, throttled in Redis (rate-limiter-flexible) so that
 * every accounts process counts together. Failures count per account, so that one account cannot be
 * guessed from many addresses, and per address, so that one address cannot try many accounts. Unknown
 * e-mail addresses count like known ones: the answer never tells which exist. Redis out of reach
 * fails closed (service_unavailable): sign-in without the throttle would invite guessing.
 */
export class AuthThrottle {
  private readonly accountFailures: RateLimiterRedis;
  private readonly addressFailures: RateLimiterRedis;
  private readonly signUps: RateLimiterRedis;

  constructor(redis: RedisClient, keyPrefix: string, limits: AuthThrottleLimits) {
    const limiter = (name: string, points: number, duration: number) =>
      new RateLimiterRedis({ storeClient: redis, useRedisPackage: true, rejectIfRedisNotReady: true, keyPrefix: `${keyPrefix}${name}`, points, duration });
    this.accountFailures = limiter('sign-in-failures:account', limits.accountFailures, limits.windowSeconds);
    this.addressFailures = limiter('sign-in-failures:address', limits.addressFailures, limits.windowSeconds);
    this.signUps = limiter('sign-ups:address', limits.signUpsPerAddressPerHour, 3600);
  }

  /**
   * Takes one attempt for this account from this address before the password is checked, so that a
   * burst of attempts sent at once counts each one (a check before and a count after would let them
   * all through): the seconds to wait when either count is past its limit, else null. `account` names
   * the account the database found for the address (see `signInAccountOf`), so that spellings the
   * database takes for the same address share one count.
   */
  async takeSignInAttempt(account: string, address: string): Promise<number | null> {
    const [perAccount, perAddress] = await callRedis(() => Promise.all([take(this.accountFailures, accountKey(account)), take(this.addressFailures, address)]));
    return Math.max(waitOf(perAccount, this.accountFailures.points) ?? 0, waitOf(perAddress, this.addressFailures.points) ?? 0) || null;
  }

  /** A successful sign-in: the account's failures are forgotten, and the address gets its attempt back. */
  async signInSucceeded(account: string, address: string): Promise<void> {
    await callRedis(() => Promise.all([this.accountFailures.delete(accountKey(account)), this.addressFailures.reward(address, 1)]));
  }

  /** Takes one sign-up for this address before the account is made: the seconds to wait past the limit, else null. */
  async takeSignUp(address: string): Promise<number | null> {
    return waitOf(await callRedis(() => take(this.signUps, address)), this.signUps.points);
  }

  /** A sign-up refused for its form (a weak password, a malformed address) gives its point back; one for a taken address does not. */
  async giveBackSignUp(address: string): Promise<void> {
    await callRedis(() => this.signUps.reward(address, 1));
  }
}

/** Neither e-mail addresses nor user ids are kept in Redis, only a digest of them. */
function accountKey(account: string): string {
  return createHash('sha256').update(account).digest('base64url');
}

/** Past its limit once more than `points` were taken. */
function waitOf(state: RateLimiterRes, points: number): number | null {
  if (state.consumedPoints <= points) return null;
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}

/** Takes one point; being past the limit is an answer here, not an error. */
async function take(limiter: RateLimiterRedis, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection;
  }
}
