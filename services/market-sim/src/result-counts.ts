import type { Directives } from './directives.js';
import { hashString, randomFrom } from './random.js';
import { excludedWordsOf, isNonsenseWord, requiredWordsOf } from './search-words.js';

/**
 * How many results a search has, as the marketplace would count them. Everything follows from the
 * words' hashes, so a query always finds the same number:
 *
 * - each word occurs in some number of listings: the marketplace's most searched words in 50,000
 *   to 500,000, any other word in 2,000 to 60,000 (spread evenly on a log scale);
 * - a phrase matches as many listings as its rarest word, narrowed by each further word to 10–50%
 *   of that: one or two words find thousands, five or more words a handful, or none;
 * - a phrase with few exact matches (under a page) is followed by looser matches below the
 *   "results matching fewer words" divider: the listings matching its commoner words, the rarest
 *   dropped one by one until they fill a page (at most 1,000 rows);
 * - a nonsense word (see `isNonsenseWord`) matches nothing: no exact results, and loose matches
 *   only from the phrase's other words; a search of nonsense alone finds nothing at all;
 * - a `-word` is no word the listings must hold: it leaves out those whose titles hold it, 3–30 %
 *   of the phrase's listings per such word.
 */

/** The words the marketplace's shoppers search most: each is in a great many listings. */
const POPULAR_WORDS = new Set([
  'adidas', 'apple', 'bag', 'book', 'books', 'camera', 'canon', 'car', 'card', 'cards', 'coin', 'coins', 'console', 'disney',
  'dress', 'dvd', 'game', 'games', 'gold', 'guitar', 'headphones', 'iphone', 'ipad', 'jacket', 'jewelry', 'laptop', 'lego',
  'lot', 'marvel', 'men', 'nike', 'nintendo', 'parts', 'phone', 'playstation', 'pokemon', 'ring', 'samsung', 'shirt', 'shoes',
  'silver', 'sony', 'star', 'switch', 'toy', 'toys', 'vintage', 'vinyl', 'watch', 'wars', 'women', 'xbox',
]);

const CATEGORY_RANGE: [number, number] = [5_000, 200_000];
const POPULAR_RANGE: [number, number] = [50_000, 500_000];
const ORDINARY_RANGE: [number, number] = [3_000, 80_000];
/** Sold listings (the last 90 days) against the listings on sale now. */
const SOLD_SHARE = 0.6;
/** Loose matches shown at most: the marketplace stops offering them after a few pages. */
const MAX_LOOSE = 1_000;
const LOOSE_BELOW = 60;

function logUniform(random: () => number, [low, high]: [number, number]): number {
  return Math.exp(Math.log(low) + random() * (Math.log(high) - Math.log(low)));
}

function listingsWith(word: string): number {
  const random = randomFrom(hashString(`word|${word}`));
  return logUniform(random, POPULAR_WORDS.has(word) ? POPULAR_RANGE : ORDINARY_RANGE);
}

/** How much a further word narrows a phrase: the second word to 20–60%, each later one to 5–35%. */
function narrowing(word: string, position: number): number {
  const random = randomFrom(hashString(`narrow|${word}`))();
  return position === 1 ? 0.2 + random * 0.4 : 0.05 + random * 0.3;
}

/**
 * The words loose matches carry: a phrase's sensible words, its rarest dropped when every word is
 * sensible and there are two or more (a phrase with a nonsense word loosens to its other words).
 */
export function commonerWords(words: readonly string[]): string[] {
  const sensible = words.filter((word) => !isNonsenseWord(word));
  if (sensible.length < words.length || sensible.length < 2) return sensible;
  const rarest = sensible.reduce((rarer, word) => (listingsWith(word) < listingsWith(rarer) ? word : rarer));
  return sensible.filter((word) => word !== rarest);
}

/** Listings matching every word (before filters); the rarest word first, then each other narrows. */
function phraseMatches(words: string[]): number {
  if (words.length === 0) return 0;
  const counts = words.map((word) => ({ word, count: listingsWith(word) })).sort((a, b) => a.count - b.count);
  return counts.slice(1).reduce((total, { word }, index) => total * narrowing(word, index + 1), counts[0]!.count);
}

export interface SearchScope {
  site: string;
  keyword: string;
  categoryId: string;
  sold: boolean;
  /** The share of listings the filters (condition, format, price) leave. */
  filterShare: number;
}

export interface ResultCounts {
  /** What the heading counts. */
  exact: number;
  /** Rows below the "fewer words" divider. */
  loose: number;
}

/** The share of a phrase's listings a `-word` leaves out: those whose titles hold the word, 3 to 30 %. */
function excludedShare(word: string): number {
  return 0.03 + randomFrom(hashString(`exclude|${word}`))() * 0.27;
}

function scaled(matches: number, scope: SearchScope): number {
  // Sites differ a little in size; the same words find slightly different numbers on each.
  const siteShare = 0.6 + randomFrom(hashString(`site|${scope.site}`))() * 0.4;
  return Math.floor(matches * siteShare * (scope.sold ? SOLD_SHARE : 1) * scope.filterShare);
}

export function resultCounts(scope: SearchScope, directives: Directives): ResultCounts {
  if (directives.empty) return { exact: 0, loose: 0 };
  if (directives.total !== null) return { exact: directives.total, loose: directives.loose ?? 0 };
  const words = requiredWordsOf(scope.keyword);
  const kept = excludedWordsOf(scope.keyword).reduce((share, word) => share * (1 - excludedShare(word)), 1);
  if (words.length === 0) {
    const random = randomFrom(hashString(`category|${scope.categoryId}`));
    return { exact: scaled(logUniform(random, CATEGORY_RANGE), scope), loose: directives.loose ?? 0 };
  }
  const sensible = words.filter((word) => !isNonsenseWord(word));
  const exact = sensible.length === words.length ? scaled(phraseMatches(words) * kept, scope) : 0;
  if (directives.loose !== null) return { exact, loose: directives.loose };
  if (exact >= LOOSE_BELOW || sensible.length === 0 || (words.length < 2 && sensible.length === words.length)) return { exact, loose: 0 };
  // Looser matches: the phrase's sensible words, rarest dropped first, until they fill a page.
  const byCount = [...sensible].sort((a, b) => listingsWith(b) - listingsWith(a));
  let commoner = sensible.length === words.length ? byCount.length - 1 : byCount.length;
  while (commoner > 1 && scaled(phraseMatches(byCount.slice(0, commoner)) * kept, scope) < LOOSE_BELOW) commoner -= 1;
  const fewer = scaled(phraseMatches(byCount.slice(0, commoner)) * kept, scope);
  return { exact, loose: Math.min(MAX_LOOSE, Math.max(0, fewer - exact)) };
}
