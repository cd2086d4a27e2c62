import type { ItemDetails, ListingCollection, ListingQuery } from '../contract/listing.js';
import type { MarketSite } from '../contract/market-sites.js';

/** One marketplace call a caller pays for: a keyword search, a category browse, or one item. */
export type MarketCall =
  | { kind: 'search'; query: ListingQuery }
  | { kind: 'category'; query: ListingQuery }
  | { kind: 'item'; itemId: string; marketSite: MarketSite };

/** What a call returns, parsed into the contract's shape (routes serialize it). */
export type MarketValue<C extends MarketCall> = C extends { kind: 'item' } ? ItemDetails : ListingCollection;

/** The data gate each call passes through (capabilities, `dataGate`). */
export function dataKindOf(call: MarketCall): 'sold' | 'active' | 'item' {
  if (call.kind === 'item') return 'item';
  return call.query.sold ? 'sold' : 'active';
}

export function siteOf(call: MarketCall): MarketSite {
  return call.kind === 'item' ? call.marketSite : call.query.marketSite;
}

/** Whether the call carries search text (history records that there was some, never what). */
export function hasSearchText(call: MarketCall): boolean {
  return call.kind === 'search' && Boolean(call.query.keyword?.trim());
}
