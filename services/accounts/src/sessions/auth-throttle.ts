import { createHash } from 'node:crypto';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from '@comps/shared/redis/create-redis';
import { callRedis } from '@comps/shared/redis/redis-errors';

export interface AuthThrottleLimits {
  /** Failed sign-ins per e-mail address (known or not) per window. */
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

  /** Seconds to wait before signing in may be tried again for this account from this address, or null when it may now. */
  async signInWait(email: string, address: string): Promise<number | null> {
    const [account, client] = await callRedis(() => Promise.all([this.accountFailures.get(accountKey(email)), this.addressFailures.get(address)]));
    return Math.max(waitOf(account, this.accountFailures.points) ?? 0, waitOf(client, this.addressFailures.points) ?? 0) || null;
  }

  async recordSignInFailure(email: string, address: string): Promise<void> {
    await callRedis(() => Promise.all([consume(this.accountFailures, accountKey(email)), consume(this.addressFailures, address)]));
  }

  /** A successful sign-in forgets the account's failures (the address keeps its count). */
  async forgetAccountFailures(email: string): Promise<void> {
    await callRedis(() => this.accountFailures.delete(accountKey(email)));
  }

  async signUpWait(address: string): Promise<number | null> {
    return waitOf(await callRedis(() => this.signUps.get(address)), this.signUps.points);
  }

  async recordSignUp(address: string): Promise<void> {
    await callRedis(() => consume(this.signUps, address));
  }
}

/** E-mail addresses are not kept in Redis, only a digest of them. */
function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}

function waitOf(state: RateLimiterRes | null, points: number): number | null {
  if (!state || state.consumedPoints < points) return null;
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}

/** Counts one; being past the limit is not an error here (the next check refuses). */
async function consume(limiter: RateLimiterRedis, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
  }
}
