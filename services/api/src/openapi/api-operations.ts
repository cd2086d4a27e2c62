import { z } from 'zod';
import { capabilitiesSchema } from '@comps/shared/contract/capabilities';
import type { ErrorCode } from '@comps/shared/contract/error-codes';
import { itemDetailsSchema, listingCollectionSchema } from '@comps/shared/contract/listing';
import { categoryParamsObject, itemIdSchema, itemQueryObject, searchParamsObject } from '@comps/shared/contract/listing-params';
import { historyPageSchema, historyQuerySchema } from '@comps/shared/contract/request-history';
import { usageSchema } from '@comps/shared/contract/usage';
import { bulkSearchBodyObject } from '@comps/shared/contract/bulk-search';
import { jobCreateBodySchema, jobIdSchema, jobListSchema, jobRecordSchema, jobResultsQuerySchema } from '@comps/shared/contract/job';
import { SEARCH_PATHS } from '../listings/listing-routes.js';

/** One public operation, as the OpenAPI document describes it; the document is built from these. */
export interface OperationDoc {
  method: 'get' | 'post' | 'delete';
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
  /** A JSON request body. */
  body?: z.ZodObject;
  success: {
    schema: z.ZodType | null;
    description: string;
    /** 200 unless said. */
    status?: number;
    /** application/json unless said. */
    contentType?: string;
    /** Another success answer of the same operation (an idempotent repeat). */
    also?: { status: number; description: string };
  };
  errors: ErrorCode[];
  /** What a call looks like and answers; the reference at /docs shows it. */
  example?: OperationExample;
}

/** One example call: the values a caller sends and the success it gets (a JSON value, or a CSV's text). */
export interface OperationExample {
  request?: { query?: Record<string, string | number | boolean>; path?: Record<string, string>; body?: Record<string, unknown> };
  response: unknown;
}

/*
 * Examples, checked against the success schemas by test/dashboard/openapi-examples.test.ts. One
 * made-up search (the simulator's kind of data): two sold listings of a console.
 */
const EXAMPLE_TIME = '2026-11-21T10:04:05.123Z';
const EXAMPLE_SOURCE = { marketSite: 'market.com', fetchedAt: EXAMPLE_TIME, upstreamMs: 812 };
const EXAMPLE_REQUEST_ID = 'req_01KAJ5Z8Q7X3M2K9V4T6R8N1B0';
const EXAMPLE_JOB_ID = '3f1c9a52-7b4e-4d1a-9c3e-5a8b2d6f0e17';
const EXAMPLE_ITEM = {
  itemId: '256712345678',
  title: 'Nintendo Switch OLED Model 64GB White Console with Dock',
  url: 'https://www.market.com/itm/256712345678',
  imageUrl: 'https://i.marketimg.com/images/g/QkAAAOSw/s-l500.jpg',
  condition: 'Pre-Owned',
  sold: true,
  soldDate: '2026-11-18',
  soldDateText: 'Sold  Nov 18, 2026',
  soldDateVerified: false,
  price: { value: 249.99, currency: 'USD' },
  priceText: '$249.99',
  priceIsDisplayedOnly: false,
  bestOfferAccepted: false,
  buyingFormat: 'buyItNow',
  bidCount: null,
  shipping: { value: 0, currency: 'USD' },
  shippingText: 'Free delivery',
  seller: { username: 'retro_resale_co', feedbackScore: 15234, positivePercent: 99.6 },
  location: 'United States',
  looseMatch: false,
};
const EXAMPLE_AUCTION_ITEM = {
  ...EXAMPLE_ITEM,
  itemId: '256798765432',
  title: 'Nintendo Switch OLED 64GB Neon Red/Blue, boxed',
  url: 'https://www.market.com/itm/256798765432',
  imageUrl: 'https://i.marketimg.com/images/g/Zt4AAOSw/s-l500.jpg',
  soldDate: '2026-11-17',
  soldDateText: 'Sold  Nov 17, 2026',
  price: { value: 231, currency: 'USD' },
  priceText: '$231.00',
  buyingFormat: 'auction',
  bidCount: 23,
  shipping: { value: 12.5, currency: 'USD' },
  shippingText: '+$12.50 delivery',
  seller: { username: 'k_and_j_games', feedbackScore: 412, positivePercent: 100 },
};
const EXAMPLE_QUERY = {
  keyword: 'nintendo switch oled', marketSite: 'market.com', categoryId: '0', page: 1, count: 2, sold: true, itemCondition: 'any',
  sortOrder: 'endedRecently', minPrice: null, maxPrice: null, buyingFormat: 'all', exactMatch: true,
};
const EXAMPLE_QUALITY = { soldDatesVerified: false, displayedOnlyPrices: 0, bestOfferAccepted: 0, looseMatchesExcluded: 3, rowsDropped: 0 };
const SEARCH_EXAMPLE: OperationExample = {
  request: { query: { keyword: 'nintendo switch oled', count: 2 } },
  response: {
    items: [EXAMPLE_ITEM, EXAMPLE_AUCTION_ITEM],
    pagination: { page: 1, count: 2, returned: 2, totalResults: 1843, hasNextPage: true },
    dataQuality: EXAMPLE_QUALITY,
    query: EXAMPLE_QUERY,
    source: EXAMPLE_SOURCE,
    requestId: EXAMPLE_REQUEST_ID,
  },
};
const CATEGORY_EXAMPLE: OperationExample = {
  request: { query: { categoryId: '139971', count: 1 } },
  response: {
    items: [EXAMPLE_ITEM],
    pagination: { page: 1, count: 1, returned: 1, totalResults: 52311, hasNextPage: true },
    dataQuality: { ...EXAMPLE_QUALITY, looseMatchesExcluded: 0 },
    query: { ...EXAMPLE_QUERY, keyword: null, categoryId: '139971', count: 1 },
    source: EXAMPLE_SOURCE,
    requestId: EXAMPLE_REQUEST_ID,
  },
};
const { looseMatch: _looseMatch, ...EXAMPLE_ITEM_FIELDS } = EXAMPLE_ITEM;
const ITEM_EXAMPLE: OperationExample = {
  request: { path: { itemId: EXAMPLE_ITEM.itemId } },
  response: {
    ...EXAMPLE_ITEM_FIELDS,
    marketSite: 'market.com',
    status: 'sold',
    images: [EXAMPLE_ITEM.imageUrl, 'https://i.marketimg.com/images/g/QkAAAOSw/s-l1600.jpg'],
    categoryPath: ['Video Games & Consoles', 'Video Game Consoles'],
    itemSpecifics: { Brand: 'Nintendo', Model: 'Nintendo Switch OLED', 'Storage Capacity': '64 GB', Colour: 'White' },
    quantitySold: 1,
    endedAt: '2026-11-18T19:22:10.000Z',
    source: EXAMPLE_SOURCE,
    requestId: EXAMPLE_REQUEST_ID,
  },
};
const CAPABILITIES_EXAMPLE: OperationExample = {
  response: {
    version: '1.0.0',
    dataGate: { sold: 'open', active: 'open', item: 'open' },
    sites: [
      { marketSite: 'market.com', enabled: true, currency: 'USD' },
      { marketSite: 'market.co.uk', enabled: true, currency: 'GBP' },
      { marketSite: 'market.de', enabled: false, currency: 'EUR' },
    ],
    limits: {
      count: { min: 1, max: 200, default: 60 }, page: { min: 1, max: 100 }, jobPages: { min: 1, max: 100, default: 50 }, activeJobsPerWorkspace: 1,
      jobRetentionHours: 24, historyRetentionDays: 30, historyPageSize: { min: 1, max: 100, default: 50 }, bulkKeywords: { min: 1, max: 20 },
    },
    unsupported: ['verifiedSaleDateFilter', 'acceptedOfferPriceHydration', 'emailedExports', 'thirdPartyGatewayAuth'],
  },
};
const OPENAPI_EXAMPLE: OperationExample = {
  response: { openapi: '3.1.0', info: { title: 'Comps API: sold-listings data', version: '1.0.0' }, paths: { '/v1/scrape': { get: { operationId: 'searchListings' } } } },
};
const USAGE_EXAMPLE: OperationExample = {
  response: {
    workspaceId: 'ws_01KAJ5Y2C8P4R7T1V3X5Z7B9D1',
    plan: { id: 'starter', name: 'Starter', monthlyQuota: 10000, rateLimit: { requests: 60, windowSeconds: 60 }, concurrency: 5, activeJobs: 1 },
    period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
    used: 123,
    remaining: 9877,
  },
};
const EXAMPLE_HISTORY_ENTRY = {
  requestId: EXAMPLE_REQUEST_ID, createdAt: EXAMPLE_TIME, method: 'GET', path: '/v1/scrape', status: 200, code: null, charged: 1, durationMs: 845,
  marketSite: 'market.com', keyword: '[redacted]', resultCount: 2, jobId: null, apiKeyPrefix: 'sk_4fQ9zA',
};
const HISTORY_EXAMPLE: OperationExample = {
  request: { query: { limit: 2, from: '2026-11-01' } },
  response: {
    entries: [
      EXAMPLE_HISTORY_ENTRY,
      { ...EXAMPLE_HISTORY_ENTRY, requestId: 'req_01KAJ5X1R2S3T4V5W6X7Y8Z9A0', createdAt: '2026-11-21T10:01:47.020Z', path: '/v1/item/{itemId}', status: 404, code: 'item_not_found', charged: 0, durationMs: 391, keyword: null, resultCount: null },
    ],
    nextCursor: 'eyJ3Ijoid3NfMDFLQUo1WTJDOFA0IiwiYiI6InJlcV8wMUtBSjVYMVIyUzMifQ',
  },
};
const EXAMPLE_JOB = {
  jobId: EXAMPLE_JOB_ID, status: 'running', stopReason: null,
  request: { keyword: 'nintendo switch oled', marketSite: 'market.com', maxPages: 10, count: 200, resultType: 'inline' },
  progress: { pagesFetched: 3, pagesCharged: 3, itemsCollected: 600 },
  error: null, createdAt: EXAMPLE_TIME, startedAt: '2026-11-21T10:04:05.480Z', finishedAt: null, expiresAt: null,
  resultsUrl: `/v1/scrape/max/results/${EXAMPLE_JOB_ID}`, downloadUrl: `/v1/scrape/max/${EXAMPLE_JOB_ID}/download.csv`,
};
const JOB_CREATE_EXAMPLE: OperationExample = {
  request: { body: { keyword: 'nintendo switch oled', maxPages: 10 } },
  response: { ...EXAMPLE_JOB, status: 'queued', progress: { pagesFetched: 0, pagesCharged: 0, itemsCollected: 0 }, startedAt: null, items: [], itemsPage: { offset: 0, limit: 1000, total: 0 } },
};
const JOB_LIST_EXAMPLE: OperationExample = { response: { jobs: [EXAMPLE_JOB] } };
const JOB_RESULTS_EXAMPLE: OperationExample = {
  request: { path: { jobId: EXAMPLE_JOB_ID }, query: { offset: 0, limit: 1 } },
  response: { ...EXAMPLE_JOB, items: [{ ...EXAMPLE_ITEM, page: 1 }], itemsPage: { offset: 0, limit: 1, total: 600 } },
};
const JOB_CANCEL_EXAMPLE: OperationExample = {
  request: { path: { jobId: EXAMPLE_JOB_ID } },
  response: { ...EXAMPLE_JOB, status: 'cancelled', stopReason: 'cancelled', finishedAt: '2026-11-21T10:05:12.004Z', expiresAt: '2026-11-22T10:05:12.004Z', items: [], itemsPage: { offset: 0, limit: 1000, total: 600 } },
};
const JOB_CSV_EXAMPLE: OperationExample = {
  request: { path: { jobId: EXAMPLE_JOB_ID } },
  response:
    'page,itemId,title,url,soldDate,soldDateVerified,price,currency,priceIsDisplayedOnly,bestOfferAccepted,shipping,buyingFormat,bidCount,condition,sellerUsername,location,looseMatch\r\n' +
    '1,256712345678,Nintendo Switch OLED Model 64GB White Console with Dock,https://www.market.com/itm/256712345678,2026-11-18,false,249.99,USD,false,false,0,buyItNow,,Pre-Owned,retro_resale_co,United States,false\r\n',
};
const eventStream = (events: Array<[string, unknown]>) => events.map(([event, data], index) => `id: ${index + 1}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
const BULK_EXAMPLE: OperationExample = {
  request: { body: { keywords: ['nintendo switch oled', 'steam deck 512gb'], count: 1 } },
  response: eventStream([
    ['progress', { completed: 0, total: 2, succeeded: 0, failed: 0 }],
    ['result', { index: 0, keyword: 'nintendo switch oled', requestId: EXAMPLE_REQUEST_ID, items: [EXAMPLE_ITEM], pagination: { page: 1, count: 1, returned: 1, totalResults: 1843, hasNextPage: true }, dataQuality: EXAMPLE_QUALITY }],
    ['progress', { completed: 1, total: 2, succeeded: 1, failed: 0 }],
    ['error', { index: 1, keyword: 'steam deck 512gb', requestId: 'req_01KAJ5Z9B1C2D3E4F5G6H7J8K9', error: 'The marketplace did not answer in time', code: 'upstream_timeout', retryAfter: 5 }],
    ['progress', { completed: 2, total: 2, succeeded: 1, failed: 1 }],
    ['complete', { total: 2, succeeded: 1, failed: 1, charged: 1 }],
  ]),
};

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
const JOB_ERRORS: ErrorCode[] = ['invalid_request', ...AUTH_ERRORS, 'job_not_found'];
const jobPath = z.object({ jobId: jobIdSchema });

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
  example: SEARCH_EXAMPLE,
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
    example: CATEGORY_EXAMPLE,
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
    example: ITEM_EXAMPLE,
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
    example: CAPABILITIES_EXAMPLE,
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
    example: OPENAPI_EXAMPLE,
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
    example: USAGE_EXAMPLE,
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
    example: HISTORY_EXAMPLE,
  },
  {
    method: 'post',
    path: '/v1/scrape/max',
    operationId: 'createJob',
    summary: 'Start a background search job over many pages',
    description:
      'Answers 202 with the queued job; a worker fetches its pages in turn with other jobs. Each successful page is charged one request; at most `maxPages` pages are fetched. One queued or running job per workspace. A repeat with the same `Idempotency-Key` and body answers 200 with the same job and creates nothing. When unsure whether a submission succeeded, list the jobs (GET /v1/scrape/max) before submitting again.',
    tags: ['Jobs'],
    authenticated: true,
    idempotencyKey: true,
    body: jobCreateBodySchema,
    success: { schema: jobRecordSchema, description: 'The queued job', status: 202, also: { status: 200, description: 'The job an earlier request with the same Idempotency-Key and body created' } },
    errors: ['invalid_request', ...AUTH_ERRORS, 'invalid_idempotency_key', 'idempotency_key_reused', 'quota_exhausted', 'active_job_exists', 'payload_too_large', 'unsupported_media_type'],
    example: JOB_CREATE_EXAMPLE,
  },
  {
    method: 'get',
    path: '/v1/scrape/max',
    operationId: 'listJobs',
    summary: "The workspace's jobs within retention, newest first (beyond the specification)",
    tags: ['Jobs'],
    authenticated: true,
    success: { schema: jobListSchema, description: 'The jobs, without their items' },
    errors: AUTH_ERRORS,
    example: JOB_LIST_EXAMPLE,
  },
  {
    method: 'get',
    path: '/v1/scrape/max/results/:jobId',
    operationId: 'getJobResults',
    summary: 'Job status and the items collected so far',
    description: 'In every state, until `expiresAt` (24 hours after the job ended). Jobs with `resultType: download` return `items: []`: read them through the CSV.',
    tags: ['Jobs'],
    authenticated: true,
    pathParams: jobPath,
    query: jobResultsQuerySchema,
    success: { schema: jobRecordSchema, description: 'The job and a page of its items' },
    errors: JOB_ERRORS,
    example: JOB_RESULTS_EXAMPLE,
  },
  {
    method: 'delete',
    path: '/v1/scrape/max/:jobId',
    operationId: 'cancelJob',
    summary: 'Cancel a job',
    description: 'A queued job ends at once; a running one after its page in flight, which is charged if it succeeds.',
    tags: ['Jobs'],
    authenticated: true,
    pathParams: jobPath,
    success: { schema: jobRecordSchema, description: 'The job' },
    errors: [...JOB_ERRORS, 'job_finished'],
    example: JOB_CANCEL_EXAMPLE,
  },
  {
    method: 'get',
    path: '/v1/scrape/max/:jobId/download.csv',
    operationId: 'downloadJobCsv',
    summary: "The job's items as CSV",
    description:
      'RFC 4180, UTF-8, a header row always, one row per item, streamed; available while the job runs (what is collected so far) and after. Columns: page, itemId, title, url, soldDate, soldDateVerified, price, currency, priceIsDisplayedOnly, bestOfferAccepted, shipping, buyingFormat, bidCount, condition, sellerUsername, location, looseMatch. A cell that starts with =, +, - or @ is prefixed with an apostrophe.',
    tags: ['Jobs'],
    authenticated: true,
    pathParams: jobPath,
    success: { schema: null, description: 'The CSV', contentType: 'text/csv; charset=utf-8' },
    errors: JOB_ERRORS,
    example: JOB_CSV_EXAMPLE,
  },
  {
    method: 'post',
    path: '/api/bulk-search',
    operationId: 'bulkSearch',
    summary: '1 to 20 keyword searches in one call, streamed as server-sent events',
    description:
      'Every bad body, a missing key and a rate limit already reached answer with the JSON error before any stream starts. Otherwise `200 text/event-stream`: `progress` at the start and after each keyword, one `result` or `error` per keyword (each with its own `requestId`), `complete` last; every event has an `id:` and JSON `data:`, and a `: keep-alive` comment goes out at least every 15 seconds. Each successful keyword is charged one request; keywords run concurrently up to the workspace\'s concurrency and count against its rate (waiting for the next window when it comes within a minute). A caller that disconnects stops the search: keywords not started never start, those in flight are charged nothing.',
    tags: ['Listings'],
    authenticated: true,
    body: bulkSearchBodyObject,
    success: { schema: null, description: 'The event stream', contentType: 'text/event-stream' },
    errors: ['invalid_request', ...AUTH_ERRORS, 'payload_too_large', 'unsupported_media_type'],
    example: BULK_EXAMPLE,
  },
];
