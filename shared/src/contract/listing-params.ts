import { z } from 'zod';
import { statsIncludeQuery } from './comps.js';
import { LIMITS } from './limits.js';
import { BUYING_FORMATS, ITEM_CONDITIONS, ITEM_ID_PATTERN, listingQueryOf, SEARCH_DEFAULTS, SORT_ORDERS } from './listing.js';
import { DEFAULT_MARKET_SITE, MARKET_SITES } from './market-sites.js';
import { queryBoolean, queryEnum, queryInt, queryNumber } from './query-fields.js';
import { SEARCH_TEXT_MAX, searchTextField } from './search-fields.js';

const keyword = searchTextField('must be given once, as a single value').meta({ param: { type: 'string', minLength: 1, maxLength: SEARCH_TEXT_MAX }, description: 'search text' });

const categoryId = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required: the category to browse' : 'must be given once, as a single value') })
  .regex(/^\d{1,12}$/, { error: 'must be a category number' })
  .meta({ param: { type: 'string', pattern: '^\\d{1,12}$' }, description: 'the marketplace category' });

/** Parameters every search and category request shares (specification, "Search and category query parameters"). */
const sharedFields = {
  marketSite: queryEnum(MARKET_SITES).default(DEFAULT_MARKET_SITE).meta({ description: 'regional site; availability is listed in capabilities' }),
  page: queryInt(LIMITS.page.min, LIMITS.page.max).default(SEARCH_DEFAULTS.page).meta({ description: 'page number' }),
  count: queryInt(LIMITS.count.min, LIMITS.count.max).default(LIMITS.count.default).meta({ description: 'results per page' }),
  sold: queryBoolean().default(SEARCH_DEFAULTS.sold).meta({ description: 'false returns active listings' }),
  itemCondition: queryEnum(ITEM_CONDITIONS).default(SEARCH_DEFAULTS.itemCondition).meta({ description: 'condition filter' }),
  sortOrder: queryEnum(SORT_ORDERS).default(SEARCH_DEFAULTS.sortOrder).meta({ description: 'ordering' }),
  minPrice: queryNumber(0).optional().meta({ description: 'lower price bound' }),
  maxPrice: queryNumber(0).optional().meta({ description: 'upper price bound' }),
  buyingFormat: queryEnum(BUYING_FORMATS).default(SEARCH_DEFAULTS.buyingFormat).meta({ description: 'buying-format filter' }),
  exactMatch: queryBoolean().default(SEARCH_DEFAULTS.exactMatch).meta({ description: 'excludes rows the marketplace marks as loose matches; does not guarantee product identity' }),
  statsInclude: statsIncludeQuery.optional(),
};

function priceOrder<T extends { minPrice?: number | undefined; maxPrice?: number | undefined }>(schema: z.ZodType<T>) {
  return schema.refine((query) => query.minPrice === undefined || query.maxPrice === undefined || query.minPrice <= query.maxPrice, {
    error: 'must not be above maxPrice',
    path: ['minPrice'],
  });
}

/** The query of `/v1/scrape`, `/public/scrape` and `/partner/scrape-market`; unknown parameters are ignored. */
export const searchParamsObject = z.object({
  keyword,
  categoryId: categoryId.default(SEARCH_DEFAULTS.categoryId),
  ...sharedFields,
});
export const searchParamsSchema = priceOrder(searchParamsObject).transform(listingQueryOf);

/** The query of `/v1/scrape/category`: the category is required and there is no keyword. */
export const categoryParamsObject = z.object({
  categoryId,
  ...sharedFields,
});
export const categoryParamsSchema = priceOrder(categoryParamsObject).transform((query) =>
  listingQueryOf({ ...query, keyword: null }),
);

export const itemIdSchema = z
  .string()
  .regex(ITEM_ID_PATTERN, { error: 'must be 9 to 15 digits' })
  .meta({ param: { type: 'string', pattern: '^[0-9]{9,15}$' }, description: 'the listing id, as in a listing item' });

/** The query of `/v1/item/{itemId}`. */
export const itemQueryObject = z.object({ marketSite: sharedFields.marketSite });

/** The query of `/v1/sell-through` (beyond the specification): a search's, without what one page of results is about. */
export const sellThroughParamsObject = searchParamsObject.omit({ page: true, count: true, sold: true, sortOrder: true, statsInclude: true });
export const sellThroughParamsSchema = priceOrder(sellThroughParamsObject);
export type SellThroughParams = z.output<typeof sellThroughParamsSchema>;
