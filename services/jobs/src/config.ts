import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import { bindHostSchema, databaseUrlSchema, envNonNegativeInt, envPort, envPositiveInt, logLevelSchema } from '@comps/shared/config/env-fields';
import { meteringConfigFrom, meteringEnvFields } from '@comps/shared/metering/metering-config';
import { WEBHOOK_LIMITS } from '@comps/shared/contract/webhook';
import { webhookEnvFields, webhookPolicyFrom } from '@comps/shared/webhooks/webhook-config';

const jobsEnvSchema = z
  .object({
    JOBS_INTERNAL_PORT: envPort(4102),
    BIND_HOST: bindHostSchema,
    DATABASE_URL: databaseUrlSchema,
    LOG_LEVEL: logLevelSchema,
    JOBS_CONCURRENCY: envPositiveInt(8),
    JOBS_PAGES_AHEAD: envPositiveInt(4),
    // Result pages read in worker threads; 0 reads them on the main thread (README, "What limits the figures").
    JOBS_PARSE_THREADS: envNonNegativeInt(1).pipe(z.number().max(8, { error: 'must be at most 8' })),
    JOBS_LEASE_MS: envPositiveInt(15_000).pipe(z.number().min(1000, { error: 'must be at least 1000' })),
    JOBS_POLL_MS: envPositiveInt(1000),
    // 0 turns the idle collection off.
    JOBS_IDLE_GC_MS: envNonNegativeInt(10_000).pipe(z.number().max(600_000, { error: 'must be at most 600000 (10 minutes)' })),
    JOBS_PAGE_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
    JOBS_RETRY_BACKOFF_MS: envPositiveInt(1000),
    JOBS_PURGE_INTERVAL_MS: envPositiveInt(60_000),
    TRACKED_SCHEDULER_INTERVAL_MS: envPositiveInt(10_000),
    ARCHIVE_RETENTION_DAYS: envPositiveInt(1095),
    ARCHIVE_PURGE_INTERVAL_MS: envPositiveInt(3_600_000),
    WEBHOOK_DISPATCH_INTERVAL_MS: envPositiveInt(1000),
    WEBHOOK_ATTEMPTS_IN_FLIGHT: envPositiveInt(4),
    // The contract's schedule; tests (and operators who must) shorten it.
    WEBHOOK_RETRY_DELAYS_MS: z
      .string()
      .regex(/^\d+(,\d+)*$/, { error: 'must be comma-separated milliseconds' })
      .default(WEBHOOK_LIMITS.retryDelaysMs.join(','))
      .transform((text) => text.split(',').map(Number)),
    ...webhookEnvFields,
    // Accounts' upkeep, run once across the jobs processes on the task runner (they were accounts' own settings).
    QUOTA_SWEEP_INTERVAL_MS: envPositiveInt(10_000),
    HISTORY_PURGE_INTERVAL_MS: envPositiveInt(3_600_000),
    ...meteringEnvFields,
  })
  .transform((env) => ({
    internalPort: env.JOBS_INTERNAL_PORT,
    idleGcMs: env.JOBS_IDLE_GC_MS,
    bindHost: env.BIND_HOST,
    databaseUrl: env.DATABASE_URL,
    logLevel: env.LOG_LEVEL,
    runner: {
      concurrency: env.JOBS_CONCURRENCY,
      leaseMs: env.JOBS_LEASE_MS,
      pollMs: env.JOBS_POLL_MS,
      // A run that throws (a dependency down): tried again after 1 s, 2 s, 4 s… up to 5 minutes, ten times.
      retry: { retries: 10, baseDelayMs: 1000, maxDelayMs: 300_000, jitter: 0.1 },
    },
    scrapeJobs: {
      pagesAhead: env.JOBS_PAGES_AHEAD,
      retry: { retries: env.JOBS_PAGE_RETRIES, baseDelayMs: env.JOBS_RETRY_BACKOFF_MS, maxDelayMs: env.JOBS_RETRY_BACKOFF_MS * 2 ** 10, jitter: 0.1 },
    },
    intervals: {
      purgeJobsMs: env.JOBS_PURGE_INTERVAL_MS,
      releaseReservationsMs: env.QUOTA_SWEEP_INTERVAL_MS,
      purgeAccountsMs: env.HISTORY_PURGE_INTERVAL_MS,
      scheduleTrackedSearchesMs: env.TRACKED_SCHEDULER_INTERVAL_MS,
      purgeArchiveMs: env.ARCHIVE_PURGE_INTERVAL_MS,
      dispatchWebhooksMs: env.WEBHOOK_DISPATCH_INTERVAL_MS,
    },
    webhookPolicy: webhookPolicyFrom(env),
    webhookRetryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS,
    webhookAttemptsInFlight: env.WEBHOOK_ATTEMPTS_IN_FLIGHT,
    archiveRetentionDays: env.ARCHIVE_RETENTION_DAYS,
    metering: meteringConfigFrom(env, { parseThreads: env.JOBS_PARSE_THREADS }),
  }));

export type JobsConfig = z.output<typeof jobsEnvSchema>;

export function loadJobsConfig(env: Readonly<Record<string, string | undefined>>): JobsConfig {
  return loadConfig('jobs', jobsEnvSchema, env);
}
