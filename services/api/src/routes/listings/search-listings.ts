import { listingCollectionSchema, type ListingQuery } from '@comps/shared/contract/listing';
import { searchParamsObject, searchParamsSchema } from '@comps/shared/contract/listing-params';
import type { Logger } from '@comps/shared/logging/create-logger';
import { defineRoute, type ApiKeyRoute } from '../../http/route-definition.js';
import { answerOnce } from '../../idempotency/answer-once.js';
import type { IdempotencyStore } from '../../idempotency/idempotency-store.js';
import { SEARCH_EXAMPLE } from '../examples.js';

/** The three search paths are one operation under three names (specification, "Endpoints"). */
const SEARCH_OPERATIONS = [
  { path: '/v1/scrape', operationId: 'searchListings', summary: 'Sold (or active) listings by keyword' },
  { path: '/public/scrape', operationId: 'searchListingsPublicAlias', summary: 'Alias of GET /v1/scrape' },
  { path: '/partner/scrape-market', operationId: 'searchListingsPartnerAlias', summary: "Alias of GET /v1/scrape (the upstream gateway's compatibility path)" },
] as const;

/** `GET /v1/scrape` and its two aliases: one metered search, answered once per Idempotency-Key. */
export function searchListingsRoutes(deps: { idempotency: IdempotencyStore; logger: Logger }): Array<ApiKeyRoute<ListingQuery>> {
  return SEARCH_OPERATIONS.map(({ path, operationId, summary }) =>
    defineRoute<ListingQuery>({
      method: 'GET',
      path,
      operationId,
      summary,
      description:
        'One upstream call; up to 200 items. A success (also an empty or short page) is charged one request, once it was received whole; failures are free. Rows below the marketplace\'s "fewer words" divider follow `exactMatch`; a sold search never returns rows without a sold marker.',
      tag: 'Listings',
      query: { schema: searchParamsSchema, fields: searchParamsObject, message: 'Invalid query parameters' },
      idempotencyKey: true,
      market: 'call',
      errors: ['idempotency_in_progress'],
      facts: { from: 'query', searchText: 'keyword', site: true },
      success: { status: 200, schema: listingCollectionSchema, description: 'The listing collection' },
      example: SEARCH_EXAMPLE,
      handle: (request) => answerOnce(deps, request, { method: 'GET', path }, { kind: 'search', query: request.query }),
    }),
  );
}
