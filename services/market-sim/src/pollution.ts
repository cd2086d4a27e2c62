import type { IdTraits, ListingFormat } from './listings.js';
import { priceLevel, SOLD_DAYS, type Product } from './products.js';
import {
  ACCESSORY_FLOOR,
  ACCESSORY_PRICE_SHARES,
  BEST_OFFER_DISCOUNT,
  FAMILY_ACCESSORIES,
  FOR_PARTS_FACTOR,
  type AccessoryType,
} from './product-words.js';
import { between, hashString, pick, randomFrom, standardNormal, within } from './random.js';

/**
 * What a listing really is, beyond what its row says: one working unit, or the pollution real
 * searches carry (accessories for the product, broken units, lots, accepted offers shown at the
 * asking price, prices typed ten times too high or too low), and what it really sold for. Its
 * kind, condition, state and format are drawn from the product's shares when a search lists it
 * and written into its id; the rest follows from the id.
 */
export type ListingKind = 'single' | 'lot' | 'accessory';
export type ConditionGroup = 'new' | 'used' | 'refurbished' | 'forParts';

export interface ListingNature {
  kind: ListingKind;
  condition: ConditionGroup;
  /** The units really sold: 1 for a single or an accessory; a lot's size, stated in its title or not. */
  units: number;
  /** Whether the title says how many units (always, for a single or an accessory). */
  unitsStated: boolean;
  accessory: AccessoryType | null;
  /** The price shown is ten times too high or too low. */
  typo: boolean;
  /** Days before the last day of sold listings it sold (0 for listings on sale). */
  daysAgo: number;
  /** What the buyer paid for the whole listing (for a listing on sale, the true asking price). */
  paidPrice: number;
  /** What the row shows: the asking price for an accepted offer, the mistyped one for a typo. */
  shownPrice: number;
}

/** What a search lets through: sold or on sale, the condition asked for, the buying formats. */
export interface TraitScope {
  sold: boolean;
  condition: 'any' | 'new' | 'used';
  formats: readonly ListingFormat[];
}

/** How listings sell when nothing filters them; sold ones also by accepted offers, at the product's share. */
const SOLD_FORMATS: ReadonlyArray<[ListingFormat, number]> = [['buyItNow', 0.45], ['bestOffer', 0.15], ['auction', 0.4]];
const ACTIVE_FORMATS: ReadonlyArray<[ListingFormat, number]> = [['buyItNow', 0.5], ['bestOffer', 0.25], ['auction', 0.25]];
/** Accessories are mostly sold new, lots mostly used. */
const NEW_SHARE_OF: Readonly<Record<Exclude<ListingKind, 'single'>, number>> = { accessory: 0.65, lot: 0.3 };
/** Most lots say how many units they hold. */
const LOTS_STATING_SIZE = 0.7;

function weighted<T>(random: () => number, choices: ReadonlyArray<readonly [T, number]>): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of choices) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return choices.at(-1)![0];
}

function formatOf(random: () => number, product: Product, scope: TraitScope): ListingFormat {
  const base = scope.sold
    ? [...SOLD_FORMATS.map(([format, weight]) => [format, weight * (1 - product.shares.bestOfferAccepted)] as const), ['bestOfferAccepted', product.shares.bestOfferAccepted] as const]
    : ACTIVE_FORMATS;
  const allowed = base.filter(([format]) => scope.formats.includes(format));
  return weighted(random, allowed.length > 0 ? allowed : base);
}

function conditionOf(random: () => number, kind: ListingKind, product: Product, scope: TraitScope): ConditionGroup {
  if (scope.condition !== 'any') return scope.condition;
  if (kind !== 'single') return random() < NEW_SHARE_OF[kind] ? 'new' : 'used';
  const { accessory, lot, forParts, refurbished, newShare } = product.shares;
  const singles = 1 - accessory - lot;
  const roll = random() * singles;
  if (roll < forParts) return 'forParts';
  if (roll < forParts + refurbished) return 'refurbished';
  return random() < newShare ? 'new' : 'used';
}

/** The traits a search's listing gets, drawn from the product's shares within what the search lets through. */
export function drawTraits(random: () => number, product: Product, scope: TraitScope): IdTraits {
  const roll = random();
  const kind: ListingKind = roll < product.shares.accessory ? 'accessory' : roll < product.shares.accessory + product.shares.lot ? 'lot' : 'single';
  return { kind, state: scope.sold ? 'sold' : 'active', condition: conditionOf(random, kind, product, scope), format: formatOf(random, product, scope) };
}

const roundToCents = (value: number) => Math.round(value * 100) / 100;

/** Prices as sellers set them: auctions end anywhere; fixed prices of 10 or more end in .99 or .00. */
function sellersPrice(value: number, format: ListingFormat, random: () => number): number {
  const roll = random();
  if (format === 'auction' || value < 10) return Math.max(0.99, roundToCents(value));
  if (roll < 0.5) return Math.round(value) - 0.01;
  return Math.round(value);
}

/** The listing's price before how it is shown: a unit, a lot's units at a discount, or an accessory's share of the product. */
function truePrice(random: () => number, traits: IdTraits, product: Product, daysAgo: number): { price: number; units: number; unitsStated: boolean; accessory: AccessoryType | null } {
  const noise = Math.exp(product.spread * standardNormal(random));
  switch (traits.kind) {
    case 'accessory': {
      const accessory = pick(random, FAMILY_ACCESSORIES[product.family]);
      const price = Math.max(product.newPrice * within(random, ACCESSORY_PRICE_SHARES[accessory]), within(random, ACCESSORY_FLOOR));
      return { price: price * noise, units: 1, unitsStated: true, accessory };
    }
    case 'lot': {
      const units = between(random, ...product.lotSize);
      const unitPrice = priceLevel(product, traits.condition === 'new' ? 'new' : 'used', daysAgo) * within(random, product.lotDiscount);
      return { price: units * unitPrice * noise, units, unitsStated: random() < LOTS_STATING_SIZE, accessory: null };
    }
    case 'single': {
      const price =
        traits.condition === 'forParts' ? priceLevel(product, 'used', daysAgo) * within(random, FOR_PARTS_FACTOR) : priceLevel(product, traits.condition, daysAgo);
      return { price: price * noise, units: 1, unitsStated: true, accessory: null };
    }
  }
}

/** What the listing with this id and traits, of this product, really is. */
export function natureOf(itemId: string, traits: IdTraits, product: Product): ListingNature {
  const random = randomFrom(hashString(`nature|${itemId}`));
  const daysAgo = traits.state === 'active' ? 0 : between(random, 0, SOLD_DAYS - 1);
  const { price, units, unitsStated, accessory } = truePrice(random, traits, product, daysAgo);
  const paidPrice = sellersPrice(price, traits.format, random);
  const typo = traits.format !== 'bestOfferAccepted' && random() < product.shares.typo;
  const typoFactor = random() < 0.5 ? 10 : 0.1;
  const shownPrice =
    traits.format === 'bestOfferAccepted'
      ? sellersPrice(paidPrice * (1 + within(random, BEST_OFFER_DISCOUNT)), 'buyItNow', random)
      : typo
        ? Math.max(0.01, roundToCents(paidPrice * typoFactor))
        : paidPrice;
  return { kind: traits.kind, condition: traits.condition, units, unitsStated, accessory, typo, daysAgo, paidPrice, shownPrice };
}
