import { listingCollectionSchema, type ListingQuery } from '@comps/shared/contract/listing';
import { categoryParamsObject, categoryParamsSchema } from '@comps/shared/contract/listing-params';
import type { Logger } from '@comps/shared/logging/create-logger';
import { defineRoute } from '../../http/route-definition.js';
import { answerOnce } from '../../idempotency/answer-once.js';
import type { IdempotencyStore } from '../../idempotency/idempotency-store.js';
import { CATEGORY_EXAMPLE } from '../examples.js';

const PATH = '/v1/scrape/category';

/** `GET /v1/scrape/category`: one metered browse of a category, answered once per Idempotency-Key. */
export function browseCategoryRoute(deps: { idempotency: IdempotencyStore; logger: Logger }) {
  return defineRoute<ListingQuery>({
    method: 'GET',
    path: PATH,
    operationId: 'browseCategory',
    summary: 'Listings by category',
    tag: 'Listings',
    query: { schema: categoryParamsSchema, fields: categoryParamsObject, message: 'Invalid query parameters' },
    idempotencyKey: true,
    market: 'call',
    errors: ['idempotency_in_progress'],
    facts: { from: 'query', site: true },
    success: { status: 200, schema: listingCollectionSchema, description: 'The listing collection; `query.keyword` is null' },
    example: CATEGORY_EXAMPLE,
    handle: (request) => answerOnce(deps, request, { method: 'GET', path: PATH }, { kind: 'category', query: request.query }),
  });
}
