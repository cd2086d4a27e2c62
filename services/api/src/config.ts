import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import { bindHostSchema, envNonNegativeInt, envPort, envPositiveInt, logLevelSchema } from '@comps/shared/config/env-fields';
import { meteringConfigFrom, meteringEnvFields } from '@comps/shared/metering/metering-config';

const apiEnvSchema = z
  .object({
    API_PORT: envPort(4001),
    API_INTERNAL_PORT: envPort(4101),
    BIND_HOST: bindHostSchema,
    LOG_LEVEL: logLevelSchema,
    // Revocation must bite within 5 s on every instance; the cache may never hold a key longer.
    AUTH_CACHE_TTL_MS: envPositiveInt(2000).pipe(z.number().max(4000, { error: 'must be at most 4000 (revocation within 5 s)' })),
    AUTH_FAILURES_PER_MINUTE: envPositiveInt(30),
    JOBS_URL: z.url().default('http://127.0.0.1:4102'),
    // 0 turns the idle collection off.
    API_IDLE_GC_MS: envNonNegativeInt(10_000).pipe(z.number().max(600_000, { error: 'must be at most 600000 (10 minutes)' })),
    // Search pages read in worker threads, beside the main thread; 0 reads them on it (README's configuration table).
    API_PARSE_THREADS: envNonNegativeInt(1).pipe(z.number().max(8, { error: 'must be at most 8' })),
    ...meteringEnvFields,
  })
  .transform((env) => ({
    port: env.API_PORT,
    internalPort: env.API_INTERNAL_PORT,
    bindHost: env.BIND_HOST,
    logLevel: env.LOG_LEVEL,
    authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
    authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
    jobsUrl: env.JOBS_URL.replace(/\/$/, ''),
    idleGcMs: env.API_IDLE_GC_MS,
    // The first request with an Idempotency-Key holds it at most as long as such a request can run.
    idempotencyLockMs: env.MARKET_TIMEOUT_MS + env.UPSTREAM_WAIT_MS + 10_000,
    metering: meteringConfigFrom(env, { parseThreads: env.API_PARSE_THREADS }),
  }));

export type ApiConfig = z.output<typeof apiEnvSchema>;

export function loadApiConfig(env: Readonly<Record<string, string | undefined>>): ApiConfig {
  return loadConfig('api', apiEnvSchema, env);
}
