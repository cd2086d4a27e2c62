import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import { bindHostSchema, databaseUrlSchema, envPort, logLevelSchema, redisUrlSchema } from '@comps/shared/config/env-fields';

const jobsEnvSchema = z
  .object({
    JOBS_INTERNAL_PORT: envPort(4102),
    BIND_HOST: bindHostSchema,
    DATABASE_URL: databaseUrlSchema,
    REDIS_URL: redisUrlSchema,
    LOG_LEVEL: logLevelSchema,
  })
  .transform((env) => ({
    internalPort: env.JOBS_INTERNAL_PORT,
    bindHost: env.BIND_HOST,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    logLevel: env.LOG_LEVEL,
  }));

export type JobsConfig = z.output<typeof jobsEnvSchema>;

export function loadJobsConfig(env: Readonly<Record<string, string | undefined>>): JobsConfig {
  return loadConfig('jobs', jobsEnvSchema, env);
}
