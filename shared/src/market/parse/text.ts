/** Text `cleanText` leaves as it is: no zero-width character, no whitespace but single inner spaces. */
const NEEDS_CLEANING = /[\u200b-\u200d\u2060\u2063\ufeff]|[^\S ]| {2}|^ | $/;

/** Collapses every run of whitespace (including no-break and zero-width joiners) to one space. */
export function cleanText(text: string): string {
  // Most texts are clean already: one test instead of two replacements.
  if (!NEEDS_CLEANING.test(text)) return text;
  return text
    .replace(/[\u200b-\u200d\u2060\u2063\ufeff]/g, '')
    .replace(/[\s\u00a0\u202f]+/g, ' ')
    .trim();
}

/** Lower case, accents kept, whitespace collapsed: the form vocabulary lookups compare. */
export function foldText(text: string): string {
  return cleanText(text).toLowerCase();
}

/** The first of `prefixes` (lower case, as the vocabulary's are) that `text` starts with, any case. */
export function startsWithAny(text: string, prefixes: readonly string[]): string | undefined {
  const folded = text.toLowerCase();
  return prefixes.find((prefix) => folded.startsWith(prefix));
}

/** For text already cleaned (as every extracted text is): whether it holds one of `needles` (lower case), any case. */
export function includesAny(text: string, needles: readonly string[]): boolean {
  const folded = text.toLowerCase();
  return needles.some((needle) => folded.includes(needle));
}
