import { Router } from '@koa/router';
import { z } from 'zod';
import { categoryParamsSchema, itemIdSchema, itemQueryObject, searchParamsSchema } from '@comps/shared/contract/listing-params';
import { marketSiteSchema } from '@comps/shared/contract/market-sites';
import { AppError } from '@comps/shared/errors/app-error';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import type { MarketCall, MarketValue } from '@comps/shared/market/market-call';
import type { Meter, MeteredAnswer } from '@comps/shared/metering/meter';
import { authenticatedRoute, type AuthenticatedRouteDeps } from '../http/authenticated-route.js';
import type { ApiRequest, RequestFacts, RouteResult } from '../http/route-result.js';
import { idempotencyKeyOf } from '../idempotency/idempotency-key.js';
import { operationFingerprint, type IdempotencyStore } from '../idempotency/idempotency-store.js';

export interface ListingRouteDeps {
  route: AuthenticatedRouteDeps;
  meter: Meter;
  idempotency: IdempotencyStore;
}

/** The three search paths are one operation under three names (specification, "Endpoints"). */
export const SEARCH_PATHS = ['/v1/scrape', '/public/scrape', '/partner/scrape-market'] as const;

const NO_STORE = { 'Cache-Control': 'no-store' };

/** What the history entry says of the request, known even when its parameters are refused. */
function factsOf(takesKeyword: boolean) {
  return ({ query }: Pick<ApiRequest, 'query'>): RequestFacts => {
    const site = marketSiteSchema.safeParse(query.marketSite ?? 'market.com');
    const keyword = query.keyword;
    return {
      marketSite: site.success ? site.data : null,
      hasKeyword: takesKeyword && (typeof keyword === 'string' ? keyword.trim().length > 0 : Array.isArray(keyword)),
    };
  };
}

/** One metered call, serialized once: an idempotent replay sends these exact bytes again. */
async function metered(deps: ListingRouteDeps, request: ApiRequest, path: string, call: MarketCall): Promise<RouteResult> {
  const { principal } = request;
  let answered: MeteredAnswer<MarketValue<MarketCall>> | undefined;
  const outcome = await deps.meter.run({
    workspace: { id: principal.workspaceId, concurrency: principal.plan.concurrency },
    requestId: request.requestId,
    call,
    signal: request.signal,
    patience: 'brief',
    history: { method: 'GET', path, jobId: null, apiKeyId: principal.apiKeyId, apiKeyPrefix: principal.apiKeyPrefix },
    deliver: async (answer) => {
      answered = answer;
      return true;
    },
  });
  if (outcome.kind === 'failed' || outcome.kind === 'abandoned') return { status: outcome.error.status, body: null, error: outcome.error, quota: outcome.quota, recorded: true };
  const value = answered!.value;
  return { status: 200, body: JSON.stringify(value), headers: NO_STORE, quota: outcome.quota, recorded: true, resultCount: 'items' in value ? value.items.length : 1 };
}

/**
 * Runs the call under the caller's Idempotency-Key when one is sent: a repeat of a success replays
 * it byte for byte, uncharged; a repeat while the first runs, or with other parameters, is a 409.
 */
async function meteredOnce(deps: ListingRouteDeps, request: ApiRequest, path: string, call: MarketCall): Promise<RouteResult> {
  const key = idempotencyKeyOf(request);
  if (key === null) return metered(deps, request, path, call);
  const { workspaceId } = request.principal;
  const owner = request.requestId;
  const begun = await deps.idempotency.begin(workspaceId, key, operationFingerprint('GET', path, call), owner);
  switch (begun.kind) {
    case 'replay':
      return { status: begun.status, body: begun.body, headers: { ...NO_STORE, 'Idempotent-Replayed': 'true' }, resultCount: begun.resultCount };
    case 'in_progress':
      throw new AppError('idempotency_in_progress', 'The first request with this Idempotency-Key is still running', { retryAfter: 1 });
    case 'reused':
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with other parameters');
  }
  let result: RouteResult;
  try {
    result = await metered(deps, request, path, call);
  } catch (error) {
    await deps.idempotency.abandon(workspaceId, key, owner).catch(() => undefined);
    throw error;
  }
  if (result.error) {
    // Failures are not stored: a retry after a failure runs again.
    await deps.idempotency.abandon(workspaceId, key, owner).catch(() => undefined);
    return result;
  }
  await deps.idempotency
    .complete(workspaceId, key, owner, result.status, result.body as string, result.resultCount ?? null)
    .catch((error: unknown) => deps.route.logger.warn({ err: String(error) }, 'idempotency record failed; a repeat will run again'));
  return result;
}

/** Search (and its two aliases), category browse and item lookup. */
export function listingRoutes(deps: ListingRouteDeps): Router {
  const router = new Router();

  for (const path of SEARCH_PATHS) {
    router.get(
      path,
      authenticatedRoute(deps.route, { describe: factsOf(true) }, (request) => {
        const query = parseOrThrow(searchParamsSchema, request.query, 'Invalid query parameters');
        return meteredOnce(deps, request, path, { kind: 'search', query });
      }),
    );
  }

  router.get(
    '/v1/scrape/category',
    authenticatedRoute(deps.route, { describe: factsOf(false) }, (request) => {
      const query = parseOrThrow(categoryParamsSchema, request.query, 'Invalid query parameters');
      return meteredOnce(deps, request, '/v1/scrape/category', { kind: 'category', query });
    }),
  );

  router.get(
    '/v1/item/:itemId',
    authenticatedRoute(deps.route, { describe: factsOf(false) }, async (request) => {
      const { itemId } = parseOrThrow(z.object({ itemId: itemIdSchema }), { itemId: request.params.itemId }, 'Invalid item id');
      const { marketSite } = parseOrThrow(itemQueryObject, request.query, 'Invalid query parameters');
      return metered(deps, request, '/v1/item/{itemId}', { kind: 'item', itemId, marketSite });
    }),
  );

  return router;
}
