import { z } from 'zod';
import { loadConfig } from '@comps/shared/config/load-config';
import { bindHostSchema, envNonNegativeInt, envPort, logLevelSchema } from '@comps/shared/config/env-fields';

const simEnvSchema = z
  .object({
    MARKET_SIM_PORT: envPort(4010),
    BIND_HOST: bindHostSchema,
    LOG_LEVEL: logLevelSchema,
    MARKET_SIM_LATENCY_MS: envNonNegativeInt(0),
    MARKET_SIM_JITTER_MS: envNonNegativeInt(0),
    MARKET_SIM_MAX_CONCURRENT: envNonNegativeInt(0),
    MARKET_SIM_ERROR_RATE: z.coerce.number().min(0).max(1).default(0),
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
    },
  }));

export type SimConfig = z.output<typeof simEnvSchema>;
export type SimKnobs = SimConfig['knobs'];

export function loadSimConfig(env: Readonly<Record<string, string | undefined>>): SimConfig {
  return loadConfig('market-sim', simEnvSchema, env);
}
