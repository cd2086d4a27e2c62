import { z } from 'zod';
import { includableReasonSchema, itemCompsSchema, statsSchema } from './comps.js';
import { LIMITS } from './limits.js';
import { moneySchema } from './money.js';
import { marketSiteSchema } from './market-sites.js';

export const ITEM_ID_PATTERN = /^[0-9]{9,15}$/;

export const sellerSchema = z.object({
  username: z.string().nullable(),
  feedbackScore: z.number().int().nullable(),
  positivePercent: z.number().nullable(),
});
export type Seller = z.infer<typeof sellerSchema>;

export const buyingFormatSchema = z.enum(['auction', 'buyItNow']);
export type BuyingFormat = z.infer<typeof buyingFormatSchema>;

/** A listing as the page shows it (the parser's reading), before comps are computed. */
export const listingRowSchema = z.object({
  itemId: z.string().regex(ITEM_ID_PATTERN),
  title: z.string(),
  url: z.string(),
  imageUrl: z.string().nullable(),
  condition: z.string().nullable(),
  sold: z.boolean(),
  soldDate: z.iso.date().nullable(),
  soldDateText: z.string().nullable(),
  soldDateVerified: z.literal(false),
  price: moneySchema.nullable(),
  priceText: z.string().nullable(),
  priceIsDisplayedOnly: z.boolean(),
  bestOfferAccepted: z.boolean(),
  buyingFormat: buyingFormatSchema.nullable(),
  bidCount: z.number().int().nullable(),
  shipping: moneySchema.nullable(),
  shippingText: z.string().nullable(),
  seller: sellerSchema.nullable(),
  location: z.string().nullable(),
  looseMatch: z.boolean(),
});
export type ListingRow = z.infer<typeof listingRowSchema>;

/** An entry of `items` (contract, "Listing item"): the row and what it is (`comps`, beyond the specification). */
export const listingItemSchema = listingRowSchema.extend({ comps: itemCompsSchema });
export type ListingItem = z.infer<typeof listingItemSchema>;

export const paginationSchema = z.object({
  page: z.number().int(),
  count: z.number().int(),
  returned: z.number().int(),
  totalResults: z.number().int().nullable(),
  hasNextPage: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

export const dataQualitySchema = z.object({
  soldDatesVerified: z.literal(false),
  displayedOnlyPrices: z.number().int(),
  bestOfferAccepted: z.number().int(),
  looseMatchesExcluded: z.number().int(),
  rowsDropped: z.number().int(),
  /** Returned items whose row was read by its structure alone (a layout the parser does not know). */
  rowsReadStructurally: z.number().int(),
});
export type DataQuality = z.infer<typeof dataQualitySchema>;

export const ITEM_CONDITIONS = ['any', 'new', 'used'] as const;
export const SORT_ORDERS = [
  'endedRecently',
  'timeNewlyListed',
  'pricePlusPostageLowest',
  'pricePlusPostageHighest',
] as const;
export const BUYING_FORMATS = ['all', 'auction', 'buyItNow', 'acceptsOffers'] as const;

export const itemConditionSchema = z.enum(ITEM_CONDITIONS);
export const sortOrderSchema = z.enum(SORT_ORDERS);
export const buyingFormatFilterSchema = z.enum(BUYING_FORMATS);

/** The query as the service understood it, echoed in every collection. */
export const listingQuerySchema = z.object({
  keyword: z.string().nullable(),
  marketSite: marketSiteSchema,
  categoryId: z.string(),
  page: z.number().int(),
  count: z.number().int(),
  sold: z.boolean(),
  itemCondition: itemConditionSchema,
  sortOrder: sortOrderSchema,
  minPrice: z.number().nullable(),
  maxPrice: z.number().nullable(),
  buyingFormat: buyingFormatFilterSchema,
  exactMatch: z.boolean(),
  /** Reasons to count anyway in `stats` (beyond the specification). */
  statsInclude: z.array(includableReasonSchema),
});
export type ListingQuery = z.infer<typeof listingQuerySchema>;

/** The specification's defaults of every search parameter (what a search without them asks for). */
export const SEARCH_DEFAULTS = {
  categoryId: '0',
  page: 1,
  count: LIMITS.count.default,
  sold: true,
  itemCondition: 'any',
  sortOrder: 'endedRecently',
  buyingFormat: 'all',
  exactMatch: true,
} as const satisfies Partial<ListingQuery>;

type QueryFields = Omit<ListingQuery, 'minPrice' | 'maxPrice' | 'statsInclude'> & {
  minPrice?: number | null | undefined;
  maxPrice?: number | null | undefined;
  statsInclude?: ListingQuery['statsInclude'] | undefined;
};

/** The query as the service understood it, from validated fields (an absent price bound is null). */
export function listingQueryOf(fields: QueryFields): ListingQuery {
  return {
    keyword: fields.keyword,
    marketSite: fields.marketSite,
    categoryId: fields.categoryId,
    page: fields.page,
    count: fields.count,
    sold: fields.sold,
    itemCondition: fields.itemCondition,
    sortOrder: fields.sortOrder,
    minPrice: fields.minPrice ?? null,
    maxPrice: fields.maxPrice ?? null,
    buyingFormat: fields.buyingFormat,
    exactMatch: fields.exactMatch,
    statsInclude: fields.statsInclude ?? [],
  };
}

export const sourceSchema = z.object({
  marketSite: marketSiteSchema,
  fetchedAt: z.iso.datetime(),
  upstreamMs: z.number().int(),
});
export type Source = z.infer<typeof sourceSchema>;

/** Success body of search and category (contract, "Listing collection"). */
export const listingCollectionSchema = z.object({
  items: z.array(listingItemSchema),
  pagination: paginationSchema,
  dataQuality: dataQualitySchema,
  /** What the listings say together (beyond the specification). */
  stats: statsSchema,
  query: listingQuerySchema,
  source: sourceSchema,
  requestId: z.string(),
});
export type ListingCollection = z.infer<typeof listingCollectionSchema>;

export const itemStatusSchema = z.enum(['active', 'sold', 'ended', 'unknown']);
export type ItemStatus = z.infer<typeof itemStatusSchema>;

/** Success body of `GET /v1/item/{itemId}` (contract, "Item details"). */
export const itemDetailsSchema = listingItemSchema.omit({ looseMatch: true }).extend({
  marketSite: marketSiteSchema,
  status: itemStatusSchema,
  images: z.array(z.string()),
  categoryPath: z.array(z.string()),
  itemSpecifics: z.record(z.string(), z.string()),
  quantitySold: z.number().int().nullable(),
  endedAt: z.iso.datetime().nullable(),
  source: sourceSchema,
  requestId: z.string(),
});
export type ItemDetails = z.infer<typeof itemDetailsSchema>;
