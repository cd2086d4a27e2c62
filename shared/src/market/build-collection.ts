import type { ListingCollection, ListingQuery, Source } from '../contract/listing.js';
import { compsOfListings } from '../comps/listing-comps.js';
import type { ParsedSearchPage } from './parse/search-page.js';

/**
 * The contract's collection from a parsed page and the query: loose matches per `exactMatch`,
 * rows without a sold marker out of a sold search, at most `count` items, the data-quality
 * figures of what is returned, and the comps of what is returned (each item's, and the `stats`).
 */
export function buildListingCollection(
  page: ParsedSearchPage,
  query: ListingQuery,
  source: Source,
  requestId: string,
): ListingCollection {
  let rowsDropped = page.rowsDropped;
  let looseMatchesExcluded = 0;
  const kept = page.items.filter((item) => {
    if (query.sold && !item.sold) {
      rowsDropped += 1;
      return false;
    }
    if (query.exactMatch && item.looseMatch) {
      looseMatchesExcluded += 1;
      return false;
    }
    return true;
  });
  const rows = kept.slice(0, query.count);
  const { items, stats } = compsOfListings(rows, {
    keyword: query.keyword,
    site: query.marketSite,
    basis: query.sold ? 'sold' : 'asking',
    include: query.statsInclude,
  });
  return {
    items,
    pagination: {
      page: query.page,
      count: query.count,
      returned: items.length,
      totalResults: page.totalResults,
      hasNextPage: page.hasNextPage,
    },
    dataQuality: {
      soldDatesVerified: false,
      displayedOnlyPrices: items.filter((item) => item.priceIsDisplayedOnly).length,
      bestOfferAccepted: items.filter((item) => item.bestOfferAccepted).length,
      looseMatchesExcluded,
      rowsDropped,
      rowsReadStructurally: rows.filter((row) => page.readStructurally.has(row)).length,
    },
    stats,
    query,
    source,
    requestId,
  };
}
