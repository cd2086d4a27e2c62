import { natureOf, type ConditionGroup, type ListingKind, type ListingNature } from './pollution.js';
import { catalogueProductOf, LAST_SOLD_DAY, SOLD_DAYS, type Product } from './products.js';
import { between, hashString, pick, randomFrom } from './random.js';
import type { TitleLanguage } from './title-words.js';
import { composeTitle } from './titles.js';

/**
 * A simulated listing: a listing of a product (see products.ts). What it is (its kind, condition,
 * state and format) is written into its 12-digit id; everything else follows from the id and the
 * product, so the item page of an id agrees with the search row that listed it.
 *
 *   digit 0      kind: 1 single, 2 lot, 3 accessory
 *   digit 1      state: 0 active, 1 sold, 2 ended unsold
 *   digit 2      condition: 0 new, 1 used, 2 refurbished, 3 for parts
 *   digit 3      format: 0 Buy It Now, 1 Buy It Now or Best Offer, 2 auction, 3 best offer accepted
 *   digits 4–9   random
 *   digits 10–11 checksum (mod 97) of digits 0–9 and the product's key
 *
 * The product is not in the id: 12 digits cannot name any keyword, and the six random digits are
 * what keeps the 20,000 listings of a long job distinct. The checksum binds the id to its product,
 * so an id is valid for the product that listed it (and for another only by a 1-in-97 chance):
 * ids the simulator never made, or made for another product, are "not found". Which product an id
 * belongs to is remembered when a search lists it (listing-products.ts).
 */
export type ListingState = 'active' | 'sold' | 'ended';
export type ListingFormat = 'buyItNow' | 'bestOffer' | 'auction' | 'bestOfferAccepted';

const KINDS: readonly ListingKind[] = ['single', 'lot', 'accessory'];
const STATES: readonly ListingState[] = ['active', 'sold', 'ended'];
const CONDITIONS: readonly ConditionGroup[] = ['new', 'used', 'refurbished', 'forParts'];
const FORMATS: readonly ListingFormat[] = ['buyItNow', 'bestOffer', 'auction', 'bestOfferAccepted'];

const SELLER_WORDS = ['retro', 'vault', 'corner', 'finds', 'outlet', 'trader', 'attic', 'depot', 'market', 'collect'];
const SPECIFIC_NAMES = ['Brand', 'Model', 'Colour', 'Year', 'Country of Origin', 'MPN'];
const COLOURS = ['Black', 'Silver', 'Blue', 'Red', 'White', 'Navy'];

export interface IdTraits {
  kind: ListingKind;
  state: ListingState;
  condition: ConditionGroup;
  format: ListingFormat;
}

export interface Listing {
  itemId: string;
  state: ListingState;
  condition: ConditionGroup;
  format: ListingFormat;
  /** What it is a listing of. */
  product: Product;
  /** What it really is and sold for: for the truth module only, never shown as such. */
  nature: ListingNature;
  title: string;
  brand: string;
  /** The price shown (see `ListingNature.shownPrice`). */
  price: number;
  /** The upper end, for a range (an active fixed-price listing with variations), else null. */
  priceHigh: number | null;
  /** The "was" price beside a discounted one, or null. */
  wasPrice: number | null;
  shipping: number | null;
  bids: number;
  /** Sold, or ended, on this day. */
  endedOn: Date;
  seller: { username: string; score: number; percent: number };
  abroad: number | null;
  quantitySold: number;
  specifics: Array<[string, string]>;
  categoryPath: string[];
  imageCount: number;
}

function checksum(payload: string, product: Product): string {
  return String(hashString(`${payload}|${product.key}`) % 97).padStart(2, '0');
}

/** The id of a listing of `product` with these traits and random digits (six). */
export function makeItemId(traits: IdTraits, randomDigits: string, product: Product): string {
  const payload = `${KINDS.indexOf(traits.kind) + 1}${STATES.indexOf(traits.state)}${CONDITIONS.indexOf(traits.condition)}${FORMATS.indexOf(traits.format)}${randomDigits}`;
  return `${payload}${checksum(payload, product)}`;
}

/** Six random digits for an id. */
export function randomDigits(random: () => number): string {
  return String(between(random, 0, 999_999)).padStart(6, '0');
}

/** The traits an id says, or null when it is not one the simulator could have made. */
function traitsOf(itemId: string): IdTraits | null {
  if (!/^\d{12}$/.test(itemId)) return null;
  const kind = KINDS[Number(itemId[0]) - 1];
  const state = STATES[Number(itemId[1])];
  const condition = CONDITIONS[Number(itemId[2])];
  const format = FORMATS[Number(itemId[3])];
  if (!kind || !state || !condition || !format || (format === 'bestOfferAccepted' && state !== 'sold')) return null;
  return { kind, state, condition, format };
}

/** The catalogue product an id stands for when no search listed it (see `catalogueProductOf`). */
export function catalogueProductOfId(itemId: string): Product {
  return catalogueProductOf(itemId.slice(4, 10));
}

/** The listing behind an id, of `product`, titled in `language`; null when the simulator never made that id for that product. */
export function listingOf(itemId: string, product: Product, language: TitleLanguage): Listing | null {
  const traits = traitsOf(itemId);
  if (!traits || checksum(itemId.slice(0, 10), product) !== itemId.slice(10)) return null;
  const { state, format } = traits;
  const nature = natureOf(itemId, traits, product);
  const random = randomFrom(hashString(itemId));
  const price = nature.shownPrice;
  const ranged = state === 'active' && format === 'buyItNow' && random() < 0.12;
  const discounted = !ranged && format !== 'auction' && format !== 'bestOfferAccepted' && random() < 0.1;
  const shippingRoll = random();
  const title = composeTitle(itemId, product, nature, language);
  return {
    itemId,
    state,
    condition: traits.condition,
    format,
    product,
    nature,
    title,
    brand: product.brand,
    price,
    priceHigh: ranged ? Math.round(price * (1.2 + random()) * 100) / 100 : null,
    wasPrice: discounted ? Math.round(price * (1.15 + random() * 0.5) * 100) / 100 : null,
    shipping: shippingRoll < 0.4 ? 0 : shippingRoll < 0.95 ? Math.round((2.99 + random() * 27) * 100) / 100 : null,
    bids: format === 'auction' ? between(random, state === 'active' ? 0 : 1, 40) : 0,
    endedOn: new Date(LAST_SOLD_DAY.getTime() - (state === 'active' ? between(random, 0, SOLD_DAYS - 1) : nature.daysAgo) * 86_400_000),
    seller: {
      username: `${pick(random, SELLER_WORDS)}_${pick(random, SELLER_WORDS)}${between(random, 1, 99)}`,
      score: Math.floor(Math.exp(random() * Math.log(60_000))),
      percent: Math.round((95 + random() * 5) * 10) / 10,
    },
    abroad: random() < 0.3 ? between(random, 0, 3) : null,
    quantitySold: state === 'active' ? between(random, 0, 40) : 1,
    specifics: SPECIFIC_NAMES.slice(0, between(random, 3, SPECIFIC_NAMES.length)).map((name) => [
      name,
      name === 'Brand'
        ? product.brand
        : name === 'Colour'
          ? pick(random, COLOURS)
          : name === 'Year'
            ? String(between(random, 1975, 2025))
            : name === 'MPN'
              ? product.modelCodes[0]!
              : name === 'Model'
                ? product.words.join(' ')
                : 'Unknown',
    ]),
    categoryPath: [...product.categoryPath],
    imageCount: between(random, 1, 4),
  };
}

export function compactScore(score: number): string {
  if (score < 1000) return String(score);
  if (score < 1_000_000) return `${(score / 1000).toFixed(1).replace(/\.0$/, '')}K`;
  return `${(score / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}
