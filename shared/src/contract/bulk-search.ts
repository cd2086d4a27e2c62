import { z } from 'zod';
import { LIMITS } from './limits.js';
import { BUYING_FORMATS, ITEM_CONDITIONS, listingQueryOf, SEARCH_DEFAULTS, SORT_ORDERS, type ListingQuery } from './listing.js';
import { DEFAULT_MARKET_SITE, MARKET_SITES } from './market-sites.js';

const integerIn = (min: number, max: number) =>
  z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` });
const price = z.number({ error: 'must be a number' }).min(0, { error: 'must be at least 0' }).max(1e9, { error: 'must be at most 1000000000' });
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` });

/**
 * Body of `POST /api/bulk-search` (JSON): 1 to 20 keywords, and any search parameter, applied to
 * every keyword and validated as the search validates its query (here as JSON values).
 */
export const bulkSearchBodyObject = z.object(
  {
    keywords: z
      .array(z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(350, { error: 'must be at most 350 characters' }), {
        error: 'is required: an array of 1 to 20 keywords',
      })
      .min(LIMITS.bulkKeywords.min, { error: `must hold at least ${LIMITS.bulkKeywords.min} keyword` })
      .max(LIMITS.bulkKeywords.max, { error: `must hold at most ${LIMITS.bulkKeywords.max} keywords` })
      .meta({ description: 'the search texts, each searched once' }),
    count: integerIn(LIMITS.count.min, LIMITS.count.max).default(LIMITS.count.default).meta({ description: 'results per keyword' }),
    marketSite: oneOf(MARKET_SITES).default(DEFAULT_MARKET_SITE),
    categoryId: z.string({ error: 'must be a string' }).regex(/^\d{1,12}$/, { error: 'must be a category number' }).default(SEARCH_DEFAULTS.categoryId),
    sold: z.boolean({ error: 'must be true or false' }).default(SEARCH_DEFAULTS.sold),
    itemCondition: oneOf(ITEM_CONDITIONS).default(SEARCH_DEFAULTS.itemCondition),
    sortOrder: oneOf(SORT_ORDERS).default(SEARCH_DEFAULTS.sortOrder),
    minPrice: price.optional(),
    maxPrice: price.optional(),
    buyingFormat: oneOf(BUYING_FORMATS).default(SEARCH_DEFAULTS.buyingFormat),
    exactMatch: z.boolean({ error: 'must be true or false' }).default(SEARCH_DEFAULTS.exactMatch),
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
