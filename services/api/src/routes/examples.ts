import { compsOfItem, compsOfListings } from '@comps/shared/comps/listing-comps';
import { CSV_HEADER, csvRow, SALES_CSV_HEADER, saleCsvRow } from '@comps/shared/contract/job-csv';
import type { JobItem } from '@comps/shared/contract/job';
import type { ListingRow } from '@comps/shared/contract/listing';
import { trackedSearchLinks, type Run, type Sale, type TrackedSearch } from '@comps/shared/contract/tracked-search';
import type { Delivery, Webhook } from '@comps/shared/contract/webhook';
import type { OperationExample } from '../http/route-definition.js';

/*
 * Examples, checked against the success schemas by test/in-process/api/openapi-examples.test.ts. One
 * made-up search (the simulator's kind of data): two sold listings of a console.
 */
const EXAMPLE_TIME = '2026-11-21T10:04:05.123Z';
const EXAMPLE_SOURCE = { marketSite: 'market.com', fetchedAt: EXAMPLE_TIME, upstreamMs: 812 };
const EXAMPLE_REQUEST_ID = 'req_01KAJ5Z8Q7X3M2K9V4T6R8N1B0';
const EXAMPLE_JOB_ID = '3f1c9a52-7b4e-4d1a-9c3e-5a8b2d6f0e17';
const EXAMPLE_ROW: ListingRow = {
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
const EXAMPLE_AUCTION_ROW: ListingRow = {
  ...EXAMPLE_ROW,
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
  sortOrder: 'endedRecently', minPrice: null, maxPrice: null, buyingFormat: 'all', exactMatch: true, statsInclude: [],
} as const;
// Each example's comps come from the module that computes them, so the reference shows what a call gives.
const compsOf = (rows: ListingRow[], keyword: string | null) => compsOfListings(rows, { keyword, site: 'market.com', basis: 'sold', include: [] });
const SEARCH_COMPS = compsOf([EXAMPLE_ROW, EXAMPLE_AUCTION_ROW], EXAMPLE_QUERY.keyword);
const CATEGORY_COMPS = compsOf([EXAMPLE_ROW], null);
const EXAMPLE_ITEM = CATEGORY_COMPS.items[0]!;
const EXAMPLE_QUALITY = { soldDatesVerified: false, displayedOnlyPrices: 0, bestOfferAccepted: 0, looseMatchesExcluded: 3, rowsDropped: 0, rowsReadStructurally: 0 };
export const SEARCH_EXAMPLE: OperationExample = {
  request: { query: { keyword: 'nintendo switch oled', count: 2 } },
  response: {
    items: SEARCH_COMPS.items,
    pagination: { page: 1, count: 2, returned: 2, totalResults: 1843, hasNextPage: true },
    dataQuality: EXAMPLE_QUALITY,
    stats: SEARCH_COMPS.stats,
    query: EXAMPLE_QUERY,
    source: EXAMPLE_SOURCE,
    requestId: EXAMPLE_REQUEST_ID,
  },
};
export const CATEGORY_EXAMPLE: OperationExample = {
  request: { query: { categoryId: '139971', count: 1 } },
  response: {
    items: CATEGORY_COMPS.items,
    pagination: { page: 1, count: 1, returned: 1, totalResults: 52311, hasNextPage: true },
    dataQuality: { ...EXAMPLE_QUALITY, looseMatchesExcluded: 0 },
    stats: CATEGORY_COMPS.stats,
    query: { ...EXAMPLE_QUERY, keyword: null, categoryId: '139971', count: 1 },
    source: EXAMPLE_SOURCE,
    requestId: EXAMPLE_REQUEST_ID,
  },
};
const { looseMatch: _looseMatch, ...EXAMPLE_ITEM_FIELDS } = EXAMPLE_ROW;
export const ITEM_EXAMPLE: OperationExample = {
  request: { path: { itemId: EXAMPLE_ITEM.itemId } },
  response: {
    ...EXAMPLE_ITEM_FIELDS,
    comps: compsOfItem(EXAMPLE_ITEM_FIELDS, 'market.com'),
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
export const CAPABILITIES_EXAMPLE: OperationExample = {
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
      trackedSearches: 100, webhookEndpoints: 20,
    },
    unsupported: ['verifiedSaleDateFilter', 'acceptedOfferPriceHydration', 'emailedExports', 'thirdPartyGatewayAuth'],
    features: ['comps', 'sellThrough', 'trackedSearches', 'webhooks'],
  },
};
export const OPENAPI_EXAMPLE: OperationExample = {
  response: { openapi: '3.1.0', info: { title: 'Comps API: sold-listings data', version: '1.0.0' }, paths: { '/v1/scrape': { get: { operationId: 'searchListings' } } } },
};
export const USAGE_EXAMPLE: OperationExample = {
  response: {
    workspaceId: 'ws_01KAJ5Y2C8P4R7T1V3X5Z7B9D1',
    plan: { id: 'starter', name: 'Starter', monthlyQuota: 10000, rateLimit: { requests: 60, windowSeconds: 60 }, concurrency: 5, activeJobs: 1, trackedSearches: 10, webhookEndpoints: 5 },
    period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
    used: 123,
    remaining: 9877,
  },
};
const EXAMPLE_HISTORY_ENTRY = {
  requestId: EXAMPLE_REQUEST_ID, createdAt: EXAMPLE_TIME, method: 'GET', path: '/v1/scrape', status: 200, code: null, charged: 1, durationMs: 845,
  marketSite: 'market.com', keyword: '[redacted]', resultCount: 2, jobId: null, apiKeyPrefix: 'sk_4fQ9zA',
};
export const HISTORY_EXAMPLE: OperationExample = {
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
  request: { keyword: 'nintendo switch oled', marketSite: 'market.com', maxPages: 10, count: 200, resultType: 'inline', statsInclude: [] },
  progress: { pagesFetched: 3, pagesCharged: 3, itemsCollected: 600 },
  error: null, createdAt: EXAMPLE_TIME, startedAt: '2026-11-21T10:04:05.480Z', finishedAt: null, expiresAt: null,
  resultsUrl: `/v1/scrape/max/results/${EXAMPLE_JOB_ID}`, downloadUrl: `/v1/scrape/max/${EXAMPLE_JOB_ID}/download.csv`,
};
/** The job's 600 items: the two example listings again and again, each copy its own listing, sold for a little more or less. */
const JOB_ROWS: ListingRow[] = Array.from({ length: 600 }, (_, index) => {
  const row = index % 2 === 0 ? EXAMPLE_ROW : EXAMPLE_AUCTION_ROW;
  const value = Math.round(row.price!.value * (0.85 + ((index * 37) % 31) / 100) * 100) / 100;
  return { ...row, itemId: String(256700000000 + index), price: { value, currency: 'USD' }, priceText: `$${value.toFixed(2)}` };
});
const JOB_COMPS = compsOf(JOB_ROWS, EXAMPLE_QUERY.keyword);
export const JOB_CREATE_EXAMPLE: OperationExample = {
  request: { body: { keyword: 'nintendo switch oled', maxPages: 10 } },
  response: { ...EXAMPLE_JOB, status: 'queued', progress: { pagesFetched: 0, pagesCharged: 0, itemsCollected: 0 }, startedAt: null, stats: compsOf([], EXAMPLE_QUERY.keyword).stats, items: [], itemsPage: { offset: 0, limit: 1000, total: 0 } },
};
export const JOB_LIST_EXAMPLE: OperationExample = { response: { jobs: [EXAMPLE_JOB] } };
export const JOB_RESULTS_EXAMPLE: OperationExample = {
  request: { path: { jobId: EXAMPLE_JOB_ID }, query: { offset: 0, limit: 1 } },
  response: { ...EXAMPLE_JOB, stats: JOB_COMPS.stats, items: [{ ...JOB_COMPS.items[0]!, page: 1 }], itemsPage: { offset: 0, limit: 1, total: 600 } },
};
export const JOB_CANCEL_EXAMPLE: OperationExample = {
  request: { path: { jobId: EXAMPLE_JOB_ID } },
  response: { ...EXAMPLE_JOB, status: 'cancelled', stopReason: 'cancelled', finishedAt: '2026-11-21T10:05:12.004Z', expiresAt: '2026-11-22T10:05:12.004Z', stats: JOB_COMPS.stats, items: [], itemsPage: { offset: 0, limit: 1000, total: 600 } },
};
export const JOB_CSV_EXAMPLE: OperationExample = {
  request: { path: { jobId: EXAMPLE_JOB_ID } },
  // Written by the CSV writer itself, so the reference shows exactly what a download holds.
  response: CSV_HEADER + csvRow({ ...JOB_COMPS.items[0]!, page: 1 } as JobItem),
};
const BULK_COMPS = compsOf([EXAMPLE_ROW], 'nintendo switch oled');
const eventStream = (events: Array<[string, unknown]>) => events.map(([event, data], index) => `id: ${index + 1}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
export const BULK_EXAMPLE: OperationExample = {
  request: { body: { keywords: ['nintendo switch oled', 'steam deck 512gb'], count: 1 } },
  response: eventStream([
    ['progress', { completed: 0, total: 2, succeeded: 0, failed: 0 }],
    ['result', { index: 0, keyword: 'nintendo switch oled', requestId: EXAMPLE_REQUEST_ID, items: BULK_COMPS.items, pagination: { page: 1, count: 1, returned: 1, totalResults: 1843, hasNextPage: true }, dataQuality: EXAMPLE_QUALITY, stats: BULK_COMPS.stats }],
    ['progress', { completed: 1, total: 2, succeeded: 1, failed: 0 }],
    ['error', { index: 1, keyword: 'steam deck 512gb', requestId: 'req_01KAJ5Z9B1C2D3E4F5G6H7J8K9', error: 'The marketplace did not answer in time', code: 'upstream_timeout', retryAfter: 5 }],
    ['progress', { completed: 2, total: 2, succeeded: 1, failed: 1 }],
    ['complete', { total: 2, succeeded: 1, failed: 1, charged: 1 }],
  ]),
};

export const SELL_THROUGH_EXAMPLE: OperationExample = {
  request: { query: { keyword: 'nintendo switch oled' } },
  response: {
    sold: { totalResults: 18425 },
    active: { totalResults: 30708 },
    sellThrough: 0.375,
    definition: "sold / (sold + active); sold listings cover the marketplace's last 90 days",
    query: { keyword: 'nintendo switch oled', marketSite: 'market.com', categoryId: '0', itemCondition: 'any', minPrice: null, maxPrice: null, buyingFormat: 'all', exactMatch: true },
    requestId: EXAMPLE_REQUEST_ID,
  },
};

const EXAMPLE_TRACKED_SEARCH_ID = 'ts_01JD3M8Q2W5T7Y9B1C4F6H8K0N';
const EXAMPLE_TRACKED_PATH = { trackedSearchId: EXAMPLE_TRACKED_SEARCH_ID };
/** Its last scheduled run: two pages, the second of which held no sale the archive lacked. */
const EXAMPLE_RUN: Run = {
  runId: 'run_01JDW2R7C5X9A3E6G8J1M4P7S0', trigger: 'schedule', status: 'completed', stopReason: 'caught_up', pagesFetched: 2, pagesCharged: 2, newSales: 37,
  startedAt: '2026-11-21T06:00:03.412Z', finishedAt: '2026-11-21T06:00:09.871Z', error: null,
};
const EXAMPLE_TRACKED_SEARCH: TrackedSearch = {
  trackedSearchId: EXAMPLE_TRACKED_SEARCH_ID,
  name: 'Switch OLED',
  status: 'active',
  pausedReason: null,
  query: { keyword: 'nintendo switch oled', marketSite: 'market.com', categoryId: '0', itemCondition: 'any', minPrice: null, maxPrice: null, buyingFormat: 'all', exactMatch: true, statsInclude: [] },
  schedule: 'daily',
  maxPagesPerRun: 5,
  createdAt: '2026-08-20T09:12:44.210Z',
  nextRunAt: '2026-11-22T06:31:17.000Z',
  lastRun: EXAMPLE_RUN,
  // The first run reached back over the marketplace's 90 days.
  archive: { sales: 1234, firstSoldDate: '2026-05-22', lastSoldDate: '2026-11-20' },
  links: trackedSearchLinks(EXAMPLE_TRACKED_SEARCH_ID),
};
export const TRACKED_SEARCH_CREATE_EXAMPLE: OperationExample = {
  request: { body: { keyword: 'nintendo switch oled', name: 'Switch OLED', schedule: 'daily' } },
  // Its first run is due at once.
  response: { ...EXAMPLE_TRACKED_SEARCH, nextRunAt: EXAMPLE_TRACKED_SEARCH.createdAt, lastRun: null, archive: { sales: 0, firstSoldDate: null, lastSoldDate: null } },
};
const BLOCKED_TRACKED_SEARCH_ID = 'ts_01JDQ7V4K9N2B6D8F1H3M5R7T9';
export const TRACKED_SEARCH_LIST_EXAMPLE: OperationExample = {
  response: {
    trackedSearches: [
      {
        ...EXAMPLE_TRACKED_SEARCH,
        trackedSearchId: BLOCKED_TRACKED_SEARCH_ID,
        name: 'Steam Deck 512GB',
        status: 'paused',
        pausedReason: 'The marketplace blocked 3 runs in a row (upstream_blocked)',
        query: { ...EXAMPLE_TRACKED_SEARCH.query, keyword: 'steam deck 512gb' },
        schedule: 'hourly',
        createdAt: '2026-11-12T15:40:02.815Z',
        nextRunAt: null,
        lastRun: { ...EXAMPLE_RUN, runId: 'run_01JDVZ3K8P1S5W7Y9A2C4E6G8J', status: 'failed', stopReason: 'error', pagesFetched: 0, pagesCharged: 0, newSales: 0,
          startedAt: '2026-11-21T05:41:10.006Z', finishedAt: '2026-11-21T05:41:12.340Z', error: { code: 'upstream_blocked', error: 'The marketplace answered with a bot challenge' } },
        archive: { sales: 412, firstSoldDate: '2026-08-15', lastSoldDate: '2026-11-20' },
        links: trackedSearchLinks(BLOCKED_TRACKED_SEARCH_ID),
      },
      EXAMPLE_TRACKED_SEARCH,
    ],
  },
};
export const TRACKED_SEARCH_GET_EXAMPLE: OperationExample = { request: { path: EXAMPLE_TRACKED_PATH }, response: EXAMPLE_TRACKED_SEARCH };
export const TRACKED_SEARCH_UPDATE_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_TRACKED_PATH, body: { status: 'paused' } },
  response: { ...EXAMPLE_TRACKED_SEARCH, status: 'paused', nextRunAt: null },
};
export const TRACKED_SEARCH_DELETE_EXAMPLE: OperationExample = { request: { path: EXAMPLE_TRACKED_PATH }, response: { trackedSearchId: EXAMPLE_TRACKED_SEARCH_ID, deleted: true } };
const EXAMPLE_MANUAL_RUN: Run = {
  runId: 'run_01JDX0A6D3G7K2N5Q8T1W4Z6B9', trigger: 'manual', status: 'running', stopReason: null, pagesFetched: 0, pagesCharged: 0, newSales: 0,
  startedAt: EXAMPLE_TIME, finishedAt: null, error: null,
};
export const RUN_START_EXAMPLE: OperationExample = { request: { path: EXAMPLE_TRACKED_PATH }, response: EXAMPLE_MANUAL_RUN };
export const RUN_LIST_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_TRACKED_PATH },
  response: {
    runs: [
      { ...EXAMPLE_MANUAL_RUN, status: 'completed', stopReason: 'caught_up', pagesFetched: 1, pagesCharged: 1, newSales: 4, finishedAt: '2026-11-21T10:04:08.950Z' },
      EXAMPLE_RUN,
      { ...EXAMPLE_RUN, runId: 'run_01JDTF5M1Q4S8V2X6Z9B3D7G1K', stopReason: 'max_pages', pagesFetched: 5, pagesCharged: 5, newSales: 212, startedAt: '2026-11-20T06:12:40.118Z', finishedAt: '2026-11-20T06:13:02.593Z' },
    ],
  },
};
const EXAMPLE_SALES: Sale[] = SEARCH_COMPS.items.map((item) => ({ ...item, firstSeenAt: EXAMPLE_RUN.finishedAt! }));
export const SALES_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_TRACKED_PATH, query: { from: '2026-11-01', limit: 2 } },
  response: { sales: EXAMPLE_SALES, nextCursor: 'eyJkIjoiMjAyNi0xMS0xNyIsImkiOiIyNTY3OTg3NjU0MzIifQ' },
};
export const SALES_CSV_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_TRACKED_PATH },
  // Written by the CSV writer itself, so the reference shows exactly what a download holds.
  response: SALES_CSV_HEADER + saleCsvRow(EXAMPLE_SALES[0]!),
};
/** Three weeks of the archive, its prices easing week by week. */
const ARCHIVE_WEEKS = [
  { start: '2026-11-02', sales: 18, price: 236 },
  { start: '2026-11-09', sales: 25, price: 229 },
  { start: '2026-11-16', sales: 31, price: 222 },
].map((week, weekIndex) => ({
  start: week.start,
  rows: Array.from({ length: week.sales }, (_, index): ListingRow => {
    const row = index % 2 === 0 ? EXAMPLE_ROW : EXAMPLE_AUCTION_ROW;
    const value = Math.round(week.price * (0.9 + ((index * 37) % 21) / 100) * 100) / 100;
    const soldDate = new Date(Date.parse(week.start) + (index % 7) * 86_400_000).toISOString().slice(0, 10);
    return { ...row, itemId: String(256710000000 + weekIndex * 100 + index), soldDate, price: { value, currency: 'USD' }, priceText: `$${value.toFixed(2)}` };
  }),
}));
export const ARCHIVE_STATS_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_TRACKED_PATH, query: { from: '2026-11-02', to: '2026-11-22', interval: 'week' } },
  response: {
    trackedSearchId: EXAMPLE_TRACKED_SEARCH_ID,
    from: '2026-11-02',
    to: '2026-11-22',
    interval: 'week',
    stats: compsOf(ARCHIVE_WEEKS.flatMap((week) => week.rows), EXAMPLE_TRACKED_SEARCH.query.keyword).stats,
    series: ARCHIVE_WEEKS.map(({ start, rows }) => {
      const { counted, unitPrice } = compsOf(rows, EXAMPLE_TRACKED_SEARCH.query.keyword).stats;
      return { start, counted, median: unitPrice?.median ?? null, p25: unitPrice?.p25 ?? null, p75: unitPrice?.p75 ?? null };
    }),
  },
};

const EXAMPLE_WEBHOOK_ID = 'wh_01M7W6C380K4EDSPAR4F3W7JP3';
const EXAMPLE_WEBHOOK_PATH = { webhookId: EXAMPLE_WEBHOOK_ID };
const EXAMPLE_WEBHOOK: Webhook = {
  webhookId: EXAMPLE_WEBHOOK_ID,
  url: 'https://hooks.example.com/comps',
  events: ['job.completed', 'job.failed', 'trackedSearch.run.completed'],
  description: 'Inventory pricing backend',
  status: 'enabled',
  disabledReason: null,
  createdAt: '2026-11-20T09:30:12.412Z',
};
export const WEBHOOK_CREATE_EXAMPLE: OperationExample = {
  request: { body: { url: EXAMPLE_WEBHOOK.url, events: EXAMPLE_WEBHOOK.events, description: EXAMPLE_WEBHOOK.description! } },
  // The secret is shown here, and never again.
  response: { ...EXAMPLE_WEBHOOK, secret: 'whsec_bFAG6XizWFisJ3jv9/tsKe5PDVHl04uVHWYHe4A3v9U=' },
};
export const WEBHOOK_LIST_EXAMPLE: OperationExample = {
  response: {
    webhooks: [
      EXAMPLE_WEBHOOK,
      // One whose receiver answered 410 Gone.
      { webhookId: 'wh_01M81B5H80ZR15NCQZ1RJEZ44J', url: 'https://old.example.net/hooks', events: ['job.completed'], description: null, status: 'disabled', disabledReason: 'gone', createdAt: '2026-11-22T10:00:00.000Z' },
    ],
  },
};
export const WEBHOOK_GET_EXAMPLE: OperationExample = { request: { path: EXAMPLE_WEBHOOK_PATH }, response: EXAMPLE_WEBHOOK };
export const WEBHOOK_UPDATE_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_WEBHOOK_PATH, body: { status: 'disabled' } },
  response: { ...EXAMPLE_WEBHOOK, status: 'disabled', disabledReason: 'manual' },
};
export const WEBHOOK_DELETE_EXAMPLE: OperationExample = { request: { path: EXAMPLE_WEBHOOK_PATH }, response: { webhookId: EXAMPLE_WEBHOOK_ID, deleted: true } };
export const WEBHOOK_ROTATE_SECRET_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_WEBHOOK_PATH },
  response: { webhookId: EXAMPLE_WEBHOOK_ID, secret: 'whsec_tlBQpVfwULG5jfThFmJBecRoP0N4kAV7fkxY2jf0B2g=', previousSecretExpiresAt: '2026-11-22T10:04:05.123Z' },
};
export const WEBHOOK_TEST_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_WEBHOOK_PATH },
  response: {
    deliveryId: 'msg_01M83XJ880W778Z0WV0AV29GN1', eventType: 'webhook.test', createdAt: EXAMPLE_TIME, status: 'pending', attempts: 0,
    lastAttemptAt: null, lastStatusCode: null, lastError: null, nextAttemptAt: EXAMPLE_TIME,
  } satisfies Delivery,
};
/** A job's event delivered at the third attempt (500 twice), and a run's event still being retried. */
const EXAMPLE_DELIVERIES: Delivery[] = [
  {
    deliveryId: 'msg_01M86FYZ80QEY0MNEEJ2WNSE3B', eventType: 'trackedSearch.run.completed', createdAt: '2026-11-21T06:00:09.902Z', status: 'pending', attempts: 2,
    lastAttemptAt: '2026-11-21T06:00:15.311Z', lastStatusCode: null, lastError: 'no answer within 15 s', nextAttemptAt: '2026-11-21T06:05:31.870Z',
  },
  {
    deliveryId: 'msg_01M7YRRT80HBAS8N0ZZNNFSB3A', eventType: 'job.completed', createdAt: '2026-11-20T11:20:44.018Z', status: 'succeeded', attempts: 3,
    lastAttemptAt: '2026-11-20T11:26:02.551Z', lastStatusCode: 200, lastError: null, nextAttemptAt: null,
  },
];
export const DELIVERY_LIST_EXAMPLE: OperationExample = {
  request: { path: EXAMPLE_WEBHOOK_PATH, query: { limit: 2 } },
  response: { deliveries: EXAMPLE_DELIVERIES, nextCursor: 'eyJjIjoiMjAyNi0xMS0yMFQxMToyMDo0NC4wMThaIn0' },
};
export const DELIVERY_RETRY_EXAMPLE: OperationExample = {
  request: { path: { ...EXAMPLE_WEBHOOK_PATH, deliveryId: EXAMPLE_DELIVERIES[0]!.deliveryId } },
  response: { ...EXAMPLE_DELIVERIES[0]!, nextAttemptAt: EXAMPLE_TIME },
};
