import type { ListingQuery } from '@comps/shared/contract/listing';

/** A sold search with the specification's defaults, for tests to vary one field at a time. */
export const SAMPLE_QUERY: ListingQuery = {
  keyword: 'sony headphones',
  marketSite: 'market.com',
  categoryId: '0',
  page: 1,
  count: 60,
  sold: true,
  itemCondition: 'any',
  sortOrder: 'endedRecently',
  minPrice: null,
  maxPrice: null,
  buyingFormat: 'all',
  exactMatch: true,
};
