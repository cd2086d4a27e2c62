import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import { bindHostSchema, envNonNegativeInt, envPort, envPositiveInt, logLevelSchema } from '@comps/shared/config/env-fields';

const simEnvSchema = z
  .object({
    MARKET_SIM_PORT: envPort(4010),
    BIND_HOST: bindHostSchema,
    LOG_LEVEL: logLevelSchema,
    MARKET_SIM_LATENCY_MS: envNonNegativeInt(0),
    MARKET_SIM_JITTER_MS: envNonNegativeInt(0),
    MARKET_SIM_MAX_CONCURRENT: envNonNegativeInt(0),
    MARKET_SIM_ERROR_RATE: z.coerce.number().min(0).max(1).default(0),
    /** Share of pages answered with the bot-challenge page, as a marketplace that blocks the stack does. */
    MARKET_SIM_CHALLENGE_RATE: z.coerce.number().min(0).max(1).default(0),
    /** `full`: results pages of a real page's size and structure (0.7–2.4 MB); `lean`: the cards alone, for speed. */
    MARKET_SIM_PAGE_STYLE: z.enum(['full', 'lean']).default('full'),
    /** Rendered results pages kept, by size. */
    MARKET_SIM_CACHE_MB: envPositiveInt(64),
  })
  .transform((env) => ({
    port: env.MARKET_SIM_PORT,
    bindHost: env.BIND_HOST,
    logLevel: env.LOG_LEVEL,
    knobs: {
      latencyMs: env.MARKET_SIM_LATENCY_MS,
      jitterMs: env.MARKET_SIM_JITTER_MS,
      maxConcurrent: env.MARKET_SIM_MAX_CONCURRENT,
      errorRate: env.MARKET_SIM_ERROR_RATE,
      challengeRate: env.MARKET_SIM_CHALLENGE_RATE,
    },
    pageStyle: env.MARKET_SIM_PAGE_STYLE,
    cacheBytes: env.MARKET_SIM_CACHE_MB * 1024 * 1024,
  }));

export type SimConfig = z.output<typeof simEnvSchema>;
export type SimKnobs = SimConfig['knobs'];
export type PageStyle = SimConfig['pageStyle'];

export function loadSimConfig(env: Readonly<Record<string, string | undefined>>): SimConfig {
  return loadConfig('market-sim', simEnvSchema, env);
}
