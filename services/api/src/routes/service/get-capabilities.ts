import { API_VERSION, LIMITS } from '@comps/shared/contract/limits';
import { capabilitiesSchema, OFFERED_FEATURES, UNSUPPORTED_CAPABILITIES, type Capabilities } from '@comps/shared/contract/capabilities';
import { MARKET_SITES, SITE_CURRENCY } from '@comps/shared/contract/market-sites';
import type { MeteringConfig } from '@comps/shared/metering/metering-config';
import { definePublicRoute } from '../../http/route-definition.js';
import { CAPABILITIES_EXAMPLE } from '../examples.js';

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
      trackedSearches: LIMITS.trackedSearches,
      webhookEndpoints: LIMITS.webhookEndpoints,
    },
    unsupported: [...UNSUPPORTED_CAPABILITIES],
    features: [...OFFERED_FEATURES],
  };
}

/** `GET /v1/capabilities`, no key: serialized once. */
export function getCapabilitiesRoute(capabilities: Capabilities) {
  const body = JSON.stringify(capabilities);
  return definePublicRoute({
    method: 'GET',
    path: '/v1/capabilities',
    operationId: 'getCapabilities',
    summary: 'Data gate, enabled sites, limits and unsupported capabilities',
    tag: 'Service',
    success: { status: 200, schema: capabilitiesSchema, description: 'The capabilities' },
    example: CAPABILITIES_EXAMPLE,
    handle: () => ({ kind: 'json', status: 200, body }),
  });
}
