import { z } from 'zod';
import { envNonNegativeInt, envPositiveInt, internalTokenSchema, redisUrlSchema } from '../config/env-fields.js';
import { gateStateSchema } from '../contract/capabilities.js';
import { MARKET_SITES, marketSiteSchema, type MarketSite } from '../contract/market-sites.js';
import { MAX_ALLOWANCE_LEASE_MS, MAX_ALLOWANCE_UNITS } from '../internal/accounts/accounts-contract.js';
import { marketConfigFrom, marketEnvFields } from '../market/market-config.js';

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

/**
 * The environment of every service that makes metered marketplace calls (the api and the jobs
 * worker): the same gate, sites, shared capacity, Redis keys, accounts and marketplace settings, so
 * that both charge, limit and record the same way.
 */
export const meteringEnvFields = {
  REDIS_URL: redisUrlSchema,
  REDIS_KEY_PREFIX: z.string().min(1).default('comps:'),
  INTERNAL_TOKEN: internalTokenSchema,
  ACCOUNTS_URL: z.url().default('http://127.0.0.1:4103'),
  INTERNAL_CALL_TIMEOUT_MS: envPositiveInt(3000),
  HISTORY_FLUSH_INTERVAL_MS: envPositiveInt(100),
  DATA_GATE_SOLD: gateStateSchema.default('open'),
  DATA_GATE_ACTIVE: gateStateSchema.default('open'),
  DATA_GATE_ITEM: gateStateSchema.default('open'),
  ENABLED_SITES: enabledSitesSchema,
  // Room for a pro workspace's concurrency (20) within the share of one workspace (half).
  UPSTREAM_CALLS_PER_SECOND: envPositiveInt(40),
  UPSTREAM_MAX_IN_FLIGHT: envPositiveInt(40),
  UPSTREAM_WORKSPACE_SHARE: z.coerce.number().gt(0, { error: 'must be above 0' }).max(1, { error: 'must be at most 1' }).default(0.5),
  UPSTREAM_WAIT_MS: envNonNegativeInt(1500),
  // Permits are renewed every third of this while a call runs; a process that dies frees them within it.
  LEASE_MS: envPositiveInt(3000).pipe(z.number().min(300, { error: 'must be at least 300' })),
  // Quota allowances (QuotaAllowances): units leased from accounts in blocks of this many, so that
  // most calls reserve none of their own; 0 turns them off (every call reserves through accounts).
  ALLOWANCE_BLOCK_UNITS: envNonNegativeInt(50).pipe(z.number().max(MAX_ALLOWANCE_UNITS, { error: `must be at most ${MAX_ALLOWANCE_UNITS}` })),
  // Renewed while used; what processes that all died hold at most, and how long before accounts frees it.
  // Longer than the outbox's takeover of a dead process's charges (SETTLEMENT_CLAIM_IDLE_MS), so that
  // those are charged from the allowance, not as late charges that need free quota.
  ALLOWANCE_LEASE_MS: envPositiveInt(60_000).pipe(
    z.number().min(3000, { error: 'must be at least 3000' }).max(MAX_ALLOWANCE_LEASE_MS, { error: `must be at most ${MAX_ALLOWANCE_LEASE_MS}` }),
  ),
  // An allowance nobody took from for this long goes back to accounts.
  ALLOWANCE_IDLE_MS: envPositiveInt(1000).pipe(z.number().min(200, { error: 'must be at least 200' })),
  SETTLEMENT_CLAIM_IDLE_MS: envPositiveInt(30_000),
  // Charges count as used at once (the outbox's pending set), so settling them later costs nothing
  // visible but their history entries' arriving up to a second later: one transaction for several
  // charges instead of one each. At 0.1 s, bench:api measured accounts' CPU per search 4.7 → 1.8 ms
  // at one caller; at 1 s instead of 0.1, bench:jobs measured accounts' CPU a page 12.4–13.5 → 5.8–6.0 ms
  // and its round trips to MariaDB 8.6–8.8 → 2.8 (a job's pages come about ten a second: one batch each at 0.1 s).
  SETTLEMENT_BATCH_INTERVAL_MS: envNonNegativeInt(1000),
  ...marketEnvFields,
};

type MeteringEnv = z.output<z.ZodObject<typeof meteringEnvFields>>;

/** `parseThreads`: the service's own setting (`API_PARSE_THREADS`, `JOBS_PARSE_THREADS`), its default chosen by measurement for what it does. */
export function meteringConfigFrom(env: MeteringEnv, { parseThreads }: { parseThreads: number }) {
  return {
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    internalToken: env.INTERNAL_TOKEN,
    accountsUrl: env.ACCOUNTS_URL.replace(/\/$/, ''),
    internalCallTimeoutMs: env.INTERNAL_CALL_TIMEOUT_MS,
    historyFlushIntervalMs: env.HISTORY_FLUSH_INTERVAL_MS,
    dataGate: { sold: env.DATA_GATE_SOLD, active: env.DATA_GATE_ACTIVE, item: env.DATA_GATE_ITEM },
    enabledSites: env.ENABLED_SITES,
    upstream: {
      callsPerSecond: env.UPSTREAM_CALLS_PER_SECOND,
      maxInFlight: env.UPSTREAM_MAX_IN_FLIGHT,
      workspaceShare: env.UPSTREAM_WORKSPACE_SHARE,
      waitMs: env.UPSTREAM_WAIT_MS,
    },
    leaseMs: env.LEASE_MS,
    allowance: { blockUnits: env.ALLOWANCE_BLOCK_UNITS, leaseMs: env.ALLOWANCE_LEASE_MS, idleMs: env.ALLOWANCE_IDLE_MS },
    settlement: { claimIdleMs: env.SETTLEMENT_CLAIM_IDLE_MS, batchIntervalMs: env.SETTLEMENT_BATCH_INTERVAL_MS },
    market: marketConfigFrom(env),
    parseThreads,
  };
}

export type MeteringConfig = ReturnType<typeof meteringConfigFrom>;
