import { Router } from '@koa/router';
import { bulkKeywordQuery, bulkSearchBodySchema } from '@comps/shared/contract/bulk-search';
import { marketSiteSchema } from '@comps/shared/contract/market-sites';
import { parseOrThrow } from '@comps/shared/errors/zod-details';
import { authenticatedRoute, type AuthenticatedRouteDeps } from '../http/authenticated-route.js';
import type { ApiRequest, RequestFacts } from '../http/route-result.js';
import { BULK_PATH, runBulkSearch, type BulkSearchDeps } from './run-bulk-search.js';

/** What the history entry of a bulk search refused before it streamed says (each keyword that ran has its own). */
function bulkFacts({ body }: Pick<ApiRequest, 'body'>): RequestFacts {
  const fields = (body ?? {}) as { keywords?: unknown; marketSite?: unknown };
  const site = marketSiteSchema.safeParse(fields.marketSite ?? 'market.com');
  return { marketSite: site.success ? site.data : null, hasKeyword: Array.isArray(fields.keywords) && fields.keywords.length > 0 };
}

/** `POST /api/bulk-search`: 1 to 20 keyword searches in one call, streamed as server-sent events. */
export function bulkSearchRoutes(deps: { route: AuthenticatedRouteDeps } & BulkSearchDeps): Router {
  const router = new Router();
  router.post(
    BULK_PATH,
    authenticatedRoute(deps.route, { describe: bulkFacts, json: true }, async (request) => {
      // Every refusal (a bad body, the rate) is the normal JSON error, before any stream starts.
      const body = parseOrThrow(bulkSearchBodySchema, request.body, 'Invalid request body');
      // A closed data gate or a site not enabled is one answer, not an error event per keyword.
      const refusal = deps.meter.refusalFor({ kind: 'search', query: bulkKeywordQuery(body, body.keywords[0]!) });
      if (refusal) throw refusal;
      const run = runBulkSearch(deps, { principal: request.principal, body, signal: request.signal });
      return {
        status: 200,
        body: null,
        stream: { contentType: 'text/event-stream; charset=utf-8', body: run.stream.body },
        // Proxies must neither buffer nor transform the stream.
        headers: { 'Cache-Control': 'no-store, no-transform', 'X-Accel-Buffering': 'no' },
        laterRecords: run.records,
      };
    }),
  );
  return router;
}
