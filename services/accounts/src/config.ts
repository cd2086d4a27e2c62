import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import {
  bindHostSchema,
  databaseUrlSchema,
  envPort,
  envPositiveInt,
  internalTokenSchema,
  logLevelSchema,
} from '@comps/shared/config/env-fields';

const accountsEnvSchema = z
  .object({
    ACCOUNTS_PORT: envPort(4003),
    ACCOUNTS_INTERNAL_PORT: envPort(4103),
    BIND_HOST: bindHostSchema,
    DATABASE_URL: databaseUrlSchema,
    INTERNAL_TOKEN: internalTokenSchema,
    LOG_LEVEL: logLevelSchema,
    QUOTA_RESERVATION_TTL_SECONDS: envPositiveInt(300),
    QUOTA_SWEEP_INTERVAL_MS: envPositiveInt(10_000),
    HISTORY_PURGE_INTERVAL_MS: envPositiveInt(3_600_000),
  })
  .transform((env) => ({
    publicPort: env.ACCOUNTS_PORT,
    internalPort: env.ACCOUNTS_INTERNAL_PORT,
    bindHost: env.BIND_HOST,
    databaseUrl: env.DATABASE_URL,
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    reservationTtlSeconds: env.QUOTA_RESERVATION_TTL_SECONDS,
    sweepIntervalMs: env.QUOTA_SWEEP_INTERVAL_MS,
    historyPurgeIntervalMs: env.HISTORY_PURGE_INTERVAL_MS,
  }));

export type AccountsConfig = z.output<typeof accountsEnvSchema>;

export function loadAccountsConfig(env: Readonly<Record<string, string | undefined>>): AccountsConfig {
  return loadConfig('accounts', accountsEnvSchema, env);
}

const adminEnvSchema = z
  .object({ DATABASE_URL: databaseUrlSchema })
  .transform((env) => ({ databaseUrl: env.DATABASE_URL }));

export function loadAdminConfig(env: Readonly<Record<string, string | undefined>>) {
  return loadConfig('admin', adminEnvSchema, env);
}
