import { z } from 'zod';
import { envPositiveInt } from '../config/env-fields.js';
import { MARKET_SITES, marketSiteSchema, type MarketSite } from '../contract/market-sites.js';
import type { SiteOrigins } from './search-url.js';

const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

const originsSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const origins: Partial<Record<MarketSite, string>> = {};
    for (const entry of (value ?? '').split(',').map((part) => part.trim()).filter(Boolean)) {
      const [site, origin] = entry.split('=', 2).map((part) => part?.trim());
      const parsedSite = marketSiteSchema.safeParse(site);
      if (!parsedSite.success || !origin || !/^https?:\/\/[^\s]+$/.test(origin)) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not site=origin (e.g. market.de=https://www.ebay.de)` });
        continue;
      }
      origins[parsedSite.data] = origin.replace(/\/$/, '');
    }
    return origins;
  });

/** The environment variables of the marketplace client, shared by every service that calls it. */
export const marketEnvFields = {
  MARKET_SIM_URL: z.url().default('http://127.0.0.1:4010'),
  MARKET_ORIGINS: originsSchema,
  MARKET_USER_AGENT: z.string().min(1).default(DEFAULT_USER_AGENT),
  MARKET_TIMEOUT_MS: envPositiveInt(10_000),
  MARKET_MAX_RESPONSE_BYTES: envPositiveInt(8 * 1024 * 1024),
  MARKET_PROXY_URL: z.url().optional(),
  MARKET_COOKIE: z.string().min(1).optional(),
};

type MarketEnv = z.output<z.ZodObject<typeof marketEnvFields>>;

export interface MarketConfig {
  origins: SiteOrigins;
  userAgent: string;
  timeoutMs: number;
  maxResponseBytes: number;
  proxyUrl: string | undefined;
  cookie: string | undefined;
}

/** Every site not given its own origin goes to the simulator, under a path of its own. */
export function marketConfigFrom(env: MarketEnv): MarketConfig {
  const simulator = env.MARKET_SIM_URL.replace(/\/$/, '');
  const origins = Object.fromEntries(
    MARKET_SITES.map((site) => [site, env.MARKET_ORIGINS[site] ?? `${simulator}/${site}`]),
  ) as Record<MarketSite, string>;
  return {
    origins,
    userAgent: env.MARKET_USER_AGENT,
    timeoutMs: env.MARKET_TIMEOUT_MS,
    maxResponseBytes: env.MARKET_MAX_RESPONSE_BYTES,
    proxyUrl: env.MARKET_PROXY_URL,
    cookie: env.MARKET_COOKIE,
  };
}
