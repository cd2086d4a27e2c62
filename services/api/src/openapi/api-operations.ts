import { z } from 'zod';
import { capabilitiesSchema } from '@comps/shared/contract/capabilities';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import { itemDetailsSchema, listingCollectionSchema } from '@comps/shared/contract/listing';
import { categoryParamsObject, itemIdSchema, itemQueryObject, searchParamsObject } from '@comps/shared/contract/listing-params';
import { historyPageSchema, historyQuerySchema } from '@comps/shared/contract/request-history';
import { usageSchema } from '@comps/shared/contract/usage';
import { SEARCH_PATHS } from '../listings/listing-routes.js';

/** One public operation, as the OpenAPI document describes it; the document is built from these. */
export interface OperationDoc {
  method: 'get';
  /** The path in router syntax (`/v1/item/:itemId`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  authenticated: boolean;
  query?: z.ZodObject;
  pathParams?: z.ZodObject;
  idempotencyKey?: boolean;
  success: { schema: z.ZodType | null; description: string };
  errors: ErrorCode[];
}

const AUTH_ERRORS: ErrorCode[] = ['unauthorized', 'rate_limited', 'service_unavailable', 'internal_error'];
const MARKET_ERRORS: ErrorCode[] = [
  'invalid_request',
  ...AUTH_ERRORS,
  'quota_exhausted',
  'site_not_enabled',
  'concurrency_limited',
  'upstream_error',
  'upstream_blocked',
  'upstream_rate_limited',
  'data_gate_closed',
  'upstream_timeout',
];
const IDEMPOTENCY_ERRORS: ErrorCode[] = ['invalid_idempotency_key', 'idempotency_key_reused', 'idempotency_in_progress'];

const searchOperation = (path: string, operationId: string, summary: string): OperationDoc => ({
  method: 'get',
  path,
  operationId,
  summary,
  description:
    'One upstream call; up to 200 items. A success (also an empty or short page) is charged one request; failures are free. Rows below the marketplace\'s "fewer words" divider follow `exactMatch`; a sold search never returns rows without a sold marker.',
  tags: ['Listings'],
  authenticated: true,
  query: searchParamsObject,
  idempotencyKey: true,
  success: { schema: listingCollectionSchema, description: 'The listing collection' },
  errors: [...MARKET_ERRORS, ...IDEMPOTENCY_ERRORS],
});

export const API_OPERATIONS: OperationDoc[] = [
  searchOperation(SEARCH_PATHS[0], 'searchListings', 'Sold (or active) listings by keyword'),
  searchOperation(SEARCH_PATHS[1], 'searchListingsPublicAlias', 'Alias of GET /v1/scrape'),
  searchOperation(SEARCH_PATHS[2], 'searchListingsPartnerAlias', 'Alias of GET /v1/scrape (the upstream gateway\'s compatibility path)'),
  {
    method: 'get',
    path: '/v1/scrape/category',
    operationId: 'browseCategory',
    summary: 'Listings by category',
    tags: ['Listings'],
    authenticated: true,
    query: categoryParamsObject,
    idempotencyKey: true,
    success: { schema: listingCollectionSchema, description: 'The listing collection; `query.keyword` is null' },
    errors: [...MARKET_ERRORS, ...IDEMPOTENCY_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/item/:itemId',
    operationId: 'getItem',
    summary: 'One item by its id',
    description: 'A separate charged request.',
    tags: ['Listings'],
    authenticated: true,
    pathParams: z.object({ itemId: itemIdSchema }),
    query: itemQueryObject,
    success: { schema: itemDetailsSchema, description: 'The item details' },
    errors: [...MARKET_ERRORS, 'item_not_found'],
  },
  {
    method: 'get',
    path: '/v1/capabilities',
    operationId: 'getCapabilities',
    summary: 'Data gate, enabled sites, limits and unsupported capabilities',
    tags: ['Service'],
    authenticated: false,
    success: { schema: capabilitiesSchema, description: 'The capabilities' },
    errors: ['internal_error'],
  },
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    tags: ['Service'],
    authenticated: false,
    success: { schema: null, description: 'The OpenAPI 3.1 document' },
    errors: ['internal_error'],
  },
  {
    method: 'get',
    path: '/usage',
    operationId: 'getUsage',
    summary: 'Plan and quota of the caller',
    description: 'Not charged.',
    tags: ['Account'],
    authenticated: true,
    success: { schema: usageSchema, description: 'The usage' },
    errors: AUTH_ERRORS,
  },
  {
    method: 'get',
    path: '/requests',
    operationId: 'listRequests',
    summary: 'Request history of the caller, newest first',
    description: 'Entries are kept 30 days; search text is recorded only as `[redacted]`. Pass `nextCursor` back as `cursor` for the next page.',
    tags: ['Account'],
    authenticated: true,
    query: historyQuerySchema,
    success: { schema: historyPageSchema, description: 'A page of the request history' },
    errors: ['invalid_request', ...AUTH_ERRORS],
  },
];
