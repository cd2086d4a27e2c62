import type { Logger } from '@comps/shared/logging/create-logger';
import { closeRedis, connectInBackground, createRedisClient, type RedisClient } from '@comps/shared/redis/create-redis';
import { callRedis } from '@comps/shared/redis/redis-errors';

/**
 * Tells every jobs process that a job is waiting (Redis pub/sub), so a new job starts at once
 * rather than at the next poll; the poll stays as the fallback when a message is lost.
 */
export function createJobWakeup(redis: RedisClient, redisUrl: string, channel: string, onWake: () => void, logger: Logger) {
  const subscriber = createRedisClient({ url: redisUrl }, logger);
  const connected = connectInBackground(subscriber, logger).then(() => subscriber.subscribe(channel, onWake)).catch((error: unknown) =>
    logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'job wake-up subscription failed; jobs start at the next poll'),
  );
  return {
    async publish(): Promise<void> {
      await callRedis(() => redis.publish(channel, '1'));
    },
    async close(): Promise<void> {
      await connected;
      await closeRedis(subscriber, Promise.resolve());
    },
  };
}
