/** Collapses every run of whitespace (including no-break and zero-width joiners) to one space. */
export function cleanText(text: string): string {
  return text
    .replace(/[\u200b-\u200d\u2060\u2063\ufeff]/g, '')
    .replace(/[\s\u00a0\u202f]+/g, ' ')
    .trim();
}

/** Lower case, accents kept, whitespace collapsed: the form vocabulary lookups compare. */
export function foldText(text: string): string {
  return cleanText(text).toLowerCase();
}

export function startsWithAny(text: string, prefixes: readonly string[]): string | undefined {
  const folded = text.toLowerCase();
  return prefixes.find((prefix) => folded.startsWith(prefix.toLowerCase()));
}

/** For text already cleaned (as every extracted text is): compares lower case. */
export function includesAny(text: string, needles: readonly string[]): boolean {
  const folded = text.toLowerCase();
  return needles.some((needle) => folded.includes(needle.toLowerCase()));
}
