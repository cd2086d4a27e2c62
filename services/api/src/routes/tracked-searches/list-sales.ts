import type { z } from 'zod';
import { saleListSchema, salesQueryObject, salesQuerySchema, type SalesQuery } from '@comps/shared/contract/tracked-search';
import type { JobsClient } from '@comps/shared/internal/jobs/jobs-client';
import { defineRoute, NO_STORE } from '../../http/route-definition.js';
import { SALES_EXAMPLE } from '../examples.js';
import { TRACKED_SEARCH_PATH } from './tracked-search-path.js';

/** `GET /v1/tracked-searches/{trackedSearchId}/sales`: its archive, a page at a time. */
export function listSalesRoute(deps: { jobs: JobsClient }) {
  return defineRoute<SalesQuery, z.output<typeof TRACKED_SEARCH_PATH.schema>>({
    method: 'GET',
    path: '/v1/tracked-searches/{trackedSearchId}/sales',
    operationId: 'listTrackedSearchSales',
    summary: "A tracked search's archived sales, newest sold first",
    description: 'Every sale its runs found, kept for years (past the marketplace\'s 90 days), each once, as first seen. `nextCursor` reads the next page, null after the last.',
    tag: 'Tracked searches',
    params: TRACKED_SEARCH_PATH,
    query: { schema: salesQuerySchema, fields: salesQueryObject, message: 'Invalid query parameters' },
    errors: ['tracked_search_not_found'],
    success: { status: 200, schema: saleListSchema, description: 'A page of sales' },
    example: SALES_EXAMPLE,
    handle: async (request) => {
      const sales = await deps.jobs.trackedSearches.sales.query({ workspaceId: request.principal.workspaceId, trackedSearchId: request.params.trackedSearchId, ...request.query });
      return { kind: 'json', status: 200, body: sales, headers: NO_STORE, resultCount: sales.sales.length };
    },
  });
}
