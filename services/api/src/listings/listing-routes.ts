import { Router, type RouterMiddleware } from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { categoryParamsSchema, IDEMPOTENCY_KEY_PATTERN, itemIdSchema, itemQueryObject, searchParamsSchema } from '@comps/shared/contract/listing-params';
import { marketSiteSchema } from '@comps/shared/contract/market-sites';
import { AppError } from '@comps/shared/errors/app-error';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import type { PrincipalCache } from '../auth/principal-cache.js';
import type { ApiState } from '../http/api-state.js';
import { operationFingerprint, type IdempotencyStore } from '../idempotency/idempotency-store.js';
import { performMarketRequest, type MarketCall, type MarketOutcome, type MarketRequestDeps } from './market-request-service.js';

export interface ListingRouteDeps extends MarketRequestDeps {
  idempotency: IdempotencyStore;
  principals: PrincipalCache;
}

/** The three search paths are one operation under three names (specification, "Endpoints"). */
export const SEARCH_PATHS = ['/v1/scrape', '/public/scrape', '/partner/scrape-market'] as const;

type ApiContext = Context & { state: ApiState };

/** What the history entry says of the request, known even when its parameters are refused. */
function noteRequest(ctx: ApiContext, takesKeyword: boolean): void {
  const raw = ctx.query;
  const site = marketSiteSchema.safeParse(raw.marketSite ?? 'market.com');
  const keyword = raw.keyword;
  ctx.state.history = {
    ...ctx.state.history,
    marketSite: site.success ? site.data : null,
    hasKeyword: takesKeyword && (typeof keyword === 'string' ? keyword.trim().length > 0 : Array.isArray(keyword)),
  };
}

function respond(ctx: ApiContext, status: number, body: string, resultCount: number | null): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
  ctx.state.history = { ...ctx.state.history, resultCount };
}

async function run(ctx: ApiContext, deps: ListingRouteDeps, call: MarketCall): Promise<MarketOutcome> {
  const principal = ctx.state.principal!;
  const outcome = await performMarketRequest(deps, principal, ctx.state.requestId, call, (quota) => {
    ctx.state.quota = quota;
    deps.principals.updateQuota(ctx.state.keyHash!, quota);
  });
  ctx.state.history = { ...ctx.state.history, charged: outcome.charged };
  return outcome;
}

/**
 * Runs the call under the caller's Idempotency-Key when one is sent: a repeat of a success replays
 * it byte for byte, uncharged; a repeat while the first runs, or with other parameters, is a 409.
 */
async function runIdempotently(ctx: ApiContext, deps: ListingRouteDeps, path: string, call: MarketCall): Promise<void> {
  const header = ctx.headers['idempotency-key'];
  if (header === undefined) {
    const outcome = await run(ctx, deps, call);
    return respond(ctx, 200, outcome.body, outcome.resultCount);
  }
  if (Array.isArray(header) || !IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  const { workspaceId } = ctx.state.principal!;
  const owner = ctx.state.requestId;
  const fingerprint = operationFingerprint('GET', path, call);
  const begun = await deps.idempotency.begin(workspaceId, header, fingerprint, owner);
  if (begun.kind === 'replay') {
    ctx.set('Idempotent-Replayed', 'true');
    return respond(ctx, begun.status, begun.body, begun.resultCount);
  }
  if (begun.kind === 'in_progress') {
    throw new AppError('idempotency_in_progress', 'The first request with this Idempotency-Key is still running', { retryAfter: 1 });
  }
  if (begun.kind === 'reused') {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with other parameters');
  }
  let outcome: MarketOutcome;
  try {
    outcome = await run(ctx, deps, call);
  } catch (error) {
    await deps.idempotency.abandon(workspaceId, header, owner).catch((abandonError: unknown) =>
      deps.logger.warn({ err: String(abandonError) }, 'idempotency abandon failed; the key frees itself when its lock expires'),
    );
    throw error;
  }
  await deps.idempotency.complete(workspaceId, header, owner, 200, outcome.body, outcome.resultCount).catch((error: unknown) =>
    deps.logger.warn({ err: String(error) }, 'idempotency record failed; a repeat will run again'),
  );
  respond(ctx, 200, outcome.body, outcome.resultCount);
}

/** Search (and its two aliases), category browse and item lookup. */
export function listingRoutes(deps: ListingRouteDeps, guard: RouterMiddleware<ApiState>[]): Router<ApiState> {
  const router = new Router<ApiState>();

  for (const path of SEARCH_PATHS) {
    router.get(path, ...guard, async (ctx) => {
      noteRequest(ctx, true);
      const query = parseOrThrow(searchParamsSchema, ctx.query, 'Invalid query parameters');
      await runIdempotently(ctx, deps, path, { kind: 'listings', query });
    });
  }

  router.get('/v1/scrape/category', ...guard, async (ctx) => {
    noteRequest(ctx, false);
    const query = parseOrThrow(categoryParamsSchema, ctx.query, 'Invalid query parameters');
    await runIdempotently(ctx, deps, '/v1/scrape/category', { kind: 'listings', query });
  });

  router.get('/v1/item/:itemId', ...guard, async (ctx) => {
    noteRequest(ctx, false);
    const { itemId } = parseOrThrow(z.object({ itemId: itemIdSchema }), { itemId: ctx.params.itemId }, 'Invalid item id');
    const { marketSite } = parseOrThrow(itemQueryObject, ctx.query, 'Invalid query parameters');
    const outcome = await run(ctx, deps, { kind: 'item', itemId, marketSite });
    respond(ctx, 200, outcome.body, outcome.resultCount);
  });

  return router;
}
