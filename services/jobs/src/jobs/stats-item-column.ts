import type { CompsKind, ConditionGroup } from '@comps/shared/contract/comps';
import type { StatsItem } from '@comps/shared/comps/statistics';

/**
 * What the statistics read of an item, stored (job_pages.stats_items holds a JSON array of these a
 * page) as a JSON array rather than an object: a third of the bytes, parsed several times faster,
 * for a job's statistics over tens of thousands of items. Prices share the item's currency (a unit
 * price is the price divided, a landed one is null in another currency).
 */
type Stored = [
  price: number | null,
  currency: string | null,
  priceRange: 0 | 1,
  looseMatch: 0 | 1,
  kind: CompsKind,
  condition: ConditionGroup | null,
  units: number | null,
  unitPrice: number | null,
  landedUnitPrice: number | null,
  bestOfferAccepted: 0 | 1,
  buyingFormat: StatsItem['buyingFormat'],
  soldDate: string | null,
];

export function encodeStatsItem(item: StatsItem): string {
  const stored: Stored = [
    item.price?.value ?? null,
    item.price?.currency ?? null,
    item.priceRange ? 1 : 0,
    item.looseMatch ? 1 : 0,
    item.kind,
    item.condition,
    item.units,
    item.unitPrice?.value ?? null,
    item.landedUnitPrice?.value ?? null,
    item.bestOfferAccepted ? 1 : 0,
    item.buyingFormat,
    item.soldDate,
  ];
  return JSON.stringify(stored);
}

/** The items of a page's stored array, in order. */
export function decodeStatsItems(text: string): StatsItem[] {
  return (JSON.parse(text) as Stored[]).map(decodeStored);
}

function moneyOf(value: number | null, currency: string | null) {
  return value === null || currency === null ? null : { value, currency };
}

function decodeStored(stored: Stored): StatsItem {
  const currency = stored[1];
  const price = moneyOf(stored[0], currency);
  // A single's unit price is its price, and with free shipping its landed price is too: one object
  // for all three (a job decodes tens of thousands; nothing changes them).
  const unitPrice = stored[7] === stored[0] ? price : moneyOf(stored[7], currency);
  return {
    price,
    priceRange: stored[2] === 1,
    looseMatch: stored[3] === 1,
    kind: stored[4],
    condition: stored[5],
    units: stored[6],
    unitPrice,
    landedUnitPrice: stored[8] === stored[7] ? unitPrice : moneyOf(stored[8], currency),
    bestOfferAccepted: stored[9] === 1,
    buyingFormat: stored[10],
    soldDate: stored[11],
  };
}
