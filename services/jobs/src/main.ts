import { Agent } from 'undici';
import { accountsQuotaLedger, createAccountsClient, workspaceConcurrency, workspacePlans } from '@comps/shared/internal/accounts/accounts-client';
import { HistoryWriter } from '@comps/shared/internal/accounts/history-writer';
import { createDb } from '@comps/shared/db/create-db';
import { migrateToLatest } from '@comps/shared/db/migrate';
import { createLogger } from '@comps/shared/logging/create-logger';
import { createMetering } from '@comps/shared/metering/create-metering';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { FixedWindowLimiter } from '@comps/shared/redis/fixed-window-limiter';
import { listen } from '@comps/shared/runtime/http-server';
import { idleCollection } from '@comps/shared/runtime/idle-collection';
import { loadServiceNativeHelper, pageReadingOf } from '@comps/shared/runtime/native-helper';
import { countedAsWork } from '@comps/shared/runtime/idle-collector';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { TaskTracker } from '@comps/shared/runtime/task-tracker';
import { WEBHOOK_LIMITS } from '@comps/shared/contract/webhook';
import { systemResolver } from '@comps/shared/webhooks/address-policy';
import { PinnedAgents } from '@comps/shared/webhooks/pinned-agent';
import { ExpiringMap } from '@comps/shared/runtime/expiring-map';
import { loadJobsConfig } from './config.js';
import type { JobsDatabase } from './db/database.js';
import { JOBS_MIGRATIONS } from './db/jobs-migrations.js';
import { createInternalApp } from './http/internal-app.js';
import { ActiveJobLock } from './jobs/active-job-lock.js';
import { createJobWakeup } from './jobs/job-wakeup.js';
import type { ExploreDeps } from './explore/explore-service.js';
import type { JobServiceDeps } from './jobs/job-service.js';
import { periodicTasks } from './periodic-tasks.js';
import { TaskRunner } from './tasks/task-runner.js';
import { archiveDeletionHandler } from './tracked/purge-archive.js';
import { RunHandler } from './tracked/run-handler.js';
import type { TrackedSearchDeps } from './tracked/tracked-search-service.js';
import { DeliveryHandler } from './webhooks/delivery-handler.js';
import type { DeliveryServiceDeps } from './webhooks/delivery-service.js';
import { ScrapeJobHandler } from './worker/scrape-job-handler.js';

/** Work in flight at shutdown (pages) gets this long to finish (and be charged) before it is put back. */
const PAGE_GRACE_MS = 4000;

async function main(): Promise<void> {
  const config = loadJobsConfig(process.env);
  const { metering: shared } = config;
  const logger = createLogger('jobs', config.logLevel);
  const now = () => new Date();
  // The jobs service owns its tables; every process brings them up to date (Kysely's migrator locks).
  await migrateToLatest(config.databaseUrl, JOBS_MIGRATIONS);
  const db = createDb<JobsDatabase>({ url: config.databaseUrl, connectionLimit: 10, isolation: 'read committed' });
  const redis = createRedisClient({ url: shared.redisUrl }, logger);
  const redisConnected = connectInBackground(redis, logger);
  const accountsAgent = new Agent({ connections: 32, keepAliveTimeout: 30_000 });
  const accounts = createAccountsClient({ url: shared.accountsUrl, internalToken: shared.internalToken, timeoutMs: shared.internalCallTimeoutMs, dispatcher: accountsAgent });
  const history = new HistoryWriter(accounts, logger, shared.historyFlushIntervalMs);
  const ledger = accountsQuotaLedger(accounts);
  const native = loadServiceNativeHelper(logger);
  // A job waits for this thread (its pages' statements), which joining every page would take from: its parse
  // thread joins them. bench:jobs, runs in turns with the code before either: joined here 16.9 and 18.8 pages a
  // second against 19.7 and 19.4; joined in the thread 18.7 and 17.9 against 18.4 and 16.3.
  const pageReading = pageReadingOf(native, { joinForThreads: false });
  const metering = createMetering(shared, redis, ledger, history, logger, pageReading);

  const collector = idleCollection(config.idleGcMs, logger, native, metering.parseThreads);
  const runner = new TaskRunner({ db, logger, now, random: Math.random, ...(collector ? { work: collector } : {}) }, config.runner);
  const scrapeJobs = new ScrapeJobHandler({ db, meter: metering.meter, concurrencyOf: workspaceConcurrency(accounts), logger, now, random: Math.random }, config.scrapeJobs);
  runner.handle(scrapeJobs);
  const rateLimiter = new FixedWindowLimiter(redis, `${shared.redisKeyPrefix}rate:`);
  const planOf = workspacePlans(accounts);
  runner.handle(new RunHandler({ db, meter: metering.meter, planOf, rateLimiter, logger, now, random: Math.random }, config.scrapeJobs.retry));
  runner.handle(archiveDeletionHandler(db));
  const background = new TaskTracker((error) => logger.warn({ err: String(error) }, 'job wake-up not published; other processes see the job at their next poll'));
  const wakeup = createJobWakeup(redis, shared.redisUrl, `${shared.redisKeyPrefix}jobs:wake`, () => runner.wake(), logger);
  const jobs: JobServiceDeps = {
    db,
    accounts,
    lock: new ActiveJobLock(redis, shared.redisKeyPrefix),
    wake: () => {
      runner.wake();
      background.track(wakeup.publish());
    },
    stopWaiting: (jobId) => scrapeJobs.stopWaiting(jobId),
    now,
    // A minute, for a few dozen jobs: results polled while a job runs, then read again once it ended.
    compsCache: new ExpiringMap(60_000, 50),
  };
  const tracked: TrackedSearchDeps = { db, now, random: Math.random, wake: jobs.wake, statsCache: new ExpiringMap(60_000, 100), refusalFor: (call) => metering.meter.refusalFor(call) };
  const webhookAgents = new PinnedAgents({ connectTimeoutMs: WEBHOOK_LIMITS.timeoutMs });
  runner.handle(new DeliveryHandler({ db, accounts, policy: config.webhookPolicy, resolve: systemResolver, agents: webhookAgents, retryDelaysMs: config.webhookRetryDelaysMs, logger, now, random: Math.random }, config.webhookAttemptsInFlight));
  const deliveries: DeliveryServiceDeps = { db, now, wake: jobs.wake };
  const charges = new TaskTracker((error) => logger.error({ err: error }, 'an Explore search failed after its answer was handed back'));
  const explore: ExploreDeps = { meter: metering.meter, planOf, rateLimiter, charges };
  for (const task of periodicTasks(
    { db, accounts, ledger, pendingChargeGraceMs: shared.settlement.claimIdleMs, logger, random: Math.random, archiveRetentionDays: config.archiveRetentionDays, wake: jobs.wake, now },
    config.intervals,
  )) runner.every(task);
  await runner.start();
  const handler = createInternalApp({ jobs, tracked, deliveries, explore, redis, logger, internalToken: shared.internalToken, layoutWatch: metering.layoutWatch, memory: () => process.memoryUsage(), idleCollections: () => collector?.totals() ?? null, parseThreads: () => metering.parseThreads?.figures() ?? null }).callback();
  // Its requests are work too: results read and CSVs streamed from the job's pages, Explore searches.
  const internal = await listen(collector ? countedAsWork(handler, collector) : handler, config.internalPort, config.bindHost);

  onShutdown(logger, [
    {
      name: 'internal server',
      run: () => {
        collector?.close();
        return internal.close();
      },
    },
    { name: 'task runner', run: () => runner.stop(PAGE_GRACE_MS) },
    { name: 'explore charges', run: () => charges.drain() },
    { name: 'metering', run: () => metering.close() },
    { name: 'webhook connections', run: () => webhookAgents.close() },
    { name: 'request history', run: () => history.close() },
    { name: 'wake-up', run: async () => {
      await background.drain();
      await wakeup.close();
    } },
    { name: 'accounts client', run: () => accountsAgent.close() },
    { name: 'database', run: () => db.destroy() },
    { name: 'redis', run: () => closeRedis(redis, redisConnected) },
  ]);
  logger.info({ internalPort: internal.port, owner: runner.owner }, 'jobs listening');
}

main().catch(exitOnBootFailure('jobs'));
