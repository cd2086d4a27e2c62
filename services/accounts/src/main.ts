import { createDb } from '@comps/shared/db/create-db';
import { migrateToLatest } from '@comps/shared/db/migrate';
import { createLogger } from '@comps/shared/logging/create-logger';
import { RedisKeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { listen } from '@comps/shared/runtime/http-server';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { loadAccountsConfig } from './config.js';
import { ACCOUNTS_MIGRATIONS } from './db/accounts-migrations.js';
import type { AccountsDatabase } from './db/database.js';
import { createInternalApp } from './http/internal-app.js';
import { createPublicApp } from './http/public-app.js';
import { jobsServiceGateway } from './jobs/jobs-service-gateway.js';
import { createLedgerContext } from './ledger/ledger-context.js';
import { AuthThrottle } from './sessions/auth-throttle.js';
import { createAssetStore } from './web/static-assets.js';
import { createWebhookContext } from './webhooks/webhook-context.js';

async function main(): Promise<void> {
  const config = loadAccountsConfig(process.env);
  const logger = createLogger('accounts', config.logLevel);
  // The accounts service owns its tables; every process brings them up to date (Kysely's migrator locks).
  await migrateToLatest(config.databaseUrl, ACCOUNTS_MIGRATIONS);
  const db = createDb<AccountsDatabase>({ url: config.databaseUrl, connectionLimit: 20, isolation: 'read committed' });
  const ledger = createLedgerContext(db, config.reservationTtlSeconds * 1000);
  // Sign-in and sign-up need Redis (their throttles), and key changes are announced through it;
  // the internal API works without it (an unannounced change reaches the apis at their next full load), so
  // Redis is not a readiness check here: while it is down those two pages answer 503.
  const redis = createRedisClient({ url: config.redisUrl }, logger);
  const redisConnected = connectInBackground(redis, logger);
  const keys = new RedisKeyAnnouncer(redis, config.redisKeyPrefix, logger);
  const webhooks = createWebhookContext(db, { secretKey: config.webhooks.secretKey, policy: config.webhooks.policy });
  const jobs = jobsServiceGateway({ url: config.jobsUrl, internalToken: config.internalToken, timeoutMs: config.internalCallTimeoutMs, exploreTimeoutMs: config.exploreTimeoutMs });

  const internal = await listen(
    createInternalApp({ db, ledger, keys, logger, internalToken: config.internalToken, webhooks }).callback(),
    config.internalPort,
    config.bindHost,
  );
  const publicApp = createPublicApp({
    db,
    keys,
    logger,
    assets: createAssetStore(),
    throttle: new AuthThrottle(redis, `${config.redisKeyPrefix}accounts:`, config.authThrottle),
    jobs,
    webhooks,
    signUpOpen: config.signUpOpen,
    sessions: config.sessions,
    now: () => new Date(),
  });
  const publicServer = await listen(publicApp.callback(), config.publicPort, config.bindHost);

  onShutdown(logger, [
    { name: 'public server', run: () => publicServer.close() },
    { name: 'internal server', run: () => internal.close() },
    { name: 'jobs client', run: () => jobs.close() },
    { name: 'redis', run: () => closeRedis(redis, redisConnected) },
    { name: 'database', run: () => db.destroy() },
  ]);
  logger.info({ publicPort: publicServer.port, internalPort: internal.port }, 'accounts listening');
}

main().catch(exitOnBootFailure('accounts'));
