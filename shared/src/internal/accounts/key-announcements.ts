import type { Logger } from '../../logging/create-logger.js';
import type { RedisClient } from '../../redis/create-redis.js';
import { callRedis } from '../../redis/redis-errors.js';

/**
 * How every api process learns at once that a key became valid or stopped being one, so that it
 * can refuse unknown keys without asking accounts: accounts publishes each change on a Redis
 * channel, and keeps the keys made in the last minutes in a sorted set, for an api that looks a
 * key up before the message reached it (or while it was reconnecting).
 */
export interface KeyAnnouncer {
  created(keyHash: string): Promise<void>;
  revoked(keyHash: string): Promise<void>;
}

/** What a process keeps of a key: the first 16 bytes of its SHA-256, in hex. */
export const FINGERPRINT_HEX_LENGTH = 32;

export function fingerprintHexOf(keyHash: string): string {
  return keyHash.slice(0, FINGERPRINT_HEX_LENGTH);
}

/** The keys of a deployment's announcements, under its Redis prefix. */
export function keyAnnouncementKeys(redisKeyPrefix: string): { channel: string; recent: string } {
  return { channel: `${redisKeyPrefix}api-keys:changes`, recent: `${redisKeyPrefix}api-keys:recent` };
}

/** Keys made this recently are found in the sorted set; every api has reloaded the whole list since. */
export const RECENT_KEYS_MS = 10 * 60_000;

/** Accounts' side: one round trip per change. A change it could not announce (Redis down) reaches the apis at their next full load. */
export class RedisKeyAnnouncer implements KeyAnnouncer {
  private readonly keys: { channel: string; recent: string };

  constructor(
    private readonly redis: RedisClient,
    redisKeyPrefix: string,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.keys = keyAnnouncementKeys(redisKeyPrefix);
  }

  async created(keyHash: string): Promise<void> {
    const fingerprint = fingerprintHexOf(keyHash);
    const now = this.clock();
    await this.send((redis) =>
      redis.multi().zAdd(this.keys.recent, { score: now, value: fingerprint }).zRemRangeByScore(this.keys.recent, '-inf', now - RECENT_KEYS_MS).publish(this.keys.channel, `+${fingerprint}`).exec(),
    );
  }

  async revoked(keyHash: string): Promise<void> {
    const fingerprint = fingerprintHexOf(keyHash);
    await this.send((redis) => redis.multi().zRem(this.keys.recent, fingerprint).publish(this.keys.channel, `-${fingerprint}`).exec());
  }

  private async send(write: (redis: RedisClient) => Promise<unknown>): Promise<void> {
    try {
      await callRedis(() => write(this.redis));
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'a key change was not announced; the apis see it at their next full load');
    }
  }
}
