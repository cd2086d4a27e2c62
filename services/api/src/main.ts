import { setMaxListeners } from 'node:events';
import { accountsQuotaLedger, createAccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { HistoryWriter } from '@comps/shared/internal/accounts/history-writer';
import { createJobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { Agent } from 'undici';
import { AppError } from '@comps/shared/errors/app-error';
import { createLogger } from '@comps/shared/logging/create-logger';
import { createMetering } from '@comps/shared/metering/create-metering';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { listen } from '@comps/shared/runtime/http-server';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { TaskTracker } from '@comps/shared/runtime/task-tracker';
import { Authenticator } from './auth/authenticate.js';
import { FailedAuthThrottle } from './auth/failed-auth-throttle.js';
import { PrincipalCache } from './auth/principal-cache.js';
import { loadApiConfig } from './config.js';
import { createApp } from './http/create-app.js';
import { createInternalApp } from './http/create-internal-app.js';
import { IdempotencyStore } from './idempotency/idempotency-store.js';
import { buildCapabilities } from './routes/capabilities-routes.js';

/**
 * How long requests in flight get to finish at shutdown before they are abandoned (answered 503,
 * charged nothing). Caddy has already let them finish for its grace period when the api is stopped
 * (npm start stops Caddy first), so this is for a stop of the api alone.
 */
const DRAIN_MS = 5000;

async function main(): Promise<void> {
  const config = loadApiConfig(process.env);
  const { metering: shared } = config;
  const logger = createLogger('api', config.logLevel);
  const redis = createRedisClient({ url: shared.redisUrl }, logger);
  const redisConnected = connectInBackground(redis, logger);
  // One keep-alive pool for the internal calls (accounts and jobs).
  const internalAgent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  const accounts = createAccountsClient({ url: shared.accountsUrl, internalToken: shared.internalToken, timeoutMs: shared.internalCallTimeoutMs, dispatcher: internalAgent });
  const jobsHttp = { url: config.jobsUrl, internalToken: shared.internalToken, timeoutMs: shared.internalCallTimeoutMs, dispatcher: internalAgent };
  const history = new HistoryWriter(accounts, logger, shared.historyFlushIntervalMs);
  const metering = createMetering(shared, redis, accountsQuotaLedger(accounts), history, logger);
  const streams = new TaskTracker((error) => logger.warn({ err: String(error) }, 'recording a stream\'s history failed'));
  const prefix = shared.redisKeyPrefix;
  const stopping = new AbortController();
  // Every request in flight listens to it: as many listeners as requests, by design.
  setMaxListeners(0, stopping.signal);

  const app = createApp({
    logger,
    accounts,
    meter: metering.meter,
    settlements: metering.settlements,
    capabilities: buildCapabilities(shared),
    jobs: createJobsClient(jobsHttp),
    jobsHttp,
    idempotency: new IdempotencyStore(redis, { keyPrefix: `${prefix}idempotency:`, lockMs: config.idempotencyLockMs, retentionMs: 24 * 3_600_000 }),
    route: {
      authenticator: new Authenticator(
        accounts,
        new PrincipalCache(config.authCacheTtlMs),
        new FailedAuthThrottle(new FixedWindowLimiter(redis, `${prefix}auth-failures:`), config.authFailuresPerMinute),
      ),
      rateLimiter: new FixedWindowLimiter(redis, `${prefix}rate:`),
      history,
      tasks: streams,
      stopping: stopping.signal,
      logger,
    },
  });
  const publicServer = await listen(app.callback(), config.port, config.bindHost);
  const internal = await listen(createInternalApp(redis, accounts).callback(), config.internalPort, config.bindHost);

  onShutdown(logger, [
    {
      name: 'public server',
      run: async () => {
        // Requests in flight finish; those still running after the drain are abandoned, uncharged.
        const abandon = setTimeout(() => stopping.abort(new AppError('service_unavailable', 'The service is restarting; retry shortly', { retryAfter: 1 })), DRAIN_MS);
        await publicServer.close(DRAIN_MS + 1000);
        clearTimeout(abandon);
      },
    },
    { name: 'internal server', run: () => internal.close() },
    { name: 'metering', run: () => metering.close() },
    { name: 'request history', run: async () => {
      await streams.drain();
      await history.close();
    } },
    { name: 'accounts client', run: () => internalAgent.close() },
    { name: 'redis', run: () => closeRedis(redis, redisConnected) },
  ]);
  logger.info({ port: publicServer.port, internalPort: internal.port }, 'api listening');
}

main().catch(exitOnBootFailure('api'));
