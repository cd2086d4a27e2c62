/**
 * The words of a search text, as the marketplace reads them: lower case, punctuation at either end
 * removed; a word written `-word` excludes the listings whose titles hold it, and is no word the
 * listings must hold.
 */

/** The search text as words: lower case, punctuation at either end removed. */
export function wordsOf(keyword: string): string[] {
  return keyword
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

const isExclusion = (word: string) => word.length > 1 && word.startsWith('-');

/** The words the listings found must hold: every word but the `-word`s. */
export function requiredWordsOf(keyword: string): string[] {
  return wordsOf(
    keyword
      .split(/\s+/)
      .filter((word) => !isExclusion(word))
      .join(' '),
  );
}

/** The words no title found may hold: "-case" excludes titles with "case". */
export function excludedWordsOf(keyword: string): string[] {
  return keyword
    .split(/\s+/)
    .filter(isExclusion)
    .flatMap((word) => wordsOf(word.slice(1)));
}

/**
 * Nonsense, which the marketplace finds nothing for: a word of five or more Latin letters (a–z
 * only, no digits) without a vowel (a, e, i, o, u or y), such as "xkcdq", "zzzzz" or "qwrtplk".
 * Shorter words ("dvd", "rtx", "nfl") and words with digits ("wh1000xm4") are ordinary.
 */
export function isNonsenseWord(word: string): boolean {
  return /^[a-z]{5,}$/.test(word) && !/[aeiouy]/.test(word);
}
