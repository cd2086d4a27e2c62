import { z } from 'zod';
import { LIMITS } from './limits.js';
import { BUYING_FORMATS, ITEM_CONDITIONS, ITEM_ID_PATTERN, SORT_ORDERS, type ListingQuery } from './listing.js';
import { DEFAULT_MARKET_SITE, MARKET_SITES } from './market-sites.js';
import { queryBoolean, queryEnum, queryInt, queryNumber } from './query-fields.js';

const keyword = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required: the search text' : 'must be given once, as a single value') })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(350, { error: 'must be at most 350 characters' })
  .meta({ param: { type: 'string', minLength: 1, maxLength: 350 }, description: 'search text' });

const categoryId = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required: the category to browse' : 'must be given once, as a single value') })
  .regex(/^\d{1,12}$/, { error: 'must be a category number' })
  .meta({ param: { type: 'string', pattern: '^\\d{1,12}$' }, description: 'the marketplace category' });

/** Parameters every search and category request shares (specification, "Search and category query parameters"). */
const sharedFields = {
  marketSite: queryEnum(MARKET_SITES).default(DEFAULT_MARKET_SITE).meta({ description: 'regional site; availability is listed in capabilities' }),
  page: queryInt(LIMITS.page.min, LIMITS.page.max).default(1).meta({ description: 'page number' }),
  count: queryInt(LIMITS.count.min, LIMITS.count.max).default(LIMITS.count.default).meta({ description: 'results per page' }),
  sold: queryBoolean().default(true).meta({ description: 'false returns active listings' }),
  itemCondition: queryEnum(ITEM_CONDITIONS).default('any').meta({ description: 'condition filter' }),
  sortOrder: queryEnum(SORT_ORDERS).default('endedRecently').meta({ description: 'ordering' }),
  minPrice: queryNumber(0).optional().meta({ description: 'lower price bound' }),
  maxPrice: queryNumber(0).optional().meta({ description: 'upper price bound' }),
  buyingFormat: queryEnum(BUYING_FORMATS).default('all').meta({ description: 'buying-format filter' }),
  exactMatch: queryBoolean().default(true).meta({ description: 'excludes rows the marketplace marks as loose matches; does not guarantee product identity' }),
};

function priceOrder<T extends { minPrice?: number | undefined; maxPrice?: number | undefined }>(schema: z.ZodType<T>) {
  return schema.refine((query) => query.minPrice === undefined || query.maxPrice === undefined || query.minPrice <= query.maxPrice, {
    error: 'must not be above maxPrice',
    path: ['minPrice'],
  });
}

function toListingQuery(query: z.output<z.ZodObject<typeof sharedFields>> & { keyword: string | null; categoryId: string }): ListingQuery {
  return {
    keyword: query.keyword,
    marketSite: query.marketSite,
    categoryId: query.categoryId,
    page: query.page,
    count: query.count,
    sold: query.sold,
    itemCondition: query.itemCondition,
    sortOrder: query.sortOrder,
    minPrice: query.minPrice ?? null,
    maxPrice: query.maxPrice ?? null,
    buyingFormat: query.buyingFormat,
    exactMatch: query.exactMatch,
  };
}

/** The query of `/v1/scrape`, `/public/scrape` and `/partner/scrape-market`; unknown parameters are ignored. */
export const searchParamsObject = z.object({
  keyword,
  categoryId: categoryId.default('0'),
  ...sharedFields,
});
export const searchParamsSchema = priceOrder(searchParamsObject).transform(toListingQuery);

/** The query of `/v1/scrape/category`: the category is required and there is no keyword. */
export const categoryParamsObject = z.object({
  categoryId,
  ...sharedFields,
});
export const categoryParamsSchema = priceOrder(categoryParamsObject).transform((query) =>
  toListingQuery({ ...query, keyword: null }),
);

export const itemIdSchema = z
  .string()
  .regex(ITEM_ID_PATTERN, { error: 'must be 9 to 15 digits' })
  .meta({ param: { type: 'string', pattern: '^[0-9]{9,15}$' }, description: 'the listing id, as in a listing item' });

/** The query of `/v1/item/{itemId}`. */
export const itemQueryObject = z.object({ marketSite: sharedFields.marketSite });

export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
