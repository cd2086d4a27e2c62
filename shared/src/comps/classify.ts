import type { CompsKind, ConditionGroup } from '../contract/comps.js';
import type { MarketSite } from '../contract/market-sites.js';
import { roundToMinorUnit, type Money } from '../contract/money.js';
import * as vocabulary from './classify-vocabulary.js';

/**
 * What each listing is (the contract's `comps` on an item, "Comps: what each listing is"): a
 * single, a lot or an accessory, its condition group, its units and its unit prices, read from
 * the listing's title, condition text and prices alone. Pure: no I/O and no state between calls.
 *
 * A page of 200 listings must classify well under a millisecond: a title is read once, character
 * by character, into words identified in one vocabulary built here from the word lists
 * (`classify-vocabulary.ts`); the rules then look at word ids and phrase hits. A regular
 * expression with Unicode classes per list, scanning every title, cost ten times as much.
 */

export interface ListingFacts {
  title: string;
  /** The page's condition text in the site's language ("Pre-Owned", "Neu", "Occasion", …) or null. */
  conditionText: string | null;
  price: Money | null;
  /** Null when unknown, value 0 when free. */
  shipping: Money | null;
  /** The searched keyword (null for a category browse): an accessory is a thing FOR the searched product. */
  keyword: string | null;
  site: MarketSite;
}

export interface Classification {
  kind: CompsKind;
  condition: ConditionGroup | null;
  units: number | null;
  unitPrice: Money | null;
  landedUnitPrice: Money | null;
}

const LANGUAGE_OF_SITE: Readonly<Record<MarketSite, vocabulary.TitleLanguage>> = {
  'market.com': 'en',
  'market.co.uk': 'en',
  'market.de': 'de',
  'market.fr': 'fr',
  'market.it': 'it',
  'market.es': 'es',
  'market.ca': 'en',
  'market.com.au': 'en',
};

// --- Reading a text ------------------------------------------------------------------------------

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const COMBINING_MARK = /^\p{M}$/u;

/**
 * Characters beyond ASCII as the rules read them, by character code: accented Latin letters as
 * their bare letter (sellers drop accents as often as not: "é" reads "e") and typographic
 * punctuation as its ASCII counterpart ("Salem’s", "15″", "5×").
 */
const FOLDED: ReadonlyMap<number, string> = new Map([
  ...Array.from({ length: 0x250 - 0xc0 }, (_, offset) => String.fromCharCode(0xc0 + offset).toLowerCase())
    .map((letter) => [letter.charCodeAt(0), letter.normalize('NFD').replace(/\p{M}/gu, '')] as const)
    .filter(([, bare]) => LETTER_OR_DIGIT.test(bare.charAt(0))),
  ...[['’', "'"], ['‘', "'"], ['′', "'"], ['“', '"'], ['”', '"'], ['″', '"'], ['×', 'x'], ['–', '-'], ['—', '-']].map(([from, to]) => [from!.charCodeAt(0), to!] as const),
]);

/** A character beyond ASCII as the rules read it: folded, itself (other letters and digits), nothing (a combining mark) or a space. */
function foldedCharacter(code: number): string {
  const folded = FOLDED.get(code);
  if (folded !== undefined) return folded;
  const character = String.fromCharCode(code);
  if (COMBINING_MARK.test(character)) return '';
  return LETTER_OR_DIGIT.test(character) ? character : ' ';
}

/** A lowercased text with every character beyond ASCII folded, so that whatever remains beyond ASCII is a letter. */
function folded(lower: string): string {
  let text = '';
  let runStart = 0;
  for (let index = 0; index < lower.length; index += 1) {
    const code = lower.charCodeAt(index);
    if (code < 128) continue;
    text += lower.slice(runStart, index) + foldedCharacter(code);
    runStart = index + 1;
  }
  return text + lower.slice(runStart);
}

/**
 * A text read once: lowercased and folded (`plain`), and for each word (a run of letters and
 * digits) where it starts and ends and its id in the vocabulary (-1 for a word the vocabulary
 * does not hold). Words are looked up by a hash computed while scanning, so a word is never cut
 * out of the text unless a rule asks for it: string allocation and hashing were most of the cost.
 */
interface Text {
  plain: string;
  starts: number[];
  ends: number[];
  ids: number[];
}

/** The vocabulary's words by id, and their ids by hash (see `readText`). */
interface Lexicon {
  words: readonly string[];
  idsByHash: ReadonlyMap<number, readonly number[]>;
}

const hashStep = (hash: number, code: number) => (Math.imul(hash, 31) + code) | 0;

function idOf(lexicon: Lexicon, plain: string, start: number, end: number, hash: number): number {
  const candidates = lexicon.idsByHash.get(hash);
  if (candidates === undefined) return -1;
  for (const id of candidates) {
    const word = lexicon.words[id]!;
    if (word.length === end - start && plain.startsWith(word, start)) return id;
  }
  return -1;
}

/** The text read in one pass over its characters. */
function readText(text: string, lexicon: Lexicon): Text {
  const lower = text.toLowerCase();
  let plain = lower;
  const starts: number[] = [];
  const ends: number[] = [];
  const ids: number[] = [];
  let foldedFrom = Infinity;
  let start = -1;
  let hash = 0;
  for (let index = 0; index <= plain.length; index += 1) {
    const code = index < plain.length ? plain.charCodeAt(index) : 32;
    if (code >= 128 && index < foldedFrom) {
      plain = plain.slice(0, index) + folded(plain.slice(index));
      foldedFrom = index;
      index -= 1;
      continue;
    }
    // Once folded, whatever is beyond ASCII is a letter.
    const inWord = code >= 128 || (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (inWord) {
      if (start < 0) {
        start = index;
        hash = 0;
      }
      hash = hashStep(hash, code);
    } else if (start >= 0) {
      starts.push(start);
      ends.push(index);
      ids.push(idOf(lexicon, plain, start, index, hash));
      start = -1;
    }
  }
  return { plain, starts, ends, ids };
}

const wordAt = ({ plain, starts, ends }: Text, index: number) => (index >= 0 && index < starts.length ? plain.slice(starts[index], ends[index]) : '');
/** What separates word `index` from the one before (the text's opening or closing for the first and one past the last). */
const gapBefore = ({ plain, starts, ends }: Text, index: number) => plain.slice(index > 0 ? ends[index - 1] : 0, index < starts.length ? starts[index] : plain.length);
const charBefore = ({ plain, starts }: Text, index: number) => plain.charAt(starts[index]! - 1);
const charAfter = ({ plain, ends }: Text, index: number) => plain.charAt(ends[index]!);
const isSpace = (character: string) => character === ' ' || character === '\t' || character === '\u00a0';

/** Only spaces (or nothing) separate word `index` from the one before. */
function blankBefore({ plain, starts, ends }: Text, index: number): boolean {
  if (index <= 0 || index >= starts.length) return false;
  for (let position = ends[index - 1]!; position < starts[index]!; position += 1) if (!isSpace(plain.charAt(position))) return false;
  return true;
}

/** Characters that join a number to the word before or after it as one figure ("6/130", "1.5", "#18", "15\"x8\""). */
const JOINING_BEFORE = new Set(['/', '.', ',', '#', "'", '"', '-']);
const JOINING_AFTER = new Set(['/', '.', ',', "'", '"']);

/** Word `index` is joined to what comes before it ("6/130", "#18") or added by a "+" ("+ 7 Figuren"). */
function joinedBefore(title: Text, index: number): boolean {
  if (JOINING_BEFORE.has(charBefore(title, index))) return true;
  let position = title.starts[index]! - 1;
  while (position >= 0 && isSpace(title.plain.charAt(position))) position -= 1;
  return title.plain.charAt(position) === '+';
}

/** Word `index` is joined to what follows it ("6/130", "1.5"), spaces aside. */
function joinedAfter({ plain, ends }: Text, index: number): boolean {
  let position = ends[index]!;
  while (position < plain.length && isSpace(plain.charAt(position))) position += 1;
  return JOINING_AFTER.has(plain.charAt(position));
}

/** Word `index` is digits, optionally followed (`suffix`) or preceded (`prefix`) by one letter: "3", "3x", "x3". */
function isDigitsWithLetter({ plain, starts, ends }: Text, index: number, letter: string, where: 'suffix' | 'prefix', maxDigits: number): boolean {
  const start = starts[index]! + (where === 'prefix' ? 1 : 0);
  const end = ends[index]! - (where === 'suffix' ? 1 : 0);
  if (plain.charAt(where === 'prefix' ? starts[index]! : end) !== letter || end <= start || end - start > maxDigits) return false;
  for (let position = start; position < end; position += 1) {
    const code = plain.charCodeAt(position);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** A whole number written in digits only, else null. */
function numberAt({ plain, starts, ends }: Text, index: number): number | null {
  if (index < 0 || index >= starts.length || ends[index]! - starts[index]! > 6) return null;
  let number = 0;
  for (let position = starts[index]!; position < ends[index]!; position += 1) {
    const code = plain.charCodeAt(position);
    if (code < 48 || code > 57) return null;
    number = number * 10 + code - 48;
  }
  return number;
}

/** Word `index` opens with a digit or an "x": it may state a count ("3", "3x", "x3", "x"). */
function isFigure({ plain, starts }: Text, index: number): boolean {
  const first = plain.charCodeAt(starts[index]!);
  return (first >= 48 && first <= 57) || first === 120;
}

// --- The vocabulary, indexed ---------------------------------------------------------------------

const NO_WORDS: Lexicon = { words: [], idsByHash: new Map() };
const WILDCARD = '*';
/** A phrase's words as the reader reads them ("Owner's manual" is "owner", "s", "manual"). */
function phraseWords(phrase: string): string[] {
  return phrase.split(' ').flatMap((part) => {
    if (part === WILDCARD) return [WILDCARD];
    const text = readText(part, NO_WORDS);
    return text.starts.map((_, index) => wordAt(text, index));
  });
}

/** Every list whose words the reader must recognise in a title, a condition text or a keyword. */
const PHRASE_LISTS: ReadonlyArray<readonly string[]> = [
  ...vocabulary.CONDITION_TEXT_GROUPS.map(({ phrases }) => phrases),
  vocabulary.FOR_PARTS_TITLE, ...Object.values(vocabulary.FOR_PARTS_TITLE_BY_LANGUAGE), vocabulary.ACCESSORY_NOUNS, vocabulary.ACCESSORY_NOUNS_NEEDING_PURPOSE,
  vocabulary.BODY_MATERIALS, vocabulary.PURPOSE_WORDS, vocabulary.REPLACEMENT_WORDS, vocabulary.PARTS_PURPOSES, vocabulary.INCLUSION_WORDS, vocabulary.COMPLEMENT_WORDS, vocabulary.PACKAGING_ONLY,
  vocabulary.PARTS_SEARCH_WORDS, vocabulary.LOT_WORDS, ...Object.values(vocabulary.LOT_WORDS_BY_LANGUAGE), vocabulary.LOT_WORDS_BEFORE_SIZE, vocabulary.SIZE_BEFORE_NUMBER,
  vocabulary.UNIT_COUNT_WORDS, vocabulary.PIECE_COUNT_WORDS, vocabulary.COUNTED_NOUNS, vocabulary.COUNTED_NOUNS_SINGULAR, vocabulary.CONTAINER_WORDS, vocabulary.MEDIA_WORDS, vocabulary.MEASURE_WORDS, vocabulary.CLOTHING_SIZE_WORDS,
  // Words the rules name themselves.
  ['for', 'lot', 'no'],
];

const LEXICON: Lexicon = (() => {
  const words = [...new Set(PHRASE_LISTS.flat().flatMap(phraseWords))].filter((word) => word !== WILDCARD);
  const idsByHash = new Map<number, number[]>();
  words.forEach((word, id) => {
    let hash = 0;
    for (let index = 0; index < word.length; index += 1) hash = hashStep(hash, word.charCodeAt(index));
    idsByHash.set(hash, [...(idsByHash.get(hash) ?? []), id]);
  });
  return { words, idsByHash };
})();

const ID_OF: ReadonlyMap<string, number> = new Map(LEXICON.words.map((word, id) => [word, id]));
const idOfWord = (word: string) => ID_OF.get(word)!;
/** Words of a list (single words), as flags by id. */
function wordSet(list: readonly string[]): Uint8Array {
  const flags = new Uint8Array(LEXICON.words.length);
  for (const phrase of list) for (const word of phraseWords(phrase)) flags[idOfWord(word)] = 1;
  return flags;
}
const isIn = (text: Text, index: number, set: Uint8Array) => index >= 0 && index < text.ids.length && set[text.ids[index]!] === 1;

interface Phrase<Label> {
  /** The ids of the phrase's words after the first (-1 for "*", any word). */
  rest: readonly number[];
  label: Label;
}

interface Hit<Label> {
  label: Label;
  /** Index of the first word and one past the last. */
  start: number;
  end: number;
}

/** Phrases by the id of their first word. */
type PhraseIndex<Label> = ReadonlyArray<ReadonlyArray<Phrase<Label>> | undefined>;

function phraseIndex<Label>(lists: ReadonlyArray<{ label: Label; phrases: readonly string[] }>): PhraseIndex<Label> {
  const index: Array<Array<Phrase<Label>>> = [];
  for (const { label, phrases } of lists) {
    for (const phrase of phrases) {
      const [first, ...rest] = phraseWords(phrase).map((word) => (word === WILDCARD ? -1 : idOfWord(word)));
      (index[first!] ??= []).push({ rest, label });
    }
  }
  return index;
}

function restFollows(ids: readonly number[], after: number, rest: readonly number[]): boolean {
  for (let offset = 0; offset < rest.length; offset += 1) {
    const id = ids[after + offset];
    if (id === undefined || (rest[offset] !== -1 && rest[offset] !== id)) return false;
  }
  return true;
}

/** Every phrase of the index found in the text, in order of where it starts. */
function hitsOf<Label>({ ids }: Text, index: PhraseIndex<Label>): Array<Hit<Label>> {
  const hits: Array<Hit<Label>> = [];
  for (let start = 0; start < ids.length; start += 1) {
    const phrases = ids[start]! >= 0 ? index[ids[start]!] : undefined;
    if (phrases === undefined) continue;
    for (const { rest, label } of phrases) {
      if (restFollows(ids, start + 1, rest)) hits.push({ label, start, end: start + 1 + rest.length });
    }
  }
  return hits;
}

// --- The title -----------------------------------------------------------------------------------

type Category =
  | 'forParts' | 'packaging' | 'accessory' | 'accessoryNeedingPurpose' | 'inclusion' | 'purpose' | 'lotWord' | 'sizeBeforeNumber' | 'media'
  | `forParts:${vocabulary.TitleLanguage}`
  | `lotWord:${vocabulary.TitleLanguage}`;

const FOR_PARTS_IN: Readonly<Record<vocabulary.TitleLanguage, Category>> = { en: 'forParts:en', de: 'forParts:de', fr: 'forParts:fr', it: 'forParts:it', es: 'forParts:es' };
const LOT_WORD_IN: Readonly<Record<vocabulary.TitleLanguage, Category>> = { en: 'lotWord:en', de: 'lotWord:de', fr: 'lotWord:fr', it: 'lotWord:it', es: 'lotWord:es' };

const TITLE_PHRASES = phraseIndex<Category>([
  { label: 'forParts', phrases: vocabulary.FOR_PARTS_TITLE },
  ...Object.entries(vocabulary.FOR_PARTS_TITLE_BY_LANGUAGE).map(([language, phrases]) => ({ label: FOR_PARTS_IN[language as vocabulary.TitleLanguage], phrases })),
  { label: 'packaging', phrases: vocabulary.PACKAGING_ONLY },
  { label: 'accessory', phrases: vocabulary.ACCESSORY_NOUNS },
  { label: 'accessoryNeedingPurpose', phrases: vocabulary.ACCESSORY_NOUNS_NEEDING_PURPOSE },
  { label: 'inclusion', phrases: vocabulary.INCLUSION_WORDS },
  { label: 'purpose', phrases: vocabulary.PURPOSE_WORDS },
  { label: 'lotWord', phrases: vocabulary.LOT_WORDS },
  ...Object.entries(vocabulary.LOT_WORDS_BY_LANGUAGE).map(([language, phrases]) => ({ label: LOT_WORD_IN[language as vocabulary.TitleLanguage], phrases })),
  { label: 'sizeBeforeNumber', phrases: vocabulary.SIZE_BEFORE_NUMBER },
  { label: 'media', phrases: vocabulary.MEDIA_WORDS },
]);

const COMPLEMENT_WORDS = wordSet(vocabulary.COMPLEMENT_WORDS);
const REPLACEMENT_WORDS = wordSet(vocabulary.REPLACEMENT_WORDS);
const BODY_MATERIALS = wordSet(vocabulary.BODY_MATERIALS);
const PARTS_PURPOSES = wordSet(vocabulary.PARTS_PURPOSES);
const PARTS_SEARCH_WORDS = wordSet(vocabulary.PARTS_SEARCH_WORDS);
const KEYWORD_FILLER_WORDS = new Set(vocabulary.KEYWORD_FILLER_WORDS.flatMap(phraseWords));
const LOT_WORDS_BEFORE_SIZE = wordSet(vocabulary.LOT_WORDS_BEFORE_SIZE);
const UNIT_COUNT_WORDS = wordSet(vocabulary.UNIT_COUNT_WORDS);
const PIECE_COUNT_WORDS = wordSet(vocabulary.PIECE_COUNT_WORDS);
/** The same, written onto the number ("4pcs"). */
const UNIT_COUNT_SUFFIXES = new Set(vocabulary.UNIT_COUNT_WORDS.flatMap(phraseWords));
const PIECE_COUNT_SUFFIXES = new Set(vocabulary.PIECE_COUNT_WORDS.flatMap(phraseWords));
const COUNTED_NOUNS = wordSet(vocabulary.COUNTED_NOUNS);
const COUNTED_NOUNS_SINGULAR = wordSet(vocabulary.COUNTED_NOUNS_SINGULAR);
const CONTAINER_WORDS = wordSet(vocabulary.CONTAINER_WORDS);
const INCLUSION_WORDS = wordSet(vocabulary.INCLUSION_WORDS);
const MEDIA_WORDS = wordSet(vocabulary.MEDIA_WORDS);
const MEASURE_WORDS = wordSet(vocabulary.MEASURE_WORDS);
const CLOTHING_SIZE_WORDS = wordSet(vocabulary.CLOTHING_SIZE_WORDS);
const FOR = idOfWord('for');
const LOT = idOfWord('lot');
const NO = idOfWord('no');

/** A title read once: its words, the phrases found in it, and the words that may state a count. */
interface Title extends Text {
  hits: Array<Hit<Category>>;
  figures: number[];
}

function readTitle(title: string): Title {
  const text = readText(title, LEXICON);
  const figures: number[] = [];
  for (let index = 0; index < text.starts.length; index += 1) if (isFigure(text, index)) figures.push(index);
  return { plain: text.plain, starts: text.starts, ends: text.ends, ids: text.ids, hits: hitsOf(text, TITLE_PHRASES), figures };
}

/**
 * The title as its site's language reads it: that language's own lot words are lot words where
 * they say so (a number follows, "Stock 6 …", or "stock" opens the title), the others' nothing.
 * Elsewhere they name other things: "Blocco motore" is an engine block, "scarico stock" a stock
 * exhaust, and an English title on an Italian site may say "new old stock".
 */
function inLanguage(title: Title, language: vocabulary.TitleLanguage): Title {
  // Nearly every title has no such word: it is read as it is.
  if (!title.hits.some((hit) => hit.label.startsWith('lotWord:'))) return title;
  const own = LOT_WORD_IN[language];
  const saysLot = (hit: Hit<Category>) => numberAt(title, hit.end) !== null || (hit.start === 0 && wordAt(title, hit.start) === 'stock');
  const hits = title.hits.flatMap((hit) => {
    if (!hit.label.startsWith('lotWord:')) return [hit];
    return hit.label === own && saysLot(hit) ? [{ ...hit, label: 'lotWord' as const }] : [];
  });
  return { ...title, hits };
}

const hitsIn = (title: Title, category: Category) => title.hits.filter((hit) => hit.label === category);
const has = (title: Title, category: Category) => title.hits.some((hit) => hit.label === category);

// --- Condition -----------------------------------------------------------------------------------

/** CJK condition words are matched as substrings: those scripts put no spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CONDITION_GROUPS = vocabulary.CONDITION_TEXT_GROUPS.map(({ group }) => group);
/** Each condition phrase labelled with the rank of its group in `CONDITION_TEXT_GROUPS` (the first that applies wins). */
const CONDITION_PHRASES = phraseIndex(vocabulary.CONDITION_TEXT_GROUPS.map(({ phrases }, rank) => ({ label: rank, phrases: phrases.filter((phrase) => !CJK.test(phrase)) })));
const CONDITION_SUBSTRINGS = vocabulary.CONDITION_TEXT_GROUPS.flatMap(({ phrases }, rank) => phrases.filter((phrase) => CJK.test(phrase)).map((substring) => ({ substring, rank })));

function conditionOfPhrases(conditionText: string): ConditionGroup | null {
  const ranks = hitsOf(readText(conditionText, LEXICON), CONDITION_PHRASES).map((hit) => hit.label);
  for (const { substring, rank } of CONDITION_SUBSTRINGS) if (conditionText.includes(substring)) ranks.push(rank);
  return ranks.length > 0 ? CONDITION_GROUPS[Math.min(...ranks)]! : null;
}

/** The marketplace's own condition names, read once here: a map lookup instead of reading each listing's. */
const MARKETPLACE_CONDITIONS: ReadonlyMap<string, ConditionGroup | null> = new Map(
  vocabulary.MARKETPLACE_CONDITION_NAMES.map((name) => [name, conditionOfPhrases(name)]),
);

function conditionOfText(conditionText: string): ConditionGroup | null {
  const known = MARKETPLACE_CONDITIONS.get(conditionText);
  return known !== undefined ? known : conditionOfPhrases(conditionText);
}

/** The condition group: forParts from the condition text or the title, else the condition text's group, else null. */
function conditionOf(conditionText: string | null, title: Title, language: vocabulary.TitleLanguage): ConditionGroup | null {
  if (has(title, 'forParts') || has(title, FOR_PARTS_IN[language])) return 'forParts';
  return conditionText ? conditionOfText(conditionText) : null;
}

// --- Accessory -----------------------------------------------------------------------------------

/** What the keyword says about accessories: its words, and whether it searches parts or accessories themselves ("bmw e28 parts"). */
interface Keyword {
  words: readonly string[];
  searchesParts: boolean;
}

function readKeyword(keyword: string | null): Keyword | null {
  if (keyword === null) return null;
  const text = readText(keyword, LEXICON);
  return { words: text.starts.map((_, index) => wordAt(text, index)), searchesParts: text.ids.some((_, index) => isIn(text, index, PARTS_SEARCH_WORDS)) };
}

const sameWord = (a: string, b: string) => a === b || `${a}s` === b || `${b}s` === a || `${a}es` === b || `${b}es` === a;
/** How far after an accessory noun its purpose may come ("support de charge pour"). */
const PURPOSE_REACH = 3;

/** The first word after a "+" ("laptop + charger"), else Infinity. */
function wordAfterPlus(title: Title): number {
  const plusAt = title.plain.indexOf('+');
  if (plusAt < 0) return Infinity;
  const index = title.starts.findIndex((start) => start > plusAt);
  return index < 0 ? Infinity : index;
}

/**
 * An accessory: the title sells packaging, a manual, a case, a charger, a cable, a stand or a
 * replacement part for the product searched rather than the product. Never when the keyword
 * searches parts or accessories themselves; a noun the keyword contains ("iphone case") names the
 * product searched; a noun after "with", "+" or "no" is something the product comes with or lacks.
 * The keyword is read only for a title with something of an accessory about it.
 */
function isAccessory(title: Title, keywordText: string | null): boolean {
  const fitmentAt = fitmentNoteOf(title);
  if (fitmentAt < 0 && !has(title, 'packaging') && !has(title, 'accessory') && !has(title, 'accessoryNeedingPurpose')) return false;
  const keyword = readKeyword(keywordText);
  if (keyword?.searchesParts) return false;
  if (has(title, 'packaging')) return true;
  const inclusionAt = Math.min(hitsIn(title, 'inclusion')[0]?.start ?? Infinity, wordAfterPlus(title));
  const namesTheProductSearched = (noun: Hit<Category>) => keyword?.words.some((word) => sameWord(word, wordAt(title, noun.end - 1))) ?? false;
  const beforeInclusion = (noun: Hit<Category>) => noun.start < inclusionAt && !namesTheProductSearched(noun);

  const purposes = hitsIn(title, 'purpose').filter((purpose) => !isIn(title, purpose.end, PARTS_PURPOSES));
  const statesPurpose = (noun: Hit<Category>) =>
    isIn(title, noun.start - 1, REPLACEMENT_WORDS) || purposes.some((purpose) => purpose.start >= noun.end && purpose.start <= noun.end + PURPOSE_REACH);
  const sold = (noun: Hit<Category>) => !isIn(title, noun.start - 1, COMPLEMENT_WORDS) && (!isIn(title, noun.start - 1, BODY_MATERIALS) || statesPurpose(noun));
  if (hitsIn(title, 'accessory').some((noun) => beforeInclusion(noun) && sold(noun))) return true;
  if (hitsIn(title, 'accessoryNeedingPurpose').some((noun) => beforeInclusion(noun) && statesPurpose(noun))) return true;
  return keyword !== null && fitmentAt >= 0 && fitsOnlyTheVehicleSearched(title, fitmentAt + 1, keyword);
}

/** Where the marketplace's fitment note on a vehicle part begins ("… (For: 2006 Volkswagen Beetle)"), else -1. */
function fitmentNoteOf(title: Title): number {
  if (!title.plain.includes('(for:')) return -1;
  return title.ids.findIndex((id, index) => id === FOR && charBefore(title, index) === '(' && charAfter(title, index) === ':');
}

/** The fitment names the vehicle searched, and nothing else was searched ("2006 Volkswagen New Beetle" for "2006 Volkswagen Beetle"). */
function fitsOnlyTheVehicleSearched(title: Title, vehicleAt: number, keyword: Keyword): boolean {
  const vehicle = new Set(title.starts.slice(vehicleAt).map((_, offset) => wordAt(title, vehicleAt + offset)));
  return keyword.words.every((word) => vehicle.has(word) || KEYWORD_FILLER_WORDS.has(word));
}

// --- Lot -----------------------------------------------------------------------------------------

const isYear = (n: number) => n >= 1900 && n <= 2099;
const asUnits = (n: number | null) => (n !== null && n >= 2 && !isYear(n) ? n : null);
const NUMBER_WITH_SUFFIX = /^(\d{1,4})([a-z]+)$/;

/** Where the title's own words begin: after "Lot 7" opening an auction's catalogue entry, unless counted things follow ("Lot 10 cartes"). */
function afterCatalogueNumber(title: Title): number {
  if (title.ids[0] !== LOT) return 0;
  const numberIndex = title.ids[1] === NO ? 2 : 1;
  const counted = isIn(title, numberIndex + 1, COUNTED_NOUNS) || isIn(title, numberIndex + 1, COUNTED_NOUNS_SINGULAR);
  return numberAt(title, numberIndex) !== null && !gapBefore(title, numberIndex).includes('(') && !counted ? numberIndex + 1 : 0;
}

type SizeReader = (title: Title, at: number) => number | null;

/** "lot of 3", "set of (2)", "lotto di 3". */
const sizeAfterWords: SizeReader = (title, at) => {
  for (const { label, start, end } of title.hits) {
    const units = label === 'sizeBeforeNumber' && start >= at ? asUnits(numberAt(title, end)) : null;
    if (units !== null) return units;
  }
  return null;
};

/** "Lot (4)", "Lot 22 PSA", "Lotto 10 carte". */
const sizeAfterLotWord: SizeReader = (title, at) => {
  for (const { label, start, end } of title.hits) {
    if (label !== 'lotWord' || start < at || !isIn(title, start, LOT_WORDS_BEFORE_SIZE) || !/^[\s(]*$/.test(gapBefore(title, end))) continue;
    const units = asUnits(numberAt(title, end));
    if (units !== null) return units;
  }
  return null;
};

/**
 * The count at a multiplication sign and the index of the word after it: "3x Games", "3 x Games",
 * "x3", "(x10)", "X 20". Null where the sign joins two numbers ("48x12", "2 x 3", "15\"x8\"", "X360").
 */
function timesAt(title: Title, index: number): { units: number; attached: boolean; next: number } | null {
  const previous = numberAt(title, index - 1);
  const next = numberAt(title, index + 1);
  if (isDigitsWithLetter(title, index, 'x', 'suffix', 3)) {
    const joined = joinedBefore(title, index) || (next !== null && blankBefore(title, index + 1));
    return joined ? null : { units: Number(wordAt(title, index).slice(0, -1)), attached: true, next: index + 1 };
  }
  if (isDigitsWithLetter(title, index, 'x', 'prefix', 2)) {
    const joined = ['"', "'"].includes(charBefore(title, index)) || joinedAfter(title, index);
    return joined ? null : { units: Number(wordAt(title, index).slice(1)), attached: false, next: -1 };
  }
  const isSign = title.ends[index]! - title.starts[index]! === 1 && title.plain.charAt(title.starts[index]!) === 'x';
  if (!isSign) return null;
  if (previous !== null && next === null && blankBefore(title, index) && !joinedBefore(title, index - 1)) return { units: previous, attached: false, next: index + 1 };
  if (next !== null && previous === null && next < 100) return { units: next, attached: false, next: index + 2 };
  return null;
}

/** "3x Games", "x3", "6 x Plasma Gun"; not a release's discs ("6x CD") nor a clothing size ("Crewneck 2X"). */
const sizeFromTimes: SizeReader = (title, at) => {
  for (const index of title.figures) {
    const times = index >= at ? timesAt(title, index) : null;
    if (!times || isIn(title, times.next, MEDIA_WORDS)) continue;
    const nothingFollows = times.next < 0 || times.next >= title.ids.length;
    const isClothingSize = times.attached && times.units <= vocabulary.CLOTHING_SIZE_MAX && (nothingFollows || isIn(title, times.next, CLOTHING_SIZE_WORDS));
    const units = asUnits(times.units);
    if (!isClothingSize && units !== null) return units;
  }
  return null;
};

/** "3 Stück", "5 unidades" (two words) or "4pcs" (one), pieces only up to `PIECES_MAX`. */
function unitCountAt(title: Title, index: number): number | null {
  const number = numberAt(title, index);
  if (number !== null) {
    if (!blankBefore(title, index + 1)) return null;
    return isIn(title, index + 1, UNIT_COUNT_WORDS) || (isIn(title, index + 1, PIECE_COUNT_WORDS) && number <= vocabulary.PIECES_MAX) ? number : null;
  }
  const attached = title.plain.charCodeAt(title.starts[index]!) !== 120 ? NUMBER_WITH_SUFFIX.exec(wordAt(title, index)) : null;
  if (!attached) return null;
  const count = Number(attached[1]);
  const unit = attached[2]!;
  return UNIT_COUNT_SUFFIXES.has(unit) || (PIECE_COUNT_SUFFIXES.has(unit) && count <= vocabulary.PIECES_MAX) ? count : null;
}

const sizeFromUnitCount: SizeReader = (title, at) => {
  for (const index of title.figures) {
    const units = index >= at && !joinedBefore(title, index) ? asUnits(unitCountAt(title, index)) : null;
    if (units !== null) return units;
  }
  return null;
};

/** "Bases (5)", "Knob Pulls (2)". */
const sizeInParentheses: SizeReader = (title, at) => {
  for (const index of title.figures) {
    if (index >= at && charBefore(title, index) === '(' && charAfter(title, index) === ')') {
      const number = numberAt(title, index);
      if (number !== null && number <= 99) return asUnits(number);
    }
  }
  return null;
};

/** How many words may stand between a count and the things counted ("30 Pokemon Cards", "18 Ass. Pokemon Cards"). */
const COUNTED_REACH = 2;

/** "30 Pokemon Cards", "5 figurines", "196 Card Master Set"; not what a package holds ("Deck 60 Cards") or includes ("+ 7 Figuren"). */
const sizeFromCountedThings: SizeReader = (title, at) => {
  for (const index of title.figures) {
    const number = numberAt(title, index);
    if (index < at || number === null || number > vocabulary.COUNTED_MAX || joinedBefore(title, index) || joinedAfter(title, index)) continue;
    if (isIn(title, index - 1, CONTAINER_WORDS) || isIn(title, index - 1, INCLUSION_WORDS)) continue;
    let counted = isIn(title, index + 1, COUNTED_NOUNS_SINGULAR) && /^[\s-]*$/.test(gapBefore(title, index + 1));
    for (let offset = 1; !counted && offset <= COUNTED_REACH + 1 && numberAt(title, index + offset) === null; offset += 1) {
      counted = isIn(title, index + offset, COUNTED_NOUNS);
    }
    const units = counted ? asUnits(number) : null;
    if (units !== null) return units;
  }
  return null;
};

/** The stated number of units, by the most explicit marker first. */
const SIZE_READERS: readonly SizeReader[] = [sizeAfterWords, sizeAfterLotWord, sizeFromTimes, sizeFromUnitCount, sizeInParentheses, sizeFromCountedThings];

/** How many words may stand between a number and the lot word after it ("50 Trainer Lot", "6 Holos Mystery Lot"). */
const LOT_NUMBER_REACH = 2;

/** A lot word, not in a name ("'Salem's Lot"), and the number shortly before it if any. */
function lotWordOf(title: Title, at: number): { units: number | null } | null {
  const isPossessive = (index: number) => wordAt(title, index - 1) === 's' && charBefore(title, index - 1) === "'";
  const lotWord = title.hits.find((hit) => hit.label === 'lotWord' && hit.start >= at && !isPossessive(hit.start));
  if (!lotWord) return null;
  for (let index = Math.max(at, lotWord.start - 1 - LOT_NUMBER_REACH); index < lotWord.start; index += 1) {
    const units = asUnits(numberAt(title, index));
    if (units !== null && !joinedBefore(title, index)) return { units };
  }
  return { units: null };
}

/** The most words after an opening count among which a plural must come ("10 Chaos Space Marines", "4 Blood Angel Storm Shields"). */
const LEADING_COUNT_REACH = 4;

/**
 * "10 Chaos Space Marines", "-- 3 PRIMARIS OUTRIDERS --": a title opening with a count of plural
 * things. Not in media titles, where it is usually part of the work's name ("28 Days Later").
 */
function leadingCountOf(title: Title, at: number): number | null {
  const number = numberAt(title, at);
  if (number === null || number > 99 || title.plain.charAt(title.starts[at]!) === '0' || !blankBefore(title, at + 1)) return null;
  if (isIn(title, at + 1, MEASURE_WORDS) || has(title, 'media')) return null;
  for (let index = at + 1; index <= at + LEADING_COUNT_REACH && index < title.ids.length && numberAt(title, index) === null; index += 1) {
    if (title.plain.charAt(title.ends[index]! - 1) === 's') return asUnits(number);
  }
  return null;
}

/** Whether the title sells several units and how many it says (`units` null when it states none). */
function lotOf(title: Title): { lot: boolean; units: number | null } {
  const at = afterCatalogueNumber(title);
  for (const read of SIZE_READERS) {
    const units = read(title, at);
    if (units !== null) return { lot: true, units };
  }
  const lotWord = lotWordOf(title, at);
  if (lotWord) return { lot: true, units: lotWord.units };
  const leading = leadingCountOf(title, at);
  return leading === null ? { lot: false, units: null } : { lot: true, units: leading };
}

// --- Kind, units and prices ----------------------------------------------------------------------

/** The kind and units: an accessory before a lot (five chargers are still not the product). */
function kindOf(title: Title, keyword: string | null): { kind: CompsKind; units: number | null } {
  if (isAccessory(title, keyword)) return { kind: 'accessory', units: 1 };
  const lot = lotOf(title);
  return lot.lot ? { kind: 'lot', units: lot.units } : { kind: 'single', units: 1 };
}

const perUnit = (value: number, units: number, currency: string): Money => ({ value: roundToMinorUnit(value / units, currency), currency });

export function classifyListing(facts: ListingFacts): Classification {
  const language = LANGUAGE_OF_SITE[facts.site];
  const title = inLanguage(readTitle(facts.title), language);
  const { kind, units } = kindOf(title, facts.keyword);
  const { price, shipping } = facts;
  return {
    kind,
    condition: conditionOf(facts.conditionText, title, language),
    units,
    unitPrice: price && units ? perUnit(price.value, units, price.currency) : null,
    landedUnitPrice: price && units && shipping && shipping.currency === price.currency ? perUnit(price.value + shipping.value, units, price.currency) : null,
  };
}
