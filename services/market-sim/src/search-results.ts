import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { Directives } from './directives.js';
import { listingOf, makeItemId, randomDigits, type Listing, type ListingFormat } from './listings.js';
import { SITE_LOCALES } from './locales.js';
import { drawTraits, natureOf, type TraitScope } from './pollution.js';
import { catalogueProductOf, productNamed, searchedProductName, type Product } from './products.js';
import { hashString, randomFrom } from './random.js';
import { commonerWords, resultCounts } from './result-counts.js';
import { excludedWordsOf, wordsOf } from './search-words.js';
import type { TitleLanguage } from './title-words.js';

export interface SimQuery {
  site: MarketSite;
  keyword: string;
  categoryId: string;
  page: number;
  pageSize: number;
  sold: boolean;
  condition: 'any' | 'new' | 'used';
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

/** Draws for a row until one fits the price window and the excluded words; a window too narrow leaves the slot empty. */
const MAX_ATTEMPTS = 200;
/** Listings drawn to estimate the share of a search's listings inside a price window. */
const PRICE_SAMPLE = 200;

/** What a search lists: its product's listings (a category page's, without a keyword, the catalogue's). */
interface ListingSource {
  /** The product listed, or null for the catalogue product each id's digits choose. */
  product: Product | null;
  scope: TraitScope;
  language: TitleLanguage;
}

function formatChoices(query: SimQuery): ListingFormat[] {
  switch (query.format) {
    case 'auction':
      return ['auction'];
    case 'buyItNow':
      return ['buyItNow', 'bestOffer', 'bestOfferAccepted'];
    case 'acceptsOffers':
      return ['bestOffer', 'bestOfferAccepted'];
    default:
      return ['buyItNow', 'bestOffer', 'auction', 'bestOfferAccepted'];
  }
}

function withinPrices(price: number, query: SimQuery): boolean {
  return (query.minPrice === null || price >= query.minPrice) && (query.maxPrice === null || price <= query.maxPrice);
}

function hasPriceWindow(query: SimQuery): boolean {
  return query.minPrice !== null || query.maxPrice !== null;
}

/** The id drawn from `seed` for a listing of the source, with its product. */
function drawnListing(seed: number, source: ListingSource): { itemId: string; product: Product; price: () => number } {
  const random = randomFrom(seed);
  const digits = randomDigits(random);
  const product = source.product ?? catalogueProductOf(digits);
  const traits = drawTraits(random, product, source.scope);
  const itemId = makeItemId(traits, digits, product);
  return { itemId, product, price: () => natureOf(itemId, traits, product).shownPrice };
}

/** The share of the source's listings whose shown price is inside the query's window. */
function priceShare(query: SimQuery, key: string, source: ListingSource): number {
  if (!hasPriceWindow(query)) return 1;
  let inside = 0;
  for (let index = 0; index < PRICE_SAMPLE; index += 1) {
    if (withinPrices(drawnListing(hashString(`share|${key}|${index}`), source).price(), query)) inside += 1;
  }
  return inside / PRICE_SAMPLE;
}

/** The share of listings the filters leave: condition, buying format, price window. */
function filterShare(query: SimQuery, key: string, source: ListingSource): number {
  const conditionShare = query.condition === 'any' ? 1 : 0.5;
  const formatShare = query.format === 'all' ? 1 : query.format === 'buyItNow' ? 0.7 : 0.3;
  return priceShare(query, key, source) * conditionShare * formatShare;
}

function queryKey(query: SimQuery): string {
  return [query.site, query.keyword.toLowerCase(), query.categoryId, query.sold, query.condition, query.format, query.minPrice, query.maxPrice].join('|');
}

function rowAt(query: SimQuery, key: string, index: number, source: ListingSource, excluded: readonly string[]): Listing | null {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const drawn = drawnListing(hashString(`${key}|${index}|${attempt}`), source);
    // The price decides first: it is cheaper than the whole listing, whose title the excluded words need.
    if (hasPriceWindow(query) && !withinPrices(drawn.price(), query)) continue;
    const listing = listingOf(drawn.itemId, drawn.product, source.language);
    if (!listing) continue;
    if (excluded.length > 0 && wordsOf(listing.title).some((word) => excluded.includes(word))) continue;
    return listing;
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

/**
 * The page a query shows. Exact matches are listings of the product its keyword names (without the
 * excluded `-words`); loose matches, below the divider, listings of the product its commoner words
 * name; a category page's, listings of the catalogue. No title holds an excluded word.
 */
export function searchPage(query: SimQuery, directives: Directives): SimPage {
  const key = queryKey(query);
  const name = searchedProductName(query.keyword);
  const looseName = commonerWords(name.split(' ').filter(Boolean)).join(' ');
  const scope: TraitScope = { sold: query.sold, condition: query.condition, formats: formatChoices(query) };
  const language = SITE_LOCALES[query.site].titleLanguage;
  const exactSource: ListingSource = { product: name ? productNamed(name) : null, scope, language };
  const looseSource: ListingSource = { product: looseName ? productNamed(looseName) : null, scope, language };
  const { exact: totalExact, loose: totalLoose } = resultCounts(
    { site: query.site, keyword: query.keyword, categoryId: query.categoryId, sold: query.sold, filterShare: filterShare(query, key, exactSource) },
    directives,
  );
  const combined = totalExact + totalLoose;
  const lastPage = Math.max(1, Math.ceil(combined / query.pageSize));
  const page = Math.min(query.page, lastPage);
  const excluded = excludedWordsOf(query.keyword);
  const rows: SimRow[] = [];
  for (let index = (page - 1) * query.pageSize; index < Math.min(combined, page * query.pageSize); index += 1) {
    const loose = index >= totalExact;
    const listing = rowAt(query, key, index, loose ? looseSource : exactSource, excluded);
    if (listing) rows.push({ listing, loose });
  }
  return { totalExact, page, lastPage, rows: sortRows(rows, query.sortOrder) };
}
