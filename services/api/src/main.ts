import { createLogger } from '@comps/shared/logging/create-logger';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { listen } from '@comps/shared/runtime/http-server';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { createAccountsClient } from './accounts/accounts-client.js';
import { PrincipalCache } from './auth/principal-cache.js';
import { loadApiConfig } from './config.js';
import { HistoryWriter } from './history/history-writer.js';
import { createApp } from './http/create-app.js';
import { createInternalApp } from './http/create-internal-app.js';
import { buildCapabilities } from './routes/capabilities-routes.js';

async function main(): Promise<void> {
  const config = loadApiConfig(process.env);
  const logger = createLogger('api', config.logLevel);
  const redis = createRedisClient({ url: config.redisUrl }, logger);
  const redisConnected = connectInBackground(redis, logger);
  const accounts = createAccountsClient({
    url: config.accountsUrl,
    internalToken: config.internalToken,
    timeoutMs: config.internalCallTimeoutMs,
  });
  const history = new HistoryWriter(accounts, logger, config.historyFlushIntervalMs);

  const app = createApp({
    logger,
    accounts,
    principals: new PrincipalCache(config.authCacheTtlMs),
    rateLimiter: new FixedWindowLimiter(redis, `${config.redisKeyPrefix}rate:`),
    history,
    capabilities: buildCapabilities(config),
  });
  const publicServer = await listen(app.callback(), config.port, config.bindHost);
  const internal = await listen(createInternalApp(redis, config.accountsUrl).callback(), config.internalPort, config.bindHost);

  onShutdown(logger, [
    { name: 'public server', run: () => publicServer.close() },
    { name: 'internal server', run: () => internal.close() },
    { name: 'request history', run: () => history.close() },
    { name: 'redis', run: () => closeRedis(redis, redisConnected) },
  ]);
  logger.info({ port: publicServer.port, internalPort: internal.port }, 'api listening');
}

main().catch(exitOnBootFailure('api'));
