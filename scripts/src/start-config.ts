import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import { databaseUrlSchema, envPort, logLevelSchema, redisUrlSchema, webhookSecretKeySchema } from '@comps/shared/config/env-fields';

const startEnvSchema = z
  .object({
    PORT: envPort(8080),
    DATABASE_URL: databaseUrlSchema,
    REDIS_URL: redisUrlSchema,
    INTERNAL_TOKEN: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    WEBHOOK_SECRET_KEY: webhookSecretKeySchema.optional(),
    LOG_LEVEL: logLevelSchema,
    CADDY_BIN: z.string().min(1).default('caddy'),
    API_PORT: envPort(4001),
    API_INTERNAL_PORT: envPort(4101),
    ACCOUNTS_PORT: envPort(4003),
    ACCOUNTS_INTERNAL_PORT: envPort(4103),
    JOBS_INTERNAL_PORT: envPort(4102),
    MARKET_SIM_PORT: envPort(4010),
  });

export function loadStartConfig(env: Readonly<Record<string, string | undefined>>) {
  return loadConfig('start', startEnvSchema, env);
}
