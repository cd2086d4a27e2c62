import { SEARCH_DEFAULTS, type ListingQuery } from '@comps/shared/contract/listing';

/** A sold search with the specification's defaults, for tests to vary one field at a time. */
export const SAMPLE_QUERY: ListingQuery = { ...SEARCH_DEFAULTS, keyword: 'sony headphones', marketSite: 'market.com', minPrice: null, maxPrice: null, statsInclude: [] };
