import type { MarketSite } from '../contract/market-sites.js';
import type { ListingQuery } from '../contract/listing.js';

/** Page sizes the marketplace offers for `_ipg`. */
const UPSTREAM_PAGE_SIZES = [60, 120, 240] as const;

/** The smallest offered page size that holds `count` rows: one upstream call, never two. */
export function upstreamPageSize(count: number): number {
  return UPSTREAM_PAGE_SIZES.find((size) => size >= count) ?? UPSTREAM_PAGE_SIZES[UPSTREAM_PAGE_SIZES.length - 1]!;
}

export type SearchUrlQuery = Omit<ListingQuery, 'marketSite' | 'exactMatch' | 'statsInclude'>;

type QueryParam = [name: string, value: string];

/**
 * The one table from our query to the marketplace's `/sch/i.html` parameters. Each entry turns
 * one field of the query into zero or more parameters; `exactMatch` and `statsInclude` have none
 * (we filter the rows and count the statistics).
 */
export const SEARCH_PARAMETER_TABLE: { [K in keyof SearchUrlQuery]-?: (value: SearchUrlQuery[K]) => QueryParam[] } = {
  keyword: (keyword) => (keyword ? [['_nkw', keyword]] : []),
  categoryId: (categoryId) => [['_sacat', categoryId]],
  page: (page) => [['_pgn', String(page)]],
  count: (count) => [['_ipg', String(upstreamPageSize(count))]],
  sold: (sold) => (sold ? [['LH_Sold', '1'], ['LH_Complete', '1']] : []),
  itemCondition: (condition) => ({ any: [], new: [['LH_ItemCondition', '1000']], used: [['LH_ItemCondition', '3000']] } as const)[condition].map((p) => [...p] as QueryParam),
  sortOrder: (order) => [['_sop', { endedRecently: '13', timeNewlyListed: '10', pricePlusPostageLowest: '15', pricePlusPostageHighest: '16' }[order]]],
  minPrice: (price) => (price === null ? [] : [['_udlo', String(price)]]),
  maxPrice: (price) => (price === null ? [] : [['_udhi', String(price)]]),
  buyingFormat: (format) => ({ all: [], auction: [['LH_Auction', '1']], buyItNow: [['LH_BIN', '1']], acceptsOffers: [['LH_BO', '1']] } as const)[format].map((p) => [...p] as QueryParam),
};

const PARAMETER_ORDER: Array<keyof SearchUrlQuery> = [
  'keyword',
  'categoryId',
  'sold',
  'itemCondition',
  'buyingFormat',
  'minPrice',
  'maxPrice',
  'sortOrder',
  'page',
  'count',
];

/** `{origin}/sch/i.html?…` for a search (keyword) or a category browse (keyword null). */
export function buildSearchUrl(origin: string, query: SearchUrlQuery): string {
  const params = new URLSearchParams();
  for (const field of PARAMETER_ORDER) {
    const toParams = SEARCH_PARAMETER_TABLE[field] as (value: unknown) => QueryParam[];
    for (const [name, value] of toParams(query[field])) params.append(name, value);
  }
  return `${origin}/sch/i.html?${params.toString()}`;
}

/** `{origin}/itm/{itemId}`. */
export function buildItemUrl(origin: string, itemId: string): string {
  return `${origin}/itm/${itemId}`;
}

export type SiteOrigins = Readonly<Record<MarketSite, string>>;
