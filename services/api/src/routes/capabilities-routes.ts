import { Router } from '@koa/router';
import { API_VERSION, LIMITS } from '@comps/shared/contract/limits';
import { UNSUPPORTED_CAPABILITIES, type Capabilities } from '@comps/shared/contract/capabilities';
import { MARKET_SITES, SITE_CURRENCY } from '@comps/shared/contract/market-sites';
import type { MeteringConfig } from '@comps/shared/metering/metering-config';

/** Built once: capabilities follow configuration, which is fixed for the life of the process. */
export function buildCapabilities(config: Pick<MeteringConfig, 'dataGate' | 'enabledSites'>): Capabilities {
  return {
    version: API_VERSION,
    dataGate: { ...config.dataGate },
    sites: MARKET_SITES.map((marketSite) => ({
      marketSite,
      enabled: config.enabledSites.includes(marketSite),
      currency: SITE_CURRENCY[marketSite],
    })),
    limits: {
      count: { ...LIMITS.count },
      page: { ...LIMITS.page },
      jobPages: { ...LIMITS.jobPages },
      activeJobsPerWorkspace: LIMITS.activeJobsPerWorkspace,
      jobRetentionHours: LIMITS.jobRetentionHours,
      historyRetentionDays: LIMITS.historyRetentionDays,
      historyPageSize: { ...LIMITS.historyPageSize },
      bulkKeywords: { ...LIMITS.bulkKeywords },
    },
    unsupported: [...UNSUPPORTED_CAPABILITIES],
  };
}

export function capabilitiesRoutes(capabilities: Capabilities): Router {
  const router = new Router();
  const body = JSON.stringify(capabilities);
  router.get('/v1/capabilities', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  return router;
}
