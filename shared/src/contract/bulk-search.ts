import { z } from 'zod';
import { statsIncludeBody } from './comps.js';
import { LIMITS } from './limits.js';
import { BUYING_FORMATS, ITEM_CONDITIONS, listingQueryOf, SEARCH_DEFAULTS, SORT_ORDERS, type ListingQuery } from './listing.js';
import { bodyMarketSite, integerIn, oneOf, searchTextField } from './search-fields.js';

const price = z.number({ error: 'must be a number' }).min(0, { error: 'must be at least 0' }).max(1e9, { error: 'must be at most 1000000000' });

/**
 * Body of `POST /api/bulk-search` (JSON): 1 to 20 keywords, and any search parameter, applied to
 * every keyword and validated as the search validates its query (here as JSON values).
 */
export const bulkSearchBodyObject = z.object(
  {
    keywords: z
      .array(searchTextField('must be a string'), {
        error: 'is required: an array of 1 to 20 keywords',
      })
      .min(LIMITS.bulkKeywords.min, { error: `must hold at least ${LIMITS.bulkKeywords.min} keyword` })
      .max(LIMITS.bulkKeywords.max, { error: `must hold at most ${LIMITS.bulkKeywords.max} keywords` })
      .meta({ description: 'the search texts, each searched once' }),
    count: integerIn(LIMITS.count.min, LIMITS.count.max).default(LIMITS.count.default).meta({ description: 'results per keyword' }),
    marketSite: bodyMarketSite,
    categoryId: z.string({ error: 'must be a string' }).regex(/^\d{1,12}$/, { error: 'must be a category number' }).default(SEARCH_DEFAULTS.categoryId),
    sold: z.boolean({ error: 'must be true or false' }).default(SEARCH_DEFAULTS.sold),
    itemCondition: oneOf(ITEM_CONDITIONS).default(SEARCH_DEFAULTS.itemCondition),
    sortOrder: oneOf(SORT_ORDERS).default(SEARCH_DEFAULTS.sortOrder),
    minPrice: price.optional(),
    maxPrice: price.optional(),
    buyingFormat: oneOf(BUYING_FORMATS).default(SEARCH_DEFAULTS.buyingFormat),
    exactMatch: z.boolean({ error: 'must be true or false' }).default(SEARCH_DEFAULTS.exactMatch),
    statsInclude: statsIncludeBody.optional(),
  },
  { error: 'must be a JSON object' },
);

export const bulkSearchBodySchema = bulkSearchBodyObject.refine(
  (body) => body.minPrice === undefined || body.maxPrice === undefined || body.minPrice <= body.maxPrice,
  { error: 'must not be above maxPrice', path: ['minPrice'] },
);
export type BulkSearchBody = z.output<typeof bulkSearchBodySchema>;

/** The search of one keyword of a bulk search (page 1). */
export function bulkKeywordQuery(body: BulkSearchBody, keyword: string): ListingQuery {
  return listingQueryOf({ ...body, keyword, page: 1 });
}
