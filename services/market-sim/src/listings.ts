import { between, hashString, pick, randomFrom } from './random.js';

/**
 * A simulated listing. Everything about it follows from its 12-digit id, so the item page of an
 * id agrees with the search row that listed it, and any id the simulator did not make (its last
 * two digits are a checksum) is "not found".
 *
 *   digit 0      1–3, cosmetic
 *   digit 1      state: 0 active, 1 sold, 2 ended unsold
 *   digit 2      condition: 0 new, 1 used
 *   digit 3      format: 0 Buy It Now, 1 Buy It Now or Best Offer, 2 auction, 3 best offer accepted
 *   digits 4–9   random
 *   digits 10–11 checksum (mod 97)
 */
export type ListingState = 'active' | 'sold' | 'ended';
export type ListingFormat = 'buyItNow' | 'bestOffer' | 'auction' | 'bestOfferAccepted';
export type ListingCondition = 'new' | 'used';

const STATES: ListingState[] = ['active', 'sold', 'ended'];
const CONDITIONS: ListingCondition[] = ['new', 'used'];
const FORMATS: ListingFormat[] = ['buyItNow', 'bestOffer', 'auction', 'bestOfferAccepted'];

/** Sold dates count back from this day, so a page never changes with the calendar. */
const SIM_EPOCH = Date.UTC(2026, 10, 15);

const BRANDS = ['Sony', 'Nintendo', 'LEGO', 'Canon', 'Apple', 'Bose', 'Pokémon', 'Levi’s', 'Seiko', 'Makita', 'Dyson', 'Fender', 'Champion', 'Volkswagen', 'Pyrex'];
const THINGS = ['Headphones', 'Console', 'Set', 'Camera Lens', 'Watch', 'Cordless Drill', 'Vacuum', 'Guitar', 'Sweatshirt', 'Door Panel', 'Card Lot', 'Bowl', 'Jacket', 'Vinyl LP', 'Figure'];
const TRAITS = ['Vintage', 'Sealed', 'Complete', 'Tested', 'Rare', 'Original', 'Boxed', 'Mint', 'Refurbished', 'Limited Edition', 'Genuine OEM', 'Bundle'];
const SELLER_WORDS = ['retro', 'vault', 'corner', 'finds', 'outlet', 'trader', 'attic', 'depot', 'market', 'collect'];
const SPECIFIC_NAMES = ['Brand', 'Model', 'Colour', 'Year', 'Country of Origin', 'MPN'];
const COLOURS = ['Black', 'Silver', 'Blue', 'Red', 'White', 'Navy'];

export interface Listing {
  itemId: string;
  state: ListingState;
  condition: ListingCondition;
  format: ListingFormat;
  descriptor: string;
  brand: string;
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

function checksum(payload: string): string {
  return String(hashString(payload) % 97).padStart(2, '0');
}

export interface IdTraits {
  state: ListingState;
  condition: ListingCondition;
  format: ListingFormat;
}

/** An id with the given traits, from a seed (the same seed gives the same id). */
export function makeItemId(seed: number, traits: IdTraits): string {
  const random = randomFrom(seed);
  const payload = `${between(random, 1, 3)}${STATES.indexOf(traits.state)}${CONDITIONS.indexOf(traits.condition)}${FORMATS.indexOf(traits.format)}${String(between(random, 0, 999_999)).padStart(6, '0')}`;
  return `${payload}${checksum(payload)}`;
}

/** The listing behind an id, or null when the simulator never made that id. */
export function listingOf(itemId: string): Listing | null {
  if (!/^\d{12}$/.test(itemId)) return null;
  const payload = itemId.slice(0, 10);
  if (checksum(payload) !== itemId.slice(10)) return null;
  const state = STATES[Number(payload[1])];
  const condition = CONDITIONS[Number(payload[2])];
  const format = FORMATS[Number(payload[3])];
  if (!state || !condition || !format || (format === 'bestOfferAccepted' && state !== 'sold')) return null;

  const random = randomFrom(hashString(itemId));
  const brand = pick(random, BRANDS);
  const descriptor = `${brand} ${pick(random, THINGS)} ${String.fromCharCode(65 + between(random, 0, 25))}${between(random, 10, 990)} ${pick(random, TRAITS)}`;
  // Prices spread evenly on a log scale from 1 to 2,000, as real listings do.
  const price = Math.round(Math.exp(random() * Math.log(2000)) * 100) / 100;
  const ranged = state === 'active' && format === 'buyItNow' && random() < 0.12;
  const discounted = !ranged && format !== 'auction' && format !== 'bestOfferAccepted' && random() < 0.1;
  const shippingRoll = random();
  return {
    itemId,
    state,
    condition,
    format,
    descriptor,
    brand,
    price: Math.max(0.99, price),
    priceHigh: ranged ? Math.round(price * (1.2 + random()) * 100) / 100 : null,
    wasPrice: discounted ? Math.round(price * (1.15 + random() * 0.5) * 100) / 100 : null,
    shipping: shippingRoll < 0.4 ? 0 : shippingRoll < 0.95 ? Math.round((2.99 + random() * 27) * 100) / 100 : null,
    bids: format === 'auction' ? between(random, state === 'active' ? 0 : 1, 40) : 0,
    endedOn: new Date(SIM_EPOCH - between(random, 0, 120) * 86_400_000),
    seller: {
      username: `${pick(random, SELLER_WORDS)}_${pick(random, SELLER_WORDS)}${between(random, 1, 99)}`,
      score: Math.floor(Math.exp(random() * Math.log(60_000))),
      percent: Math.round((95 + random() * 5) * 10) / 10,
    },
    abroad: random() < 0.3 ? between(random, 0, 3) : null,
    quantitySold: state === 'active' ? between(random, 0, 40) : 1,
    specifics: SPECIFIC_NAMES.slice(0, between(random, 3, SPECIFIC_NAMES.length)).map((name) => [
      name,
      name === 'Brand' ? brand : name === 'Colour' ? pick(random, COLOURS) : name === 'Year' ? String(between(random, 1975, 2025)) : name === 'MPN' ? `${brand.slice(0, 2).toUpperCase()}-${between(random, 1000, 9999)}` : name === 'Model' ? descriptor.split(' ')[2]! : 'Unknown',
    ]),
    categoryPath: ['Collectibles', `${brand} Collectibles`],
    imageCount: between(random, 1, 4),
  };
}

export function compactScore(score: number): string {
  if (score < 1000) return String(score);
  if (score < 1_000_000) return `${(score / 1000).toFixed(1).replace(/\.0$/, '')}K`;
  return `${(score / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}
