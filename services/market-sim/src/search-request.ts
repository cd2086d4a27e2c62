import { marketSiteSchema, type MarketSite } from '@comps/shared/contract/market-sites';
import { parseDirectives, type Directives } from './directives.js';
import type { SimQuery } from './search-results.js';

/** What a results page's address asks for: the query, and the directives its search text carries. */
export interface SearchRequest {
  query: SimQuery;
  directives: Directives;
}

const PAGE_SIZES = [60, 120, 240];

function numberParam(value: string | null, fallback: number | null): number | null {
  if (value === null || value.trim() === '') return fallback;
  const number = Number(value);
  return Number.isFinite(number) ? number : fallback;
}

/** The request of a search on `site` at `url` (`/sch/i.html`, or `/sch/{category}/i.html` with `categoryFromPath`). */
export function searchRequestOf(site: MarketSite, url: URL, categoryFromPath: string | undefined): SearchRequest {
  const params = url.searchParams;
  const { keyword, directives } = parseDirectives(params.get('_nkw') ?? '');
  const requestedSize = numberParam(params.get('_ipg'), 60) ?? 60;
  const condition = params.get('LH_ItemCondition');
  const query: SimQuery = {
    site,
    keyword,
    categoryId: categoryFromPath ?? params.get('_sacat') ?? '0',
    page: Math.max(1, Math.floor(numberParam(params.get('_pgn'), 1) ?? 1)),
    pageSize: PAGE_SIZES.find((size) => size >= requestedSize) ?? 240,
    sold: params.get('LH_Sold') === '1',
    condition: condition === '1000' ? 'new' : condition === '3000' ? 'used' : 'any',
    format: params.get('LH_Auction') === '1' ? 'auction' : params.get('LH_BIN') === '1' ? 'buyItNow' : params.get('LH_BO') === '1' ? 'acceptsOffers' : 'all',
    minPrice: numberParam(params.get('_udlo'), null),
    maxPrice: numberParam(params.get('_udhi'), null),
    sortOrder: params.get('_sop') ?? '12',
  };
  return { query, directives };
}

/** The request of a results page's whole address (`{origin}/{site}/sch/[{category}/]i.html?…`), or null when it is not one. */
export function searchRequestOfUrl(address: string | URL): SearchRequest | null {
  const url = new URL(address);
  const match = /^\/([^/]+)\/sch\/(?:([^/]+)\/)?i\.html$/.exec(url.pathname);
  const site = marketSiteSchema.safeParse(match?.[1]);
  if (!match || !site.success) return null;
  return searchRequestOf(site.data, url, match[2]);
}
