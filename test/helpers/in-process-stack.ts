import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { createDb } from '@comps/shared/db/create-db';
import { accountsQuotaLedger, createAccountsClient, workspacePlans, type AccountsClient } from '@comps/shared/internal/accounts/accounts-client';
import { HistoryWriter } from '@comps/shared/internal/accounts/history-writer';
import { createJobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { RedisKeyAnnouncer } from '@comps/shared/internal/accounts/key-announcements';
import { createLogger } from '@comps/shared/logging/create-logger';
import { LayoutWatch } from '@comps/shared/market/layout-watch';
import { createMetering } from '@comps/shared/metering/create-metering';
import { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { TaskTracker } from '@comps/shared/runtime/task-tracker';
import { loadNativeHelper, pageReadingOf, type NativeHelper } from '@comps/shared/runtime/native-helper';
import { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { listen, type RunningServer } from '@comps/shared/runtime/http-server';
import { createInternalApp as createAccountsInternalApp } from '../../services/accounts/src/http/internal-app.js';
import type { AccountsDatabase } from '../../services/accounts/src/db/database.js';
import { createLedgerContext } from '../../services/accounts/src/ledger/ledger-context.js';
import { createWebhookContext } from '../../services/accounts/src/webhooks/webhook-context.js';
import { createApiService, type ApiOverrides } from '../../services/api/src/api-service.js';
import { loadApiConfig } from '../../services/api/src/config.js';
import { loadJobsConfig } from '../../services/jobs/src/config.js';
import type { JobsDatabase } from '../../services/jobs/src/db/database.js';
import { createInternalApp as createJobsInternalApp } from '../../services/jobs/src/http/internal-app.js';
import { ActiveJobLock } from '../../services/jobs/src/jobs/active-job-lock.js';
import { loadSimConfig } from '../../services/market-sim/src/config.js';
import { createSimApp } from '../../services/market-sim/src/http/create-app.js';
import { eventually } from './http-client.js';
import { prepareTestDatabase, TEST_DATABASE_URL, TEST_REDIS_URL } from './test-env.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** One api process in the test's own process, on the shared services below. */
export interface InProcessApi {
  baseUrl: string;
  /** Requests still running are abandoned, as at the end of a shutdown's drain. */
  abandonRequests(): void;
}

export interface InProcessStack {
  internalToken: string;
  accountsInternalUrl: string;
  /** The jobs service's internal port (its procedures, as accounts and the api call them). */
  jobsInternalUrl: string;
  /** The accounts service's procedures, as the other services call them. */
  accounts: AccountsClient;
  simulatorUrl: string;
  redisKeyPrefix: string;
  /** Another simulator, with knobs of its own (`MARKET_SIM_ERROR_RATE`, `MARKET_SIM_LATENCY_MS`, …); its address. */
  startSimulator(env: Record<string, string>): Promise<string>;
  /**
   * An api on these services, with its own environment (a closed gate, other capacity) and
   * collaborators; `native`, the native helper it is given (by default the one built here, loaded).
   */
  startApi(options?: { env?: Record<string, string>; overrides?: ApiOverrides; native?: NativeHelper }): Promise<InProcessApi>;
}

/**
 * The in-process tier: the simulator, accounts' and jobs' internal APIs and any number of apis as
 * Koa apps in the test's own process, on the file's own database and real Redis (under a prefix of
 * its own). Starts in well under a second: no child process, no Caddy, no build. Jobs are created
 * and read here, not run (no worker).
 */
export async function startInProcessStack(t: Teardown): Promise<InProcessStack> {
  await prepareTestDatabase();
  const logger = createLogger('in-process', 'silent');
  const internalToken = randomBytes(32).toString('base64url');
  const redisKeyPrefix = `test:in-process:${randomBytes(4).toString('hex')}:`;
  const servers: RunningServer[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  t.teardown(async () => {
    for (const server of servers.reverse()) await server.close(100);
    for (const close of closers.reverse()) await close();
  });
  const serve = async (app: { callback(): Parameters<typeof listen>[0] }, allowedMethods?: Parameters<typeof listen>[3]) => {
    const server = await listen(app.callback(), 0, '127.0.0.1', allowedMethods);
    servers.push(server);
    return `http://127.0.0.1:${server.port}`;
  };

  const simulatorUrl = await serve(createSimApp(loadSimConfig({ MARKET_SIM_PAGE_STYLE: 'lean' }), logger));

  const accountsDb = createDb<AccountsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 10, isolation: 'read committed' });
  closers.push(() => accountsDb.destroy());
  const redis = createRedisClient({ url: TEST_REDIS_URL }, logger);
  const redisConnected = connectInBackground(redis, logger);
  closers.push(() => closeRedis(redis, redisConnected));
  const keys = new RedisKeyAnnouncer(redis, redisKeyPrefix, logger);
  const webhooks = createWebhookContext(accountsDb, { secretKey: randomBytes(32).toString('base64'), policy: { allowHttp: false, allowedHosts: [] } });
  const accountsInternalUrl = await serve(createAccountsInternalApp({ db: accountsDb, ledger: createLedgerContext(accountsDb, 300_000), keys, logger, internalToken, webhooks }));
  const agent = new Agent();
  closers.push(() => agent.close());
  const accounts = createAccountsClient({ url: accountsInternalUrl, internalToken, timeoutMs: 5000, dispatcher: agent });

  const jobsDb = createDb<JobsDatabase>({ url: TEST_DATABASE_URL, connectionLimit: 5, isolation: 'read committed' });
  closers.push(() => jobsDb.destroy());
  // The jobs service's own metered calls (the dashboard's Explore searches), on this simulator.
  const jobsConfig = loadJobsConfig({
    DATABASE_URL: TEST_DATABASE_URL,
    INTERNAL_TOKEN: internalToken,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    ACCOUNTS_URL: accountsInternalUrl,
    MARKET_SIM_URL: simulatorUrl,
    UPSTREAM_CALLS_PER_SECOND: '1000',
    UPSTREAM_MAX_IN_FLIGHT: '200',
  });
  const jobsHistory = new HistoryWriter(accounts, logger, jobsConfig.metering.historyFlushIntervalMs);
  const jobsMetering = createMetering(jobsConfig.metering, redis, accountsQuotaLedger(accounts), jobsHistory, logger, pageReadingOf(loadNativeHelper(), { joinForThreads: false }));
  const exploreCharges = new TaskTracker(() => undefined);
  closers.push(async () => {
    await exploreCharges.drain();
    await jobsMetering.close();
    await jobsHistory.close();
  });
  const jobsUrl = await serve(
    createJobsInternalApp({
      jobs: { db: jobsDb, accounts, lock: new ActiveJobLock(redis, redisKeyPrefix), wake: () => undefined, stopWaiting: () => undefined, now: () => new Date(), compsCache: new ExpiringMap(60_000, 50) },
      // No worker runs here: a tracked search's runs stay running (the stack tier runs them).
      deliveries: { db: jobsDb, now: () => new Date(), wake: () => undefined },
      tracked: { db: jobsDb, now: () => new Date(), random: Math.random, wake: () => undefined, statsCache: new ExpiringMap(60_000, 100), refusalFor: (call) => jobsMetering.meter.refusalFor(call) },
      explore: { meter: jobsMetering.meter, planOf: workspacePlans(accounts), rateLimiter: new FixedWindowLimiter(redis, `${redisKeyPrefix}rate:`), charges: exploreCharges },
      redis,
      logger,
      internalToken,
      layoutWatch: new LayoutWatch(logger),
      memory: () => process.memoryUsage(),
      idleCollections: () => null,
      parseThreads: () => jobsMetering.parseThreads?.figures() ?? null,
    }),
  );

  return {
    internalToken,
    accountsInternalUrl,
    jobsInternalUrl: jobsUrl,
    accounts,
    simulatorUrl,
    redisKeyPrefix,
    startSimulator: (env) => serve(createSimApp(loadSimConfig({ MARKET_SIM_PAGE_STYLE: 'lean', ...env }), logger)),
    async startApi(options = {}) {
      const config = loadApiConfig({
        INTERNAL_TOKEN: internalToken,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: redisKeyPrefix,
        ACCOUNTS_URL: accountsInternalUrl,
        JOBS_URL: jobsUrl,
        MARKET_SIM_URL: simulatorUrl,
        UPSTREAM_CALLS_PER_SECOND: '1000',
        UPSTREAM_MAX_IN_FLIGHT: '200',
        LOG_LEVEL: 'silent',
        // No idle collection in the test process: its requests are not counted as work here anyway.
        API_IDLE_GC_MS: '0',
        // Pages read on the test's thread: a parse thread's start costs about 15 pages' reads, and the threads have
        // tests of their own (test/market/parse-threads.test.ts); the stack tests run the api as it ships.
        API_PARSE_THREADS: '0',
        ...options.env,
      });
      const service = createApiService(config, logger, options.native ?? loadNativeHelper(), { jobs: createJobsClient({ url: jobsUrl, internalToken, timeoutMs: 5000, dispatcher: agent }), ...options.overrides });
      closers.push(() => service.close());
      // Ready as the launcher waits for it: the keys loaded (unless the api cannot reach its dependencies at all).
      if (!options.env?.REDIS_URL) await eventually('the api loaded the keys', async () => (service.keysLoaded() ? true : undefined));
      return { baseUrl: await serve(service.app, service.allowedMethods), abandonRequests: () => service.abandonRequests() };
    },
  };
}
