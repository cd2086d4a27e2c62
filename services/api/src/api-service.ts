import { setMaxListeners } from 'node:events';
import type Koa from 'koa';
import { Agent } from 'undici';
import { AppError } from '@comps/shared/errors/app-error';
import { accountsQuotaLedger, createAccountsClient, type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { HistoryWriter } from '@comps/shared/internal/accounts/history-writer';
import { createJobsClient, type JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import type { Logger } from '@comps/shared/logging/create-logger';
import { createMetering } from '@comps/shared/metering/create-metering';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import type { AllowedMethods } from '@comps/shared/runtime/client-error';
import { idleCollection } from '@comps/shared/runtime/idle-collection';
import { pageReadingOf, type NativeHelper } from '@comps/shared/runtime/native-helper';
import type { IdleCollector } from '@comps/shared/runtime/idle-collector';
import { Authenticator } from './auth/authenticate.js';
import { FailedAuthThrottle } from './auth/failed-auth-throttle.js';
import { KeyDirectory } from './auth/key-directory.js';
import { PrincipalCache } from './auth/principal-cache.js';
import type { ApiConfig } from './config.js';
import { createApp } from './http/create-app.js';
import { createInternalApp } from './http/create-internal-app.js';
import { HistoryAwaitingCaller } from './history/history-awaiting-caller.js';
import { IdempotencyStore } from './idempotency/idempotency-store.js';
import { buildCapabilities } from './routes/service/get-capabilities.js';

/** Collaborators a test may put in place of the real ones (the clients of the other services). */
export interface ApiOverrides {
  accounts?: AccountsClient;
  jobs?: JobsClient;
  bulkKeepAliveMs?: number;
}

export interface ApiService {
  /** The public API (Caddy forwards to it). */
  app: Koa;
  /** The methods each path is served with (for what Node answers before the app). */
  allowedMethods: AllowedMethods;
  /** Health checks and metrics on the internal port. */
  internalApp: Koa;
  /** The idle collection (`API_IDLE_GC_MS`): the public server counts its requests as its work; null when off. */
  idleCollector: IdleCollector | null;
  /** Whether the first load of the API keys is done (readiness). */
  keysLoaded(): boolean;
  /** Requests still running are abandoned with a 503 (charged nothing). */
  abandonRequests(): void;
  /** After the servers closed: settles what this process holds, flushes history, closes its clients. */
  close(): Promise<void>;
}

/**
 * The api's parts, wired as its main runs them; tests build the same with their own clients. `native`
 * is the process's native helper (its main loads it once): pages are read into text by it, and the
 * idle collection is its.
 */
export function createApiService(config: ApiConfig, logger: Logger, native: NativeHelper, overrides: ApiOverrides = {}): ApiService {
  const { metering: shared } = config;
  const redis = createRedisClient({ url: shared.redisUrl }, logger);
  const redisConnected = connectInBackground(redis, logger);
  // One keep-alive pool for the internal calls (accounts and jobs).
  const internalAgent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  const internal = { internalToken: shared.internalToken, timeoutMs: shared.internalCallTimeoutMs, dispatcher: internalAgent };
  const accounts = overrides.accounts ?? createAccountsClient({ url: shared.accountsUrl, ...internal });
  const jobsHttp = { url: config.jobsUrl, ...internal };
  const history = new HistoryWriter(accounts, logger, shared.historyFlushIntervalMs);
  const historyAwaitingCaller = new HistoryAwaitingCaller(accounts, history, logger, shared.historyFlushIntervalMs);
  // A bulk search's pages arrive together and its one parse thread reads them one after another: the call waits
  // for that thread, not for this one (bench:bulk at concurrency 20: 1.39 against 1.47 times the ideal).
  const pageReading = pageReadingOf(native, { joinForThreads: true });
  const metering = createMetering(shared, redis, accountsQuotaLedger(accounts), history, logger, pageReading);
  const prefix = shared.redisKeyPrefix;
  const stopping = new AbortController();
  // Every request in flight listens to it: as many listeners as requests, by design.
  setMaxListeners(0, stopping.signal);
  const rateLimiter = new FixedWindowLimiter(redis, `${prefix}rate:`);
  // The subscriber needs a connection of its own (one in subscriber mode answers nothing else).
  const subscriber = createRedisClient({ url: shared.redisUrl }, logger);
  const subscriberConnected = connectInBackground(subscriber, logger);
  const idleCollector = idleCollection(config.idleGcMs, logger, native, metering.parseThreads);
  const directory = new KeyDirectory({ accounts, redis, subscriber, redisKeyPrefix: prefix, logger });
  directory.start();

  const { app, allowedMethods } = createApp({
    logger,
    authenticator: new Authenticator(
      accounts,
      directory,
      new PrincipalCache(config.authCacheTtlMs),
      new FailedAuthThrottle(new FixedWindowLimiter(redis, `${prefix}auth-failures:`), config.authFailuresPerMinute),
    ),
    rateLimiter,
    meter: metering.meter,
    history,
    historyAwaitingCaller,
    stopping: stopping.signal,
    accounts,
    settlements: metering.settlements,
    allowances: metering.allowances,
    idempotency: new IdempotencyStore(redis, { keyPrefix: `${prefix}idempotency:`, lockMs: config.idempotencyLockMs, retentionMs: 24 * 3_600_000 }),
    capabilities: buildCapabilities(shared),
    jobs: overrides.jobs ?? createJobsClient(jobsHttp),
    jobsHttp,
    ...(overrides.bulkKeepAliveMs ? { bulkKeepAliveMs: overrides.bulkKeepAliveMs } : {}),
    parseThreads: metering.parseThreads,
  });

  return {
    app,
    allowedMethods,
    internalApp: createInternalApp({ redis, accounts, directory, layoutWatch: metering.layoutWatch, memory: () => process.memoryUsage(), idleCollections: () => idleCollector?.totals() ?? null, parseThreads: () => metering.parseThreads?.figures() ?? null }),
    idleCollector,
    keysLoaded: () => directory.loaded,
    abandonRequests: () => stopping.abort(new AppError('service_unavailable', 'The service is restarting; retry shortly', { retryAfter: 1 })),
    async close() {
      idleCollector?.close();
      await directory.close();
      await closeRedis(subscriber, subscriberConnected);
      await metering.close();
      await historyAwaitingCaller.close();
      await history.close();
      await internalAgent.close();
      await closeRedis(redis, redisConnected);
    },
  };
}
