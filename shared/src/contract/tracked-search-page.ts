import { listingQueryOf, type ListingQuery } from './listing.js';
import { TRACKED_SEARCH_LIMITS, type TrackedQuery } from './tracked-search.js';

/** What a tracked search searches for: its stored query, or the body that creates it (where a price bound not given is absent). */
type TrackedSearchFields = Omit<TrackedQuery, 'minPrice' | 'maxPrice'> & { minPrice?: number | null | undefined; maxPrice?: number | null | undefined };

/**
 * The search of one page of a tracked search's run: always sold, sorted `endedRecently`, the most
 * rows a page (contract, "Tracked searches and the sold archive"). Page 1 is also what creation
 * checks against the data gate and the sites enabled.
 */
export function trackedSearchPageQuery(query: TrackedSearchFields, page: number): ListingQuery {
  return listingQueryOf({ ...query, page, count: TRACKED_SEARCH_LIMITS.pageSize, sold: true, sortOrder: 'endedRecently' });
}
