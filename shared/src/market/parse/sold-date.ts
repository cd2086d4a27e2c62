import { cleanText, foldText } from './text.js';
import { DATE_PARTICLES, ENDED_WORDS, SOLD_WORDS } from './vocabulary.js';

/** Month names and abbreviations of the sites' languages (English, German, French, Italian, Spanish). */
const MONTHS: Readonly<Record<string, number>> = (() => {
  const names: Array<[number, string[]]> = [
    [1, ['jan', 'january', 'jän', 'januar', 'jänner', 'janv', 'janvier', 'gen', 'gennaio', 'ene', 'enero']],
    [2, ['feb', 'february', 'februar', 'févr', 'fev', 'février', 'febbraio', 'febrero']],
    [3, ['mar', 'march', 'mär', 'märz', 'mrz', 'mars', 'marzo']],
    [4, ['apr', 'april', 'avr', 'avril', 'aprile', 'abr', 'abril']],
    [5, ['may', 'mai', 'mag', 'maggio', 'mayo']],
    [6, ['jun', 'june', 'juni', 'juin', 'giu', 'giugno', 'junio']],
    [7, ['jul', 'july', 'juli', 'juil', 'juillet', 'lug', 'luglio', 'julio']],
    [8, ['aug', 'august', 'août', 'aout', 'ago', 'agosto']],
    [9, ['sep', 'sept', 'september', 'septembre', 'set', 'sett', 'settembre', 'septiembre', 'setiembre']],
    [10, ['oct', 'october', 'okt', 'oktober', 'octobre', 'ott', 'ottobre', 'octubre']],
    [11, ['nov', 'november', 'novembre', 'noviembre']],
    [12, ['dec', 'december', 'dez', 'dezember', 'déc', 'décembre', 'dic', 'dicembre', 'diciembre']],
  ];
  return Object.fromEntries(names.flatMap(([month, words]) => words.map((word) => [word, month])));
})();

function monthOf(word: string): number | undefined {
  return MONTHS[word.toLowerCase().replace(/\.$/, '')];
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * `YYYY-MM-DD`, or null for a day the calendar does not have. Written out, not through a `Date`: a
 * page has a sold date a row, and a `Date` and its ISO string cost more than the rest of the caption.
 */
export function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (month < 1 || month > 12 || day < 1 || year < 1990 || year > 2100 || day > daysIn(year, month)) return null;
  return `${year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

const LETTERS = '[A-Za-zÀ-ÿ]+\\.?';
const MONTH_DAY_YEAR = new RegExp(`(${LETTERS})\\s+(\\d{1,2}),?\\s+(\\d{4})`);
const DAY_MONTH_YEAR = new RegExp(`(\\d{1,2})\\.?\\s+(?:de\\s+)?(${LETTERS})\\s+(?:de\\s+)?(\\d{4})`);

/** A date in any of the sites' formats: "Mar 7, 2026", "7 Mar 2026", "3. Okt. 2025", "3 oct. 2025", "03.10.2025". */
export function parseLocalizedDate(text: string): string | null {
  const cleaned = cleanText(text);
  let match = MONTH_DAY_YEAR.exec(cleaned);
  if (match) {
    const month = monthOf(match[1]!);
    if (month) return isoDate(Number(match[3]), month, Number(match[2]));
  }
  match = DAY_MONTH_YEAR.exec(cleaned);
  if (match) {
    const month = monthOf(match[2]!);
    if (month) return isoDate(Number(match[3]), month, Number(match[1]));
  }
  match = /(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})/.exec(cleaned);
  if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]));
  match = /(\d{1,2})[./](\d{1,2})[./](\d{4})/.exec(cleaned);
  if (match) return isoDate(Number(match[3]), Number(match[2]), Number(match[1]));
  return null;
}

export interface SoldCaption {
  sold: boolean;
  ended: boolean;
  date: string | null;
  /** The caption as shown (whitespace kept as the page has it, trimmed). */
  text: string;
}

/** Reads a listing's caption: sold (with its date), ended, or neither. */
export function parseSoldCaption(caption: string): SoldCaption {
  const text = caption.trim();
  const folded = foldText(text);
  const sold = SOLD_WORDS.some((word) => folded.startsWith(word));
  const ended = !sold && ENDED_WORDS.some((word) => folded.startsWith(word));
  if (!sold && !ended) return { sold: false, ended: false, date: null, text };
  let rest = cleanText(text).replace(/^\S+/, '').trim();
  for (const particle of DATE_PARTICLES) {
    if (rest.toLowerCase().startsWith(`${particle} `)) rest = rest.slice(particle.length + 1);
  }
  return { sold, ended, date: parseLocalizedDate(rest), text };
}
