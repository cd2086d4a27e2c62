import t from 'tap';
import { SITE_CURRENCY, type MarketSite } from '@comps/shared/contract/market-sites';
import { parseSearchPage } from '@comps/shared/market/parse/search-page';
import { loadSimConfig, type PageStyle } from '@comps/market-sim/config';
import { parseDirectives } from '@comps/market-sim/directives';
import { SITE_LOCALES } from '@comps/market-sim/locales';
import { PageCache } from '@comps/market-sim/page-cache';
import { PageFurniture } from '@comps/market-sim/render/page-furniture';
import { renderSearchPage } from '@comps/market-sim/render/search-page';
import { searchPage, type SimQuery } from '@comps/market-sim/search-results';
import { startSimulator } from '../helpers/simulator.js';

const ORIGIN = 'http://127.0.0.1:4010';
const FURNITURE = new PageFurniture();

function query(overrides: Partial<SimQuery>): SimQuery {
  return {
    site: 'market.com',
    keyword: 'sony headphones',
    categoryId: '0',
    page: 1,
    pageSize: 60,
    sold: true,
    condition: 'any',
    format: 'all',
    minPrice: null,
    maxPrice: null,
    sortOrder: '12',
    ...overrides,
  };
}

/** Renders a page as the simulator would for the query, and what the real parser reads from it. */
function renderAndParse(simQuery: SimQuery, style: PageStyle, searchText = simQuery.keyword) {
  const { keyword, directives } = parseDirectives(searchText);
  const withKeyword = { ...simQuery, keyword };
  const page = searchPage(withKeyword, directives);
  const requestUrl = new URL(`${ORIGIN}/${simQuery.site}/sch/i.html?_nkw=${encodeURIComponent(searchText)}&_pgn=${simQuery.page}&_ipg=${simQuery.pageSize}${simQuery.sold ? '&LH_Sold=1&LH_Complete=1' : ''}`);
  const html = renderSearchPage(simQuery.site, { query: withKeyword, page, siteBase: `${ORIGIN}/${simQuery.site}`, origin: ORIGIN, requestUrl }, style === 'full' ? FURNITURE : null);
  return { page, html, parsed: parseSearchPage(html, simQuery.site) };
}

const CASES: Array<[string, Partial<SimQuery>, string?]> = [
  ['a sold search', {}],
  ['240 rows a page', { pageSize: 240 }],
  ['the last page', { page: 3 }, 'widget sim:total=130'],
  ['active listings, with ranges and auctions', { sold: false, keyword: 'vintage camera' }],
  ['exact matches, then loose ones', {}, 'rare blue ceramic teapot'],
  ['nothing found', {}, 'xkcdq'],
  ['German', { site: 'market.de', keyword: 'lego' }],
  ['French, active', { site: 'market.fr', sold: false, keyword: 'montre' }],
  ['a category', { keyword: '', categoryId: '176985' }],
];

for (const style of ['full', 'lean'] as const) {
  t.test(`${style} pages parse to the rows the simulator meant to render`, async (t) => {
    for (const [name, overrides, searchText] of CASES) {
      const simQuery = query(overrides);
      const { page, parsed } = renderAndParse(simQuery, style, searchText ?? simQuery.keyword);
      const site: MarketSite = simQuery.site;
      const locale = SITE_LOCALES[site];
      t.equal(parsed.isResultsPage, true, `${name}: a results page`);
      t.equal(parsed.totalResults, page.totalExact, `${name}: the heading's count`);
      t.equal(parsed.hasNextPage, page.page < page.lastPage, `${name}: the next page`);
      t.equal(parsed.rowsDropped, 0, `${name}: no row dropped`);
      t.strictSame(
        parsed.items.map((item) => [item.itemId, item.looseMatch]),
        page.rows.map((row) => [row.listing.itemId, row.loose]),
        `${name}: every row, in order, loose matches flagged`,
      );
      const mismatches = page.rows.filter(({ listing }, index) => {
        const item = parsed.items[index];
        if (!item) return true;
        const expectedShipping = listing.shipping === null ? null : listing.shipping;
        return (
          item.price?.value !== listing.price ||
          item.price?.currency !== SITE_CURRENCY[site] ||
          (item.shipping?.value ?? null) !== expectedShipping ||
          item.sold !== simQuery.sold ||
          (simQuery.sold && item.soldDate !== listing.endedOn.toISOString().slice(0, 10)) ||
          item.condition !== locale.conditions[listing.condition] ||
          item.bestOfferAccepted !== (listing.format === 'bestOfferAccepted') ||
          item.bidCount !== (listing.format === 'auction' ? listing.bids : null) ||
          item.seller?.username !== listing.seller.username
        );
      });
      t.strictSame(mismatches.map((row) => row.listing.itemId), [], `${name}: price, shipping, sold date, condition, format and seller as rendered`);
    }
  });
}

t.test('full pages have a real page\'s size; lean pages are small', async (t) => {
  for (const [name, overrides, searchText] of CASES) {
    const simQuery = query(overrides);
    const full = renderAndParse(simQuery, 'full', searchText ?? simQuery.keyword).html.length;
    const lean = renderAndParse(simQuery, 'lean', searchText ?? simQuery.keyword).html.length;
    t.ok(full >= 700_000 && full <= 2_400_000, `${name}: full page of ${full} bytes`);
    t.ok(lean < full / 3, `${name}: lean page of ${lean} bytes`);
  }
});

t.test('the page style is configuration, validated at boot', async (t) => {
  t.equal(loadSimConfig({}).pageStyle, 'full', 'full by default');
  t.equal(loadSimConfig({ MARKET_SIM_PAGE_STYLE: 'lean' }).pageStyle, 'lean');
  t.throws(() => loadSimConfig({ MARKET_SIM_PAGE_STYLE: 'huge' }), { name: 'ConfigError', message: /MARKET_SIM_PAGE_STYLE/ });
  t.throws(() => loadSimConfig({ MARKET_SIM_CACHE_MB: '0' }), { name: 'ConfigError', message: /MARKET_SIM_CACHE_MB/ });
});

t.test('served: full by default, lean on request; a page is served again as it was', async (t) => {
  const url = '/market.com/sch/i.html?_nkw=nintendo&LH_Sold=1&LH_Complete=1';
  const full = await startSimulator(t);
  const lean = await startSimulator(t, { MARKET_SIM_PAGE_STYLE: 'lean' });
  const first = await (await fetch(`${full}${url}`)).text();
  const again = await (await fetch(`${full}${url}`)).text();
  t.ok(first.length >= 700_000 && first.length <= 2_400_000, `${first.length} bytes`);
  t.equal(again, first, 'the same page again');
  const small = await (await fetch(`${lean}${url}`)).text();
  t.ok(small.length < 200_000, `lean: ${small.length} bytes`);
  t.strictSame(
    parseSearchPage(small, 'market.com').items.map((item) => item.itemId),
    parseSearchPage(first, 'market.com').items.map((item) => item.itemId),
    'both styles list the same rows',
  );
});

t.test('the page cache: a page is kept until the least recently used goes to make room; a page larger than the cache is not kept', async (t) => {
  const cache = new PageCache(10);
  const page = (size: number, fill: string) => Buffer.alloc(size, fill);
  cache.set('a', page(4, 'a'));
  cache.set('b', page(4, 'b'));
  t.equal(cache.get('a')?.toString(), 'aaaa', 'a hit');
  cache.set('c', page(4, 'c'));
  t.equal(cache.get('b'), undefined, 'the least recently used went to make room');
  t.equal(cache.get('a')?.toString(), 'aaaa', 'the one used since stayed');
  t.equal(cache.get('c')?.toString(), 'cccc');
  cache.set('huge', page(11, 'h'));
  t.equal(cache.get('huge'), undefined, 'larger than the whole cache: not kept');
  t.equal(cache.get('a')?.toString(), 'aaaa', 'and nothing was pushed out for it');
  cache.set('a', page(6, 'A'));
  t.equal(cache.get('a')?.toString(), 'AAAAAA', 'a page set again replaces the old one');
  t.equal(cache.get('c')?.toString(), 'cccc', 'whose size no longer counts');
});
