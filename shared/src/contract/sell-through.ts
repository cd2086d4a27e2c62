import { z } from 'zod';
import { buyingFormatFilterSchema, itemConditionSchema } from './listing.js';
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
