import { Agent } from 'undici';
import { accountsQuotaLedger, createAccountsClient, workspaceConcurrency } from '@comps/shared/internal/accounts/accounts-client';
import { HistoryWriter } from '@comps/shared/internal/accounts/history-writer';
import { createDb } from '@comps/shared/db/create-db';
import { migrateToLatest } from '@comps/shared/db/migrate';
import { createLogger } from '@comps/shared/logging/create-logger';
import { createMetering } from '@comps/shared/metering/create-metering';
import { closeRedis, connectInBackground, createRedisClient } from '@comps/shared/redis/create-redis';
import { listen } from '@comps/shared/runtime/http-server';
import { exitOnBootFailure, onShutdown } from '@comps/shared/runtime/on-shutdown';
import { startPeriodicTask } from '@comps/shared/runtime/periodic-task';
import { TaskTracker } from '@comps/shared/runtime/task-tracker';
import { loadJobsConfig } from './config.js';
import type { JobsDatabase } from './db/database.js';
import { JOBS_MIGRATIONS } from './db/jobs-migrations.js';
import { createInternalApp } from './http/internal-app.js';
import { ActiveJobLock } from './jobs/active-job-lock.js';
import { createJobWakeup } from './jobs/job-wakeup.js';
import type { JobServiceDeps } from './jobs/job-service.js';
import { purgeExpiredJobs } from './jobs/purge-expired-jobs.js';
import { JobWorker } from './worker/job-worker.js';

/** Pages in flight at shutdown get this long to finish (and be charged) before they are put back. */
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
  const metering = createMetering(shared, redis, accountsQuotaLedger(accounts), history, logger);

  const worker = new JobWorker(
    { db, meter: metering.meter, concurrencyOf: workspaceConcurrency(accounts), logger, now },
    config.worker,
  );
  const background = new TaskTracker((error) => logger.warn({ err: String(error) }, 'job wake-up not published; other processes see the job at their next poll'));
  const wakeup = createJobWakeup(redis, shared.redisUrl, `${shared.redisKeyPrefix}jobs:wake`, () => worker.wake(), logger);
  const jobs: JobServiceDeps = {
    db,
    accounts,
    lock: new ActiveJobLock(redis, shared.redisKeyPrefix),
    wake: () => {
      worker.wake();
      background.track(wakeup.publish());
    },
    stopWaiting: (jobId) => worker.stopWaiting(jobId),
    now,
  };
  worker.start();
  const purger = startPeriodicTask(
    'purge-expired-jobs',
    config.purgeIntervalMs,
    async () => {
      const deleted = await purgeExpiredJobs(db, now());
      if (deleted > 0) logger.info({ deleted }, 'deleted jobs past retention');
    },
    logger,
  );
  const internal = await listen(createInternalApp({ jobs, redis, logger, internalToken: shared.internalToken }).callback(), config.internalPort, config.bindHost);

  onShutdown(logger, [
    { name: 'internal server', run: () => internal.close() },
    { name: 'worker', run: () => worker.stop(PAGE_GRACE_MS) },
    { name: 'purge', run: () => purger.stop() },
    { name: 'metering', run: () => metering.close() },
    { name: 'request history', run: () => history.close() },
    { name: 'wake-up', run: async () => {
      await background.drain();
      await wakeup.close();
    } },
    { name: 'accounts client', run: () => accountsAgent.close() },
    { name: 'database', run: () => db.destroy() },
    { name: 'redis', run: () => closeRedis(redis, redisConnected) },
  ]);
  logger.info({ internalPort: internal.port, worker: worker.owner }, 'jobs listening');
}

main().catch(exitOnBootFailure('jobs'));
