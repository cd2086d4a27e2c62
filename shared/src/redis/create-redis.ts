import { createClient } from '@redis/client';
import type { Logger } from '../logging/create-logger.js';

export type RedisClient = ReturnType<typeof createRedisClient>;

export interface RedisOptions {
  url: string;
  /** Milliseconds a command may wait in the client's queue before it is written (see callRedis for the whole call). */
  commandTimeoutMs?: number;
}

/**
 * Commands waiting for a Redis that stopped answering are held in the client's queue; past this many
 * new ones fail at once instead of growing the process's memory without bound.
 */
const MAX_QUEUED_COMMANDS = 10_000;

/**
 * A client that fails commands at once while disconnected (no offline queue) and keeps
 * reconnecting in the background, so an outage answers 503 and recovery needs no restart.
 */
export function createRedisClient({ url, commandTimeoutMs = 1000 }: RedisOptions, logger: Logger) {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
    commandOptions: { timeout: commandTimeoutMs },
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 4), 1000),
    },
  });
  let lastErrorLog = 0;
  client.on('error', (error: Error) => {
    // One line per second at most while Redis is down.
    const now = Date.now();
    if (now - lastErrorLog > 1000) {
      lastErrorLog = now;
      logger.warn({ err: error.message }, 'redis connection error');
    }
  });
  return client;
}

/** Starts connecting without waiting: the service boots and reports unready until Redis answers. */
export function connectInBackground(client: RedisClient, logger: Logger): Promise<void> {
  return client.connect().then(
    () => undefined,
    (error: unknown) => {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, 'redis connect failed');
    },
  );
}

/**
 * Closes the client, also while it is still trying to connect (Redis down since boot): destroying
 * then ends the attempts and settles the background connect, so a stop never waits for Redis.
 */
export async function closeRedis(client: RedisClient, connected: Promise<void>): Promise<void> {
  if (client.isOpen) client.destroy();
  await connected;
}
