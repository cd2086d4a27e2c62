import type { ConditionGroup } from './pollution.js';
import {
  BRAND_WORDS,
  CATALOGUE,
  CATEGORY_PATHS,
  FAMILY_TRAITS,
  FAMILY_WORDS,
  PRICE_SPREAD,
  PRICE_TREND,
  UNKNOWN_FAMILY_WEIGHTS,
  WORD_SPELLINGS,
  type ProductFamily,
  type Range,
} from './product-words.js';
import { between, hashString, randomFrom, within } from './random.js';
import { requiredWordsOf } from './search-words.js';

/**
 * A product: what a keyword names. The same words name the same product on every site and in every
 * request (in any order: "switch nintendo" is "nintendo switch"), and everything about it follows
 * from them: its family, its price (new, used, refurbished), the spread and trend of its sales, and
 * the shares of its search's listings that are accessories, lots, broken units, accepted offers and
 * typos.
 */
export interface Product {
  /** The words that name it, lower case, in the keyword's order: what a listing of it is remembered by. */
  name: string;
  /** Its identity: the words sorted. Seeds its figures and its listings' checksums. */
  key: string;
  /** The words as sellers write them: "Nintendo Switch OLED". */
  words: readonly string[];
  family: ProductFamily;
  brand: string;
  categoryPath: readonly [string, string];
  /** A new unit's price on the last day of sold listings. */
  newPrice: number;
  /** A working used unit's price, and a refurbished one's, against a new one's. */
  usedFactor: number;
  refurbishedFactor: number;
  /** The standard deviation of the log price of a sale around its level. */
  spread: number;
  /** The change of its log price over the 90 days of sold listings, up to the last day. */
  trend: number;
  shares: PollutionShares;
  lotSize: Range;
  lotDiscount: Range;
  /** Model numbers sellers add to titles ("A2484"). */
  modelCodes: readonly string[];
}

/** The shares of a search's listings (before filters) that are not a clean sale of one working unit. */
export interface PollutionShares {
  accessory: number;
  lot: number;
  /** Broken single units. */
  forParts: number;
  refurbished: number;
  /** Of the working single units, the share sold new (the rest used). */
  newShare: number;
  /** Of sold listings, the share sold by an accepted best offer. */
  bestOfferAccepted: number;
  typo: number;
}

/** Days of sold listings the marketplace shows. */
export const SOLD_DAYS = 90;
/** The last day of sold listings: dates count back from it, so a page never changes with the calendar. */
export const LAST_SOLD_DAY = new Date(Date.UTC(2026, 10, 15));

/** The name of the product a keyword searches for: its words without the excluded ones (directives are already gone). */
export function searchedProductName(keyword: string): string {
  return requiredWordsOf(keyword).join(' ');
}

/** "iphone" → "iPhone", "ps5" → "PS5", "wh-1000xm4" → "WH-1000XM4", "1st" → "1st", "lamp" → "Lamp". */
function sellersSpelling(word: string): string {
  const known = WORD_SPELLINGS[word];
  if (known) return known;
  if (/\d/.test(word) && /\p{L}/u.test(word) && !/^\d+(st|nd|rd|th)$/.test(word)) return word.toUpperCase();
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function familyOf(words: readonly string[], random: () => number): ProductFamily {
  const devices = words.filter((word) => FAMILY_WORDS.device.has(word)).length;
  const collectibles = words.filter((word) => FAMILY_WORDS.collectible.has(word)).length;
  if (devices > collectibles) return 'device';
  if (collectibles > 0) return 'collectible';
  let roll = random();
  for (const [family, weight] of Object.entries(UNKNOWN_FAMILY_WEIGHTS) as Array<[ProductFamily, number]>) {
    roll -= weight;
    if (roll < 0) return family;
  }
  return 'goods';
}

/** "A2484", "CFI-1215": the kind of model number sellers copy from the label. */
function modelCode(random: () => number): string {
  // No X: "X3" would read as a lot's size.
  const letters = 'ABCDEFGHJKLMNPRSTVW';
  const prefix = Array.from({ length: between(random, 1, 3) }, () => letters[between(random, 0, letters.length - 1)]).join('');
  return `${prefix}${random() < 0.4 ? '-' : ''}${between(random, 100, 9999)}`;
}

function sharesOf(family: ProductFamily, random: () => number): PollutionShares {
  const ranges = FAMILY_TRAITS[family].pollution;
  const shares: PollutionShares = {
    accessory: within(random, ranges.accessory),
    lot: within(random, ranges.lot),
    forParts: within(random, ranges.forParts),
    refurbished: within(random, ranges.refurbished),
    newShare: within(random, ranges.newShare),
    bestOfferAccepted: within(random, ranges.bestOfferAccepted),
    typo: within(random, ranges.typo),
  };
  // Some searches are flooded by what they are not (cases for a console, lots of a card).
  if (random() < ranges.flooded) shares[ranges.floodedShare] = within(random, ranges.floodedRange);
  return shares;
}

/** The product a name (lower-case words, as `searchedProductName` gives) stands for. */
export function productNamed(name: string): Product {
  const words = name.split(' ').filter(Boolean);
  const key = [...words].sort().join(' ');
  const random = randomFrom(hashString(`product|${key}`));
  const family = familyOf(words, random);
  const traits = FAMILY_TRAITS[family];
  const brand = words.map((word) => BRAND_WORDS[word]).find(Boolean) ?? 'Unbranded';
  const [low, high] = traits.newPrice;
  const newPrice = Math.exp(within(random, [Math.log(low), Math.log(high)]));
  const usedFactor = within(random, traits.usedFactor);
  return {
    name,
    key,
    words: words.map(sellersSpelling),
    family,
    brand,
    categoryPath: CATEGORY_PATHS[family](brand),
    newPrice,
    usedFactor,
    // Refurbished units sell between used and new ones.
    refurbishedFactor: usedFactor + (1 - usedFactor) * within(random, [0.35, 0.65]),
    spread: within(random, PRICE_SPREAD),
    trend: within(random, PRICE_TREND),
    shares: sharesOf(family, random),
    lotSize: traits.lotSize,
    lotDiscount: traits.lotDiscount,
    modelCodes: Array.from({ length: 3 }, () => modelCode(random)),
  };
}

/** The price level of a working unit in a condition, `daysAgo` days before the last day of sold listings. */
export function priceLevel(product: Product, condition: Exclude<ConditionGroup, 'forParts'>, daysAgo: number): number {
  const factor = condition === 'new' ? 1 : condition === 'refurbished' ? product.refurbishedFactor : product.usedFactor;
  return product.newPrice * factor * Math.exp((-product.trend * daysAgo) / SOLD_DAYS);
}

const CATALOGUE_PRODUCTS: readonly Product[] = CATALOGUE.map(productNamed);

/**
 * The catalogue product of a listing that no keyword names (a category page's rows), chosen by the
 * random digits of its id so that the id alone finds it again.
 */
export function catalogueProductOf(randomDigits: string): Product {
  return CATALOGUE_PRODUCTS[hashString(`catalogue|${randomDigits}`) % CATALOGUE_PRODUCTS.length]!;
}
