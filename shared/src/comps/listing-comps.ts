import type { IncludableReason, ItemComps, Stats } from '../contract/comps.js';
import type { ListingItem, ListingRow } from '../contract/listing.js';
import { SITE_CURRENCY, type MarketSite } from '../contract/market-sites.js';
import { showsRange } from '../market/parse/money.js';
import { classifyListing, type Classification } from './classify.js';
import { computeStats, type StatsItem } from './statistics.js';

/** What a collection's comps depend on besides its listings. */
export interface CompsContext {
  /** The search text (null for a category browse or an item): an accessory is a thing for it. */
  keyword: string | null;
  site: MarketSite;
  /** `sold` for sold listings (prices paid), `asking` for active ones. */
  basis: 'sold' | 'asking';
  /** Reasons to count anyway (`statsInclude`). */
  include: readonly IncludableReason[];
}

/** What a listing is, set apart from the collection it stands in. */
export function classificationOf(row: ListingRow, context: Pick<CompsContext, 'keyword' | 'site'>): Classification {
  return classifyListing({ title: row.title, conditionText: row.condition, price: row.price, shipping: row.shipping, keyword: context.keyword, site: context.site });
}

/** What the statistics read of a listing: its facts and its classification. */
export function statsItemOf(row: ListingRow, classification: Classification): StatsItem {
  return {
    price: row.price,
    // A price shown as a range ("$4.49 to $8.49": a listing with variations) is no price paid.
    priceRange: row.price !== null && row.priceText !== null && showsRange(row.priceText),
    looseMatch: row.looseMatch,
    kind: classification.kind,
    condition: classification.condition,
    units: classification.units,
    unitPrice: classification.unitPrice,
    landedUnitPrice: classification.landedUnitPrice,
    bestOfferAccepted: row.bestOfferAccepted,
    buyingFormat: row.buyingFormat,
    soldDate: row.soldDate,
  };
}

/**
 * The contract's comps of a collection: each listing's `comps` (what it is, and whether it is
 * counted) and the collection's `stats`, from the listings alone. Pure.
 */
export function compsOfListings(rows: readonly ListingRow[], context: CompsContext): { items: ListingItem[]; stats: Stats } {
  const classifications = rows.map((row) => classificationOf(row, context));
  const statsItems = rows.map((row, index) => statsItemOf(row, classifications[index]!));
  const { stats, verdicts } = computeStats(statsItems, { basis: context.basis, siteCurrency: SITE_CURRENCY[context.site], include: new Set(context.include) });
  const items = rows.map((row, index) => {
    const { kind, condition, units, unitPrice, landedUnitPrice } = classifications[index]!;
    const { counted, excludedBecause } = verdicts[index]!;
    return listingItemOf(row, { kind, condition, units, unitPrice, landedUnitPrice, counted, excludedBecause });
  });
  return { items, stats };
}

/**
 * A row with its comps, written out field by field: a spread or Object.assign of a twenty-field
 * row costs several times as much, and a page has hundreds (a new row field fails to compile here).
 */
function listingItemOf(row: ListingRow, comps: ItemComps): ListingItem {
  return {
    itemId: row.itemId,
    title: row.title,
    url: row.url,
    imageUrl: row.imageUrl,
    condition: row.condition,
    sold: row.sold,
    soldDate: row.soldDate,
    soldDateText: row.soldDateText,
    soldDateVerified: row.soldDateVerified,
    price: row.price,
    priceText: row.priceText,
    priceIsDisplayedOnly: row.priceIsDisplayedOnly,
    bestOfferAccepted: row.bestOfferAccepted,
    buyingFormat: row.buyingFormat,
    bidCount: row.bidCount,
    shipping: row.shipping,
    shippingText: row.shippingText,
    seller: row.seller,
    location: row.location,
    looseMatch: row.looseMatch,
    comps,
  };
}

/** An item's own comps (item details): no keyword to be an accessory for, no collection to be an outlier in. */
export function compsOfItem(item: Omit<ListingRow, 'looseMatch'>, site: MarketSite): ItemComps {
  const [only] = compsOfListings([{ ...item, looseMatch: false }], { keyword: null, site, basis: item.sold ? 'sold' : 'asking', include: [] }).items;
  return only!.comps;
}
