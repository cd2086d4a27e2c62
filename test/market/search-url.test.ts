import t from 'tap';
import type { ListingQuery } from '@comps/shared/contract/listing';
import { MARKET_SITES } from '@comps/shared/contract/market-sites';
import { marketConfigFrom, marketEnvFields } from '@comps/shared/market/market-config';
import { buildItemUrl, buildSearchUrl, SEARCH_PARAMETER_TABLE, upstreamPageSize } from '@comps/shared/market/search-url';
import { z } from 'zod';
import { SAMPLE_QUERY } from '../helpers/listing-query.js';

const base: ListingQuery = { ...SAMPLE_QUERY, keyword: 'pink floyd cd' };

function paramsOf(query: Partial<ListingQuery>): URLSearchParams {
  return new URL(buildSearchUrl('https://www.market.test', { ...base, ...query })).searchParams;
}

// One test per row of the table, through the URL the marketplace receives.
const ROWS: Array<[field: keyof typeof SEARCH_PARAMETER_TABLE, value: unknown, expected: Array<[string, string]>, absent: string[]]> = [
  ['keyword', 'pink floyd cd', [['_nkw', 'pink floyd cd']], []],
  ['keyword', null, [], ['_nkw']],
  ['categoryId', '0', [['_sacat', '0']], []],
  ['categoryId', '176985', [['_sacat', '176985']], []],
  ['page', 1, [['_pgn', '1']], []],
  ['page', 100, [['_pgn', '100']], []],
  ['count', 1, [['_ipg', '60']], []],
  ['count', 60, [['_ipg', '60']], []],
  ['count', 61, [['_ipg', '120']], []],
  ['count', 120, [['_ipg', '120']], []],
  ['count', 121, [['_ipg', '240']], []],
  ['count', 200, [['_ipg', '240']], []],
  ['sold', true, [['LH_Sold', '1'], ['LH_Complete', '1']], []],
  ['sold', false, [], ['LH_Sold', 'LH_Complete']],
  ['itemCondition', 'any', [], ['LH_ItemCondition']],
  ['itemCondition', 'new', [['LH_ItemCondition', '1000']], []],
  ['itemCondition', 'used', [['LH_ItemCondition', '3000']], []],
  ['sortOrder', 'endedRecently', [['_sop', '13']], []],
  ['sortOrder', 'timeNewlyListed', [['_sop', '10']], []],
  ['sortOrder', 'pricePlusPostageLowest', [['_sop', '15']], []],
  ['sortOrder', 'pricePlusPostageHighest', [['_sop', '16']], []],
  ['minPrice', null, [], ['_udlo']],
  ['minPrice', 0, [['_udlo', '0']], []],
  ['minPrice', 12.5, [['_udlo', '12.5']], []],
  ['maxPrice', null, [], ['_udhi']],
  ['maxPrice', 99.99, [['_udhi', '99.99']], []],
  ['buyingFormat', 'all', [], ['LH_Auction', 'LH_BIN', 'LH_BO']],
  ['buyingFormat', 'auction', [['LH_Auction', '1']], ['LH_BIN', 'LH_BO']],
  ['buyingFormat', 'buyItNow', [['LH_BIN', '1']], ['LH_Auction', 'LH_BO']],
  ['buyingFormat', 'acceptsOffers', [['LH_BO', '1']], ['LH_Auction', 'LH_BIN']],
];

for (const [field, value, expected, absent] of ROWS) {
  t.test(`${field} = ${JSON.stringify(value)}`, async (t) => {
    const params = paramsOf({ [field]: value } as Partial<ListingQuery>);
    for (const [name, wanted] of expected) t.strictSame(params.getAll(name), [wanted], `${name}=${wanted}`);
    for (const name of absent) t.equal(params.get(name), null, `no ${name}`);
  });
}

t.test('exactMatch is not sent: loose matches are filtered from the rows', async (t) => {
  const loose: ListingQuery = { ...base, exactMatch: false };
  t.equal(buildSearchUrl('https://x', loose), buildSearchUrl('https://x', base));
});

t.test('the whole URL, and a category browse', async (t) => {
  t.equal(
    buildSearchUrl('https://www.market.test', { ...base, count: 100, page: 2, minPrice: 10, maxPrice: 50, itemCondition: 'used', buyingFormat: 'auction' }),
    'https://www.market.test/sch/i.html?_nkw=pink+floyd+cd&_sacat=0&LH_Sold=1&LH_Complete=1&LH_ItemCondition=3000&LH_Auction=1&_udlo=10&_udhi=50&_sop=13&_pgn=2&_ipg=120',
  );
  t.equal(
    buildSearchUrl('https://www.market.test', { ...base, keyword: null, categoryId: '6000', sold: false }),
    'https://www.market.test/sch/i.html?_sacat=6000&_sop=13&_pgn=1&_ipg=60',
  );
});

t.test('the item URL', async (t) => {
  t.equal(buildItemUrl('https://www.market.test', '226771798286'), 'https://www.market.test/itm/226771798286');
  t.equal(buildItemUrl('http://127.0.0.1:4010/market.de', '123456789012'), 'http://127.0.0.1:4010/market.de/itm/123456789012');
});

t.test('page sizes: the smallest offered that holds count', async (t) => {
  t.strictSame([1, 60, 61, 120, 121, 200].map(upstreamPageSize), [60, 60, 120, 120, 240, 240]);
});

t.test('site origins: the simulator by default, the real sites by configuration', async (t) => {
  const defaults = marketConfigFrom(z.object(marketEnvFields).parse({}));
  for (const site of MARKET_SITES) t.equal(defaults.origins[site], `http://127.0.0.1:4010/${site}`);
  const configured = marketConfigFrom(
    z.object(marketEnvFields).parse({ MARKET_SIM_URL: 'http://sim:4010/', MARKET_ORIGINS: 'market.de=https://www.ebay.de, market.com=https://www.ebay.com/' }),
  );
  t.equal(configured.origins['market.de'], 'https://www.ebay.de');
  t.equal(configured.origins['market.com'], 'https://www.ebay.com');
  t.equal(configured.origins['market.fr'], 'http://sim:4010/market.fr');
  const bad = z.object(marketEnvFields).safeParse({ MARKET_ORIGINS: 'market.xx=https://a,market.de=notaurl' });
  t.notOk(bad.success, 'an unknown site or a bad origin is refused');
  t.equal(bad.error?.issues.length, 2, 'each bad entry named');
});
