// PLACEHOLDER until the classification branch lands (replaced whole).
import type { CompsKind, ConditionGroup } from '../contract/comps.js';
import type { MarketSite } from '../contract/market-sites.js';
import type { Money } from '../contract/money.js';
export interface ListingFacts { title: string; conditionText: string | null; price: Money | null; shipping: Money | null; keyword: string | null; site: MarketSite }
export interface Classification { kind: CompsKind; condition: ConditionGroup | null; units: number | null; unitPrice: Money | null; landedUnitPrice: Money | null }
export function classifyListing(facts: ListingFacts): Classification {
  const landed = facts.price && facts.shipping && facts.shipping.currency === facts.price.currency ? { value: facts.price.value + facts.shipping.value, currency: facts.price.currency } : null;
  return { kind: 'single', condition: null, units: 1, unitPrice: facts.price, landedUnitPrice: landed };
}
