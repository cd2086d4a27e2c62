import t, { type Test } from 'tap';
import { listingCollectionSchema, itemDetailsSchema } from '@comps/shared/contract/listing';
import { MARKET_SITES } from '@comps/shared/contract/market-sites';
import { assertError, assertShape } from '../../helpers/contract-assertions.js';
import { createWorkspace } from '../../helpers/accounts-client.js';
import { request } from '../../helpers/http-client.js';
import { startInProcessStack } from '../../helpers/in-process-stack.js';

// market.it is configured off, to see site_not_enabled next to the seven enabled sites.
const stack = await startInProcessStack(t);
const api = await stack.startApi({ env: { ENABLED_SITES: MARKET_SITES.filter((site) => site !== 'market.it').join(',') } });
const { apiKey } = await createWorkspace(stack, { plan: 'pro', rate: 100_000, concurrency: 50 });

const get = (path: string) => request(api.baseUrl, path, { apiKey });
const search = (query: string) => get(`/v1/scrape?${query}`);

async function accepted(t: Test, query: string) {
  const response = await search(query);
  t.equal(response.status, 200, `${query} → 200`);
  return assertShape(t, listingCollectionSchema, response.body, `${query}: a listing collection`);
}

async function refused(t: Test, query: string, path: string, path2 = '/v1/scrape') {
  const response = await get(`${path2}?${query}`);
  const body = assertError(t, response, 400, 'invalid_request');
  t.ok(body.details?.some((detail) => detail.path === path), `${query}: details name ${path} (${JSON.stringify(body.details)})`);
}

t.test('defaults of the specification', async (t) => {
  const body = await accepted(t, 'keyword=sony+headphones');
  t.strictSame(body.query, {
    keyword: 'sony headphones',
    marketSite: 'market.com',
    categoryId: '0',
    page: 1,
    count: 60,
    sold: true,
    itemCondition: 'any',
    sortOrder: 'endedRecently',
    minPrice: null,
    maxPrice: null,
    buyingFormat: 'all',
    exactMatch: true,
    statsInclude: [],
  });
  t.equal(body.items.length, 60);
  t.ok(body.items.every((item) => item.sold && item.soldDate), 'a sold search returns only sold rows');
  t.strictSame(body.pagination, { page: 1, count: 60, returned: 60, totalResults: body.pagination.totalResults, hasNextPage: true });
  t.match(body.requestId, /^req_/, 'the body names its request');
  t.equal(body.source.marketSite, 'market.com');
});

t.test('keyword: required and non-empty', async (t) => {
  await refused(t, '', 'keyword');
  await refused(t, 'keyword=', 'keyword');
  await refused(t, 'keyword=%20%20', 'keyword');
  await refused(t, 'keyword=a&keyword=b', 'keyword');
  await refused(t, `keyword=${'k'.repeat(351)}`, 'keyword');
  await accepted(t, `keyword=${'k'.repeat(350)}`);
  await accepted(t, 'keyword=a');
  t.equal((await accepted(t, 'keyword=%20padded%20')).query.keyword, 'padded', 'trimmed');
});

t.test('page: 1 to 100', async (t) => {
  for (const value of ['0', '-1', '101', 'abc', '1.5', '', '1e1']) await refused(t, `keyword=a&page=${value}`, 'page');
  for (const value of ['1', '2', '99', '100']) t.equal((await accepted(t, `keyword=a+sim:total=10000&page=${value}`)).pagination.page, Number(value));
});

t.test('count: 1 to 200, at most that many items', async (t) => {
  for (const value of ['0', '201', '-5', 'x', '60.0']) await refused(t, `keyword=a&count=${value}`, 'count');
  for (const [value, expected] of [['1', 1], ['2', 2], ['59', 59], ['61', 61], ['199', 199], ['200', 200]] as const) {
    const body = await accepted(t, `keyword=big+lot+sim:total=9000&count=${value}`);
    t.equal(body.items.length, expected, `count=${value} returns ${expected}`);
    t.equal(body.pagination.count, Number(value));
  }
  const short = await accepted(t, 'keyword=few+sim:total=3&count=60');
  t.strictSame([short.items.length, short.pagination.returned, short.pagination.hasNextPage], [3, 3, false], 'fewer than count');
});

t.test('sold: only true or false', async (t) => {
  for (const value of ['yes', 'TRUE', '1', '', 'no']) await refused(t, `keyword=a&sold=${value}`, 'sold');
  t.ok((await accepted(t, 'keyword=a+sim:total=50&sold=false')).items.every((item) => !item.sold && item.priceIsDisplayedOnly), 'active listings');
  t.ok((await accepted(t, 'keyword=a+sim:total=50&sold=true')).items.every((item) => item.sold));
});

t.test('every enum, and values outside them', async (t) => {
  const enums: Record<string, string[]> = {
    itemCondition: ['any', 'new', 'used'],
    sortOrder: ['endedRecently', 'timeNewlyListed', 'pricePlusPostageLowest', 'pricePlusPostageHighest'],
    buyingFormat: ['all', 'auction', 'buyItNow', 'acceptsOffers'],
    marketSite: MARKET_SITES.filter((site) => site !== 'market.it'),
  };
  for (const [name, values] of Object.entries(enums)) {
    for (const value of values) t.equal((await accepted(t, `keyword=a+sim:total=20&${name}=${value}`)).query[name as 'sortOrder'], value);
    await refused(t, `keyword=a&${name}=bogus`, name);
    await refused(t, `keyword=a&${name}=${values[0]!.toUpperCase()}`, name);
  }
  t.ok((await accepted(t, 'keyword=a+sim:total=40&itemCondition=new')).items.every((item) => item.condition === 'Brand New'));
  t.ok((await accepted(t, 'keyword=a+sim:total=40&buyingFormat=auction')).items.every((item) => item.buyingFormat === 'auction'));
  for (const site of MARKET_SITES.filter((site) => site !== 'market.it')) {
    const body = await accepted(t, `keyword=a+sim:total=5&marketSite=${site}`);
    t.equal(body.source.marketSite, site);
  }
});

t.test('a site allowed by the specification but not enabled is 403 site_not_enabled', async (t) => {
  assertError(t, await search('keyword=a&marketSite=market.it'), 403, 'site_not_enabled');
  assertError(t, await get('/v1/item/123456789012?marketSite=market.it'), 403, 'site_not_enabled');
});

t.test('minPrice and maxPrice: at least 0, and min not above max', async (t) => {
  for (const value of ['-1', 'abc', '1e3', '', 'Infinity']) {
    await refused(t, `keyword=a&minPrice=${value}`, 'minPrice');
    await refused(t, `keyword=a&maxPrice=${value}`, 'maxPrice');
  }
  await refused(t, 'keyword=a&minPrice=10&maxPrice=5', 'minPrice');
  for (const query of ['minPrice=0', 'maxPrice=0.5', 'minPrice=5&maxPrice=5', 'minPrice=20&maxPrice=50', 'minPrice=.5']) await accepted(t, `keyword=a&${query}`);
  const bounded = await accepted(t, 'keyword=a+sim:total=500&minPrice=20&maxPrice=50');
  t.strictSame([bounded.query.minPrice, bounded.query.maxPrice], [20, 50]);
  t.ok(bounded.items.every((item) => item.price!.value >= 20 && item.price!.value <= 50), 'prices inside the bounds');
});

t.test('statsInclude: reasons to count anyway, echoed once each in the contract order; an unknown one is a 400', async (t) => {
  for (const value of ['bestOffer', 'lot,nonsense', 'lots']) await refused(t, `keyword=a&statsInclude=${value}`, 'statsInclude');
  await refused(t, 'keyword=a&statsInclude=lot&statsInclude=outlier', 'statsInclude');
  t.strictSame((await accepted(t, 'keyword=a&statsInclude=outlier,lot,%20lot,bestOfferAccepted')).query.statsInclude, ['bestOfferAccepted', 'lot', 'outlier']);
  t.strictSame((await accepted(t, 'keyword=a&statsInclude=')).query.statsInclude, [], 'an empty list is none');
  const category = await get('/v1/scrape/category?categoryId=9&statsInclude=forParts,looseMatch');
  t.equal(category.status, 200);
  t.strictSame(category.body.query.statsInclude, ['forParts', 'looseMatch']);
});

t.test('exactMatch: loose matches in or out', async (t) => {
  for (const value of ['no', '0', 'False']) await refused(t, `keyword=a&exactMatch=${value}`, 'exactMatch');
  const exact = await accepted(t, 'keyword=pens+sim:total=3+sim:loose=7&exactMatch=true');
  t.strictSame([exact.items.length, exact.dataQuality.looseMatchesExcluded], [3, 7]);
  t.ok(exact.items.every((item) => !item.looseMatch));
  const loose = await accepted(t, 'keyword=pens+sim:total=3+sim:loose=7&exactMatch=false');
  t.strictSame(loose.items.map((item) => item.looseMatch), [false, false, false, true, true, true, true, true, true, true]);
  t.equal(loose.dataQuality.looseMatchesExcluded, 0);
});

t.test('categoryId, unknown parameters', async (t) => {
  for (const value of ['abc', '', '-1', '1234567890123']) await refused(t, `keyword=a&categoryId=${value}`, 'categoryId');
  t.equal((await accepted(t, 'keyword=a&categoryId=176985')).query.categoryId, '176985');
  t.equal((await accepted(t, 'keyword=a&utm_source=newsletter&foo=bar')).query.keyword, 'a', 'unknown parameters are ignored');
});

t.test('the aliases answer exactly as /v1/scrape', async (t) => {
  const query = 'keyword=vintage+camera&count=25&sold=true&sortOrder=pricePlusPostageLowest&itemCondition=used&minPrice=1&maxPrice=900&exactMatch=false';
  const strip = (body: Record<string, unknown>) => ({ ...body, requestId: null, source: { ...(body.source as object), fetchedAt: null, upstreamMs: null } });
  const main = await get(`/v1/scrape?${query}`);
  for (const alias of ['/public/scrape', '/partner/scrape-market']) {
    const response = await get(`${alias}?${query}`);
    t.equal(response.status, 200, alias);
    t.strictSame(strip(response.body), strip(main.body), `${alias} gives the same answer`);
    t.equal(response.headers.get('x-quota-limit'), main.headers.get('x-quota-limit'));
    await refused(t, 'count=0', 'keyword', alias);
    assertError(t, await request(api.baseUrl, `${alias}?keyword=a`), 401, 'unauthorized');
  }
});

t.test('category browse', async (t) => {
  const response = await get('/v1/scrape/category?categoryId=176985&count=10');
  t.equal(response.status, 200);
  const body = assertShape(t, listingCollectionSchema, response.body);
  t.strictSame([body.query.keyword, body.query.categoryId, body.items.length], [null, '176985', 10]);
  await refused(t, 'count=10', 'categoryId', '/v1/scrape/category');
  await refused(t, 'categoryId=abc', 'categoryId', '/v1/scrape/category');
  await refused(t, 'categoryId=1&page=0', 'page', '/v1/scrape/category');
  t.equal((await get('/v1/scrape/category?categoryId=5&keyword=ignored')).body.query.keyword, null, 'keyword is not a category parameter');
});

t.test('item lookup: a listed id, an unknown id, malformed ids', async (t) => {
  const row = (await accepted(t, 'keyword=sony&count=1&marketSite=market.de')).items[0]!;
  const response = await get(`/v1/item/${row.itemId}?marketSite=market.de`);
  t.equal(response.status, 200);
  const item = assertShape(t, itemDetailsSchema, response.body);
  t.strictSame([item.itemId, item.price, item.marketSite, item.status, item.soldDate], [row.itemId, row.price, 'market.de', 'sold', row.soldDate]);
  t.equal(item.requestId, response.headers.get('x-request-id'));
  assertError(t, await get('/v1/item/123456789012'), 404, 'item_not_found');
  for (const id of ['12345678', '1234567890123456', 'abcdefghijk', '12345678901x']) {
    const body = assertError(t, await get(`/v1/item/${id}`), 400, 'invalid_request');
    t.equal(body.details?.[0]?.path, 'itemId', id);
  }
  assertError(t, await get(`/v1/item/${row.itemId}?marketSite=market.xx`), 400, 'invalid_request');
});
