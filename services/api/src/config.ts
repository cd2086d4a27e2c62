import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import {
  bindHostSchema,
  envPort,
  envPositiveInt,
  internalTokenSchema,
  logLevelSchema,
  redisUrlSchema,
} from '@comps/shared/config/env-fields';
import { gateStateSchema } from '@comps/shared/contract/capabilities';
import { MARKET_SITES, marketSiteSchema, type MarketSite } from '@comps/shared/contract/market-sites';
import { marketConfigFrom, marketEnvFields } from '@comps/shared/market/market-config';

const enabledSitesSchema = z
  .string()
  .default('all')
  .transform((value, ctx) => {
    if (value.trim() === 'all') return [...MARKET_SITES];
    const sites = value.split(',').map((site) => site.trim()).filter(Boolean);
    const unknown = sites.filter((site) => !marketSiteSchema.safeParse(site).success);
    if (unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `unknown sites ${unknown.join(', ')}; allowed: all, or some of ${MARKET_SITES.join(', ')}` });
      return z.NEVER;
    }
    return sites as MarketSite[];
  });

const apiEnvSchema = z
  .object({
    API_PORT: envPort(4001),
    API_INTERNAL_PORT: envPort(4101),
    BIND_HOST: bindHostSchema,
    REDIS_URL: redisUrlSchema,
    REDIS_KEY_PREFIX: z.string().min(1).default('comps:'),
    INTERNAL_TOKEN: internalTokenSchema,
    ACCOUNTS_URL: z.url().default('http://127.0.0.1:4103'),
    LOG_LEVEL: logLevelSchema,
    // Revocation must bite within 5 s on every instance; the cache may never hold a key longer.
    AUTH_CACHE_TTL_MS: envPositiveInt(2000).pipe(z.number().max(4000, { error: 'must be at most 4000 (revocation within 5 s)' })),
    INTERNAL_CALL_TIMEOUT_MS: envPositiveInt(3000),
    HISTORY_FLUSH_INTERVAL_MS: envPositiveInt(100),
    DATA_GATE_SOLD: gateStateSchema.default('open'),
    DATA_GATE_ACTIVE: gateStateSchema.default('open'),
    DATA_GATE_ITEM: gateStateSchema.default('open'),
    ENABLED_SITES: enabledSitesSchema,
    UPSTREAM_CALLS_PER_SECOND: envPositiveInt(20),
    UPSTREAM_MAX_IN_FLIGHT: envPositiveInt(20),
    // Leases outlive the longest request; a process that dies frees its permits after this.
    LEASE_MS: envPositiveInt(60_000),
    SETTLEMENT_CLAIM_IDLE_MS: envPositiveInt(30_000),
    ...marketEnvFields,
  })
  .refine((env) => env.LEASE_MS >= env.MARKET_TIMEOUT_MS + 5000, {
    error: 'must exceed MARKET_TIMEOUT_MS by at least 5000, or a slow request would outlive its lease',
    path: ['LEASE_MS'],
  })
  .transform((env) => ({
    port: env.API_PORT,
    internalPort: env.API_INTERNAL_PORT,
    bindHost: env.BIND_HOST,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    internalToken: env.INTERNAL_TOKEN,
    accountsUrl: env.ACCOUNTS_URL.replace(/\/$/, ''),
    logLevel: env.LOG_LEVEL,
    authCacheTtlMs: env.AUTH_CACHE_TTL_MS,
    internalCallTimeoutMs: env.INTERNAL_CALL_TIMEOUT_MS,
    historyFlushIntervalMs: env.HISTORY_FLUSH_INTERVAL_MS,
    dataGate: { sold: env.DATA_GATE_SOLD, active: env.DATA_GATE_ACTIVE, item: env.DATA_GATE_ITEM },
    enabledSites: env.ENABLED_SITES,
    upstream: { callsPerSecond: env.UPSTREAM_CALLS_PER_SECOND, maxInFlight: env.UPSTREAM_MAX_IN_FLIGHT },
    leaseMs: env.LEASE_MS,
    settlementClaimIdleMs: env.SETTLEMENT_CLAIM_IDLE_MS,
    market: marketConfigFrom(env),
  }));

export type ApiConfig = z.output<typeof apiEnvSchema>;

export function loadApiConfig(env: Readonly<Record<string, string | undefined>>): ApiConfig {
  return loadConfig('api', apiEnvSchema, env);
}
