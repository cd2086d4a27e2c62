import type { MarketSite } from '@comps/shared/contract/market-sites';
import type { Listing } from './listings.js';
import type { ListingProducts } from './listing-products.js';
import { SITE_LOCALES } from './locales.js';
import type { ConditionGroup, ListingKind } from './pollution.js';
import { searchRequestOfUrl, type SearchRequest } from './search-request.js';
import { searchPage } from './search-results.js';

/**
 * What the simulator's listings really are, for tests only: the simulator never puts any of it in
 * a page (no attribute, no state field); a test imports this module and compares what a parser or
 * a statistic made of the pages with it.
 */
export interface ListingTruth {
  kind: ListingKind;
  condition: ConditionGroup;
  /** 1 for a single or an accessory; a lot's stated size; null for a lot that states none. */
  units: number | null;
  /** What the buyer paid for the whole listing: below the asking price shown for an accepted offer, the true price for a typo (for a listing on sale, its true asking price). */
  paidPrice: number;
  /** The price shown is ten times too high or too low. */
  typo: boolean;
}

/** A row of a results page, as shown, with its truth. */
export interface TruthRow {
  itemId: string;
  title: string;
  /** The price the row shows. */
  price: number;
  loose: boolean;
  truth: ListingTruth;
}

export function truthOfListing(listing: Listing): ListingTruth {
  const { kind, condition, units, unitsStated, paidPrice, typo } = listing.nature;
  return { kind, condition, units: unitsStated ? units : null, paidPrice, typo };
}

/**
 * The truth of an item id, as the simulator whose `listingProducts` remembered it shows it on a site
 * (inject the same `ListingProducts` into `createSimApp`); null when that simulator would not find it.
 */
export function truthOfItem(itemId: string, site: MarketSite, listingProducts: ListingProducts): ListingTruth | null {
  const listing = listingProducts.listingOf(itemId, SITE_LOCALES[site].titleLanguage);
  return listing && truthOfListing(listing);
}

/** The rows a search shows (in the order shown), each with its truth. */
export function searchTruth(request: SearchRequest): TruthRow[] {
  return searchPage(request.query, request.directives).rows.map(({ listing, loose }) => ({
    itemId: listing.itemId,
    title: listing.title,
    price: listing.price,
    loose,
    truth: truthOfListing(listing),
  }));
}

/**
 * The rows the results page at `address` shows (`http://host/market.de/sch/i.html?_nkw=…&LH_Sold=1&_ipg=240`,
 * any origin: the page depends on its path and query alone), each with its truth.
 */
export function searchUrlTruth(address: string | URL): TruthRow[] {
  const request = searchRequestOfUrl(address);
  if (!request) throw new Error(`not a results page's address: ${String(address)}`);
  return searchTruth(request);
}
