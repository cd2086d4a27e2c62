import { createLogger } from '@comps/shared/logging/create-logger';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { LeaseSemaphore } from '@comps/shared/redis/lease-semaphore';
import { MarketClient } from '@comps/shared/market/market-client';
import { listen } from '@comps/shared/runtime/http-server';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { createAccountsClient } from './accounts/accounts-client.js';
import { PrincipalCache } from './auth/principal-cache.js';
import { loadApiConfig } from './config.js';
import { SettlementOutbox } from './billing/settlement-outbox.js';
import { HistoryWriter } from './history/history-writer.js';
import { IdempotencyStore } from './idempotency/idempotency-store.js';
import { UpstreamCapacity } from './limits/upstream-capacity.js';
import { WorkspaceConcurrency } from './limits/workspace-concurrency.js';
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
  const market = new MarketClient(config.market);
  const leases = new LeaseSemaphore(redis, config.leaseMs);
  const prefix = config.redisKeyPrefix;
  // Blocking stream reads need a connection of their own.
  const settlementReader = createRedisClient({ url: config.redisUrl, commandTimeoutMs: 5000 }, logger);
  const settlementReaderConnected = connectInBackground(settlementReader, logger);
  const settlements = new SettlementOutbox(redis, settlementReader, accounts, logger, { key: `${prefix}settlements`, claimIdleMs: config.settlementClaimIdleMs });
  settlements.start();

  const app = createApp({
    logger,
    accounts,
    principals: new PrincipalCache(config.authCacheTtlMs),
    rateLimiter: new FixedWindowLimiter(redis, `${prefix}rate:`),
    history,
    capabilities: buildCapabilities(config),
    market,
    settlements,
    concurrency: new WorkspaceConcurrency(leases, `${prefix}concurrency:`),
    capacity: new UpstreamCapacity(new FixedWindowLimiter(redis, `${prefix}upstream-rate:`), leases, {
      ...config.upstream,
      keyPrefix: `${prefix}upstream:`,
    }),
    idempotency: new IdempotencyStore(redis, {
      keyPrefix: `${prefix}idempotency:`,
      lockMs: config.leaseMs,
      retentionMs: 24 * 3_600_000,
    }),
    dataGate: config.dataGate,
    enabledSites: config.enabledSites,
  });
  const publicServer = await listen(app.callback(), config.port, config.bindHost);
  const internal = await listen(createInternalApp(redis, config.accountsUrl).callback(), config.internalPort, config.bindHost);

  onShutdown(logger, [
    { name: 'public server', run: () => publicServer.close() },
    { name: 'internal server', run: () => internal.close() },
    { name: 'settlements', run: () => settlements.close() },
    { name: 'request history', run: () => history.close() },
    { name: 'marketplace client', run: () => market.close() },
    { name: 'redis', run: async () => void (await Promise.all([closeRedis(redis, redisConnected), closeRedis(settlementReader, settlementReaderConnected)])) },
  ]);
  logger.info({ port: publicServer.port, internalPort: internal.port }, 'api listening');
}

main().catch(exitOnBootFailure('api'));
