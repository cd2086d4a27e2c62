import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import {
  bindHostSchema,
  databaseUrlSchema,
  envPort,
  envPositiveInt,
  internalTokenSchema,
  logLevelSchema,
  redisUrlSchema,
  webhookSecretKeySchema,
} from '@comps/shared/config/env-fields';
import { webhookEnvFields, webhookPolicyFrom } from '@comps/shared/webhooks/webhook-config';

const accountsEnvSchema = z
  .object({
    ACCOUNTS_PORT: envPort(4003),
    ACCOUNTS_INTERNAL_PORT: envPort(4103),
    BIND_HOST: bindHostSchema,
    DATABASE_URL: databaseUrlSchema,
    INTERNAL_TOKEN: internalTokenSchema,
    LOG_LEVEL: logLevelSchema,
    QUOTA_RESERVATION_TTL_SECONDS: envPositiveInt(300),
    REDIS_URL: redisUrlSchema,
    REDIS_KEY_PREFIX: z.string().min(1).default('comps:'),
    SIGNUP: z.enum(['open', 'closed'], { error: 'must be open or closed' }).default('open'),
    SESSION_IDLE_MINUTES: envPositiveInt(120),
    SESSION_ABSOLUTE_HOURS: envPositiveInt(24),
    SIGN_IN_FAILURES_PER_ACCOUNT: envPositiveInt(10),
    SIGN_IN_FAILURES_PER_ADDRESS: envPositiveInt(50),
    SIGN_IN_FAILURE_WINDOW_MINUTES: envPositiveInt(15),
    SIGN_UPS_PER_ADDRESS_PER_HOUR: envPositiveInt(10),
    JOBS_URL: z.url().default('http://127.0.0.1:4102'),
    INTERNAL_CALL_TIMEOUT_MS: envPositiveInt(3000),
    // An Explore search waits on the marketplace (MARKET_TIMEOUT_MS, 10 s by default), its capacity and the quota.
    EXPLORE_TIMEOUT_MS: envPositiveInt(30_000),
    // The key that seals webhook secrets at rest (base64 of 32 bytes); npm start makes one in .run/ when none is set.
    WEBHOOK_SECRET_KEY: webhookSecretKeySchema,
    ...webhookEnvFields,
  })
  .refine((env) => env.SESSION_IDLE_MINUTES <= env.SESSION_ABSOLUTE_HOURS * 60, {
    error: 'must not be longer than SESSION_ABSOLUTE_HOURS',
    path: ['SESSION_IDLE_MINUTES'],
  })
  .transform((env) => ({
    publicPort: env.ACCOUNTS_PORT,
    internalPort: env.ACCOUNTS_INTERNAL_PORT,
    bindHost: env.BIND_HOST,
    databaseUrl: env.DATABASE_URL,
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    reservationTtlSeconds: env.QUOTA_RESERVATION_TTL_SECONDS,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    signUpOpen: env.SIGNUP === 'open',
    sessions: { idleMs: env.SESSION_IDLE_MINUTES * 60_000, absoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000 },
    authThrottle: {
      accountFailures: env.SIGN_IN_FAILURES_PER_ACCOUNT,
      addressFailures: env.SIGN_IN_FAILURES_PER_ADDRESS,
      windowSeconds: env.SIGN_IN_FAILURE_WINDOW_MINUTES * 60,
      signUpsPerAddressPerHour: env.SIGN_UPS_PER_ADDRESS_PER_HOUR,
    },
    jobsUrl: env.JOBS_URL.replace(/\/$/, ''),
    internalCallTimeoutMs: env.INTERNAL_CALL_TIMEOUT_MS,
    exploreTimeoutMs: env.EXPLORE_TIMEOUT_MS,
    webhooks: { secretKey: env.WEBHOOK_SECRET_KEY, policy: webhookPolicyFrom(env) },
  }));

export type AccountsConfig = z.output<typeof accountsEnvSchema>;

export function loadAccountsConfig(env: Readonly<Record<string, string | undefined>>): AccountsConfig {
  return loadConfig('accounts', accountsEnvSchema, env);
}

const adminEnvSchema = z
  .object({
    ACCOUNTS_URL: z.url().default('http://127.0.0.1:4103'),
    INTERNAL_TOKEN: internalTokenSchema.optional(),
    INTERNAL_CALL_TIMEOUT_MS: envPositiveInt(10_000),
    // Where people open the dashboard: the set-password links that `user create` prints start with it.
    // Without it, the address `npm start` serves on this machine (Caddy on PORT).
    PUBLIC_URL: z.url().optional(),
    PORT: envPort(8080),
  })
  .transform((env) => ({
    accountsUrl: env.ACCOUNTS_URL,
    internalToken: env.INTERNAL_TOKEN,
    timeoutMs: env.INTERNAL_CALL_TIMEOUT_MS,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
  }));

/** The admin command talks to the running accounts service (its internal port), as every other caller does. */
export function loadAdminConfig(env: Readonly<Record<string, string | undefined>>) {
  return loadConfig('admin', adminEnvSchema, env);
}
