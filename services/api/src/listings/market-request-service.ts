import type { Capabilities } from '@comps/shared/contract/capabilities';
import type { ItemDetails, ListingQuery } from '@comps/shared/contract/listing';
import type { MarketSite } from '@comps/shared/contract/market-sites';
import { AppError } from '@comps/shared/errors/app-error';
import type { Logger } from '@comps/shared/logging/create-logger';
import { buildListingCollection } from '@comps/shared/market/build-collection';
import type { MarketClient } from '@comps/shared/market/market-client';
import { callAccounts, type AccountsClient } from '../accounts/accounts-client.js';
import type { Principal, QuotaSnapshot } from '../auth/principal.js';
import type { UpstreamCapacity } from '../limits/upstream-capacity.js';
import type { WorkspaceConcurrency } from '../limits/workspace-concurrency.js';
import type { SettlementOutbox } from '../billing/settlement-outbox.js';

export interface MarketRequestDeps {
  accounts: AccountsClient;
  settlements: SettlementOutbox;
  market: MarketClient;
  concurrency: WorkspaceConcurrency;
  capacity: UpstreamCapacity;
  dataGate: Capabilities['dataGate'];
  enabledSites: readonly MarketSite[];
  logger: Logger;
}

export type MarketCall = { kind: 'listings'; query: ListingQuery } | { kind: 'item'; itemId: string; marketSite: MarketSite };

export interface MarketOutcome {
  /** The JSON body, serialized once: an idempotent replay sends these exact bytes again. */
  body: string;
  resultCount: number;
  charged: boolean;
  quota: QuotaSnapshot;
}

function siteOf(call: MarketCall): MarketSite {
  return call.kind === 'item' ? call.marketSite : call.query.marketSite;
}

/** The data gate and the site must be open before anything is reserved or fetched. */
function checkOpen(deps: MarketRequestDeps, call: MarketCall): void {
  const gate = call.kind === 'item' ? 'item' : call.query.sold ? 'sold' : 'active';
  if (deps.dataGate[gate] === 'closed') {
    throw new AppError('data_gate_closed', `The operator has closed the data gate for ${gate} data`, { retryAfter: 60 });
  }
  const site = siteOf(call);
  if (!deps.enabledSites.includes(site)) {
    throw new AppError('site_not_enabled', `${site} is not enabled on this service (see GET /v1/capabilities)`);
  }
}

async function fetchFromMarket(deps: MarketRequestDeps, call: MarketCall, requestId: string): Promise<{ body: string; resultCount: number }> {
  const permit = await deps.capacity.acquire(requestId);
  try {
    if (call.kind === 'item') {
      const fetched = await deps.market.item(call.itemId, call.marketSite);
      const details: ItemDetails = {
        ...fetched.result,
        marketSite: call.marketSite,
        source: { marketSite: call.marketSite, fetchedAt: fetched.fetchedAt.toISOString(), upstreamMs: fetched.upstreamMs },
        requestId,
      };
      return { body: JSON.stringify(details), resultCount: 1 };
    }
    const fetched = await deps.market.search(call.query);
    const source = { marketSite: call.query.marketSite, fetchedAt: fetched.fetchedAt.toISOString(), upstreamMs: fetched.upstreamMs };
    const collection = buildListingCollection(fetched.result, call.query, source, requestId);
    return { body: JSON.stringify(collection), resultCount: collection.items.length };
  } finally {
    await permit.release().catch((error: unknown) => deps.logger.warn({ err: String(error) }, 'upstream permit release failed'));
  }
}

/**
 * One search, category or item request: the gate and site, the workspace's concurrency, a quota
 * reservation (refused before any upstream call when the month is used up), the shared upstream
 * capacity, exactly one marketplace call, then the charge (through the settlement outbox). Every
 * failure releases what it holds, so a failed request is never charged; a success is charged once,
 * under its request id.
 */
export async function performMarketRequest(
  deps: MarketRequestDeps,
  principal: Principal,
  requestId: string,
  call: MarketCall,
  onQuota: (quota: QuotaSnapshot) => void,
): Promise<MarketOutcome> {
  checkOpen(deps, call);
  const lease = await deps.concurrency.acquire(principal.workspaceId, requestId, principal.plan.concurrency);
  try {
    const reservation = await callAccounts(() => deps.accounts.quota.reserve.mutate({ workspaceId: principal.workspaceId, requestId }));
    const { limit, used, remaining } = reservation;
    if (!reservation.ok) {
      // Units held by requests still in flight are not available either: nothing remains to start.
      onQuota({ limit, used, remaining: 0 });
      throw new AppError('quota_exhausted', `The monthly quota of ${limit} requests is used up`);
    }
    onQuota({ limit, used, remaining });
    let fetched: { body: string; resultCount: number };
    try {
      fetched = await fetchFromMarket(deps, call, requestId);
    } catch (error) {
      // If accounts cannot hear the release now, the reservation expires and is released anyway.
      await callAccounts(() => deps.accounts.quota.release.mutate({ requestId })).catch((releaseError: unknown) =>
        deps.logger.warn({ err: String(releaseError) }, 'quota release failed; the reservation will expire'),
      );
      // The unit is free again (now, or when the reservation expires): the figures say so.
      onQuota({ limit, used, remaining: Math.min(limit - used, remaining + 1) });
      throw error;
    }
    // The reservation holds the unit, so the charge can be settled off the request path, and the
    // reserve's figures already count it. Without Redis, settle here: unsettled means unanswered.
    try {
      await deps.settlements.add(requestId);
      return { ...fetched, charged: true, quota: { limit, used, remaining } };
    } catch (error) {
      deps.logger.warn({ err: String(error) }, 'settlement outbox unavailable; settling directly');
    }
    const settled = await callAccounts(() => deps.accounts.quota.settle.mutate({ requestId }));
    const quota = { limit: settled.limit, used: settled.used, remaining: settled.remaining };
    onQuota(quota);
    return { ...fetched, charged: settled.charged, quota };
  } finally {
    await lease.release().catch((error: unknown) => deps.logger.warn({ err: String(error) }, 'concurrency lease release failed; it will expire'));
  }
}
