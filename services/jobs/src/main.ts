import { createDb } from '@comps/shared/db/create-db';
import { createLogger } from '@comps/shared/logging/create-logger';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { listen } from '@comps/shared/runtime/http-server';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { loadJobsConfig } from './config.js';
import { createInternalApp } from './http/create-internal-app.js';

async function main(): Promise<void> {
  const config = loadJobsConfig(process.env);
  const logger = createLogger('jobs', config.logLevel);
  const db = createDb({ url: config.databaseUrl, connectionLimit: 5 });
  const redis = createRedisClient({ url: config.redisUrl }, logger);
  const redisConnected = connectInBackground(redis, logger);
  const internal = await listen(createInternalApp(db, redis).callback(), config.internalPort, config.bindHost);

  onShutdown(logger, [
    { name: 'internal server', run: () => internal.close() },
    { name: 'database', run: () => db.destroy() },
    { name: 'redis', run: () => closeRedis(redis, redisConnected) },
  ]);
  logger.info({ internalPort: internal.port }, 'jobs listening');
}

main().catch(exitOnBootFailure('jobs'));
