import { z } from 'zod';
import { buyingFormatFilterSchema, itemConditionSchema, listingQueryOf, SEARCH_DEFAULTS, type ListingCollection, type ListingQuery } from './listing.js';
import type { SellThroughParams } from './listing-params.js';
import { marketSiteSchema } from './market-sites.js';

export const SELL_THROUGH_DEFINITION = "sold / (sold + active); sold listings cover the marketplace's last 90 days";

/** Body of `GET /v1/sell-through` (contract, "Sell-through"). */
export const sellThroughSchema = z.object({
  sold: z.object({ totalResults: z.number().int().nullable() }),
  active: z.object({ totalResults: z.number().int().nullable() }),
  /** Null when both counts are 0, or either is unknown. */
  sellThrough: z.number().min(0).max(1).nullable(),
  definition: z.literal(SELL_THROUGH_DEFINITION),
  query: z.object({
    keyword: z.string(),
    marketSite: marketSiteSchema,
    categoryId: z.string(),
    itemCondition: itemConditionSchema,
    minPrice: z.number().nullable(),
    maxPrice: z.number().nullable(),
    buyingFormat: buyingFormatFilterSchema,
    exactMatch: z.boolean(),
  }),
  requestId: z.string(),
});
export type SellThrough = z.infer<typeof sellThroughSchema>;

/** sold / (sold + active), to four places; null when both are 0 or either is unknown. */
export function sellThroughOf(sold: number | null, active: number | null): number | null {
  if (sold === null || active === null || sold + active === 0) return null;
  return Math.round((sold / (sold + active)) * 10_000) / 10_000;
}

/** The two searches of a sell-through: its parameters, sold and then active, the first page of each. */
export function sellThroughSearches(params: SellThroughParams): [sold: ListingQuery, active: ListingQuery] {
  const searchOf = (sold: boolean) => listingQueryOf({ ...SEARCH_DEFAULTS, ...params, sold, page: 1 });
  return [searchOf(true), searchOf(false)];
}

/** The answer of a sell-through from its two searches' collections. */
export function sellThroughAnswer(params: SellThroughParams, sold: ListingCollection, active: ListingCollection, requestId: string): SellThrough {
  const soldTotal = sold.pagination.totalResults;
  const activeTotal = active.pagination.totalResults;
  return {
    sold: { totalResults: soldTotal },
    active: { totalResults: activeTotal },
    sellThrough: sellThroughOf(soldTotal, activeTotal),
    definition: SELL_THROUGH_DEFINITION,
    query: {
      keyword: params.keyword,
      marketSite: params.marketSite,
      categoryId: params.categoryId,
      itemCondition: params.itemCondition,
      minPrice: params.minPrice ?? null,
      maxPrice: params.maxPrice ?? null,
      buyingFormat: params.buyingFormat,
      exactMatch: params.exactMatch,
    },
    requestId,
  };
}
