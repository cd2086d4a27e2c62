import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { Directives } from './directives.js';
import { listingOf, makeItemId, type Listing, type ListingCondition, type ListingFormat } from './listings.js';
import { hashString, randomFrom } from './random.js';
import { resultCounts } from './result-counts.js';

export interface SimQuery {
  site: MarketSite;
  keyword: string;
  categoryId: string;
  page: number;
  pageSize: number;
  sold: boolean;
  condition: 'any' | ListingCondition;
  format: 'all' | 'auction' | 'buyItNow' | 'acceptsOffers';
  minPrice: number | null;
  maxPrice: number | null;
  sortOrder: string;
}

export interface SimRow {
  listing: Listing;
  loose: boolean;
}

export interface SimPage {
  /** Results the heading counts (exact matches only, as the marketplace counts). */
  totalExact: number;
  /** The page shown: the one asked for, or the last one past the end. */
  page: number;
  lastPage: number;
  rows: SimRow[];
}

const MAX_PRICE = 2000;

/** The share of listings (log-uniform prices from 1 to 2,000) inside a price window. */
function priceShare(min: number | null, max: number | null): number {
  const low = Math.max(min ?? 1, 1);
  const high = Math.min(max ?? MAX_PRICE, MAX_PRICE);
  if (high < low) return 0;
  return Math.min(1, (Math.log(high) - Math.log(low)) / Math.log(MAX_PRICE));
}

function formatChoices(query: SimQuery): ListingFormat[] {
  const sold = query.sold;
  switch (query.format) {
    case 'auction':
      return ['auction'];
    case 'buyItNow':
      return sold ? ['buyItNow', 'bestOffer', 'bestOfferAccepted'] : ['buyItNow', 'bestOffer'];
    case 'acceptsOffers':
      return sold ? ['bestOffer', 'bestOfferAccepted'] : ['bestOffer'];
    default:
      return sold ? ['buyItNow', 'buyItNow', 'bestOffer', 'auction', 'auction', 'bestOfferAccepted'] : ['buyItNow', 'buyItNow', 'bestOffer', 'auction'];
  }
}

/** The share of listings the filters leave: condition, buying format, price window. */
function filterShare(query: SimQuery): number {
  const conditionShare = query.condition === 'any' ? 1 : 0.5;
  const formatShare = query.format === 'all' ? 1 : query.format === 'buyItNow' ? 0.7 : 0.3;
  return priceShare(query.minPrice, query.maxPrice) * conditionShare * formatShare;
}

function queryKey(query: SimQuery): string {
  return [query.site, query.keyword.toLowerCase(), query.categoryId, query.sold, query.condition, query.format, query.minPrice, query.maxPrice].join('|');
}

function rowAt(query: SimQuery, key: string, index: number, formats: ListingFormat[]): Listing | null {
  // Listings are drawn until one fits the price window; a window too narrow leaves the slot empty.
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const seed = hashString(`${key}|${index}|${attempt}`);
    const random = randomFrom(seed);
    const itemId = makeItemId(seed, {
      state: query.sold ? 'sold' : 'active',
      condition: query.condition === 'any' ? (random() < 0.45 ? 'new' : 'used') : query.condition,
      format: formats[Math.floor(random() * formats.length)]!,
    });
    const listing = listingOf(itemId);
    if (!listing) continue;
    if ((query.minPrice === null || listing.price >= query.minPrice) && (query.maxPrice === null || listing.price <= query.maxPrice)) {
      return listing;
    }
  }
  return null;
}

function sortRows(rows: SimRow[], sortOrder: string): SimRow[] {
  const total = (row: SimRow) => row.listing.price + (row.listing.shipping ?? 0);
  const compare: Record<string, (a: SimRow, b: SimRow) => number> = {
    '13': (a, b) => b.listing.endedOn.getTime() - a.listing.endedOn.getTime(),
    '10': (a, b) => b.listing.itemId.localeCompare(a.listing.itemId),
    '15': (a, b) => total(a) - total(b),
    '16': (a, b) => total(b) - total(a),
  };
  const order = compare[sortOrder];
  if (!order) return rows;
  // Exact matches stay above the divider whatever the order.
  return [...rows.filter((row) => !row.loose).sort(order), ...rows.filter((row) => row.loose).sort(order)];
}

export function searchPage(query: SimQuery, directives: Directives): SimPage {
  const { exact: totalExact, loose: totalLoose } = resultCounts(
    { site: query.site, keyword: query.keyword, categoryId: query.categoryId, sold: query.sold, filterShare: filterShare(query) },
    directives,
  );
  const combined = totalExact + totalLoose;
  const lastPage = Math.max(1, Math.ceil(combined / query.pageSize));
  const page = Math.min(query.page, lastPage);
  const key = queryKey(query);
  const formats = formatChoices(query);
  const rows: SimRow[] = [];
  for (let index = (page - 1) * query.pageSize; index < Math.min(combined, page * query.pageSize); index += 1) {
    const listing = rowAt(query, key, index, formats);
    if (listing) rows.push({ listing, loose: index >= totalExact });
  }
  return { totalExact, page, lastPage, rows: sortRows(rows, query.sortOrder) };
}
