import type { Money } from '../../contract/money.js';
import type { MarketSite } from '../../contract/market-sites.js';
import { SITE_CURRENCY } from '../../contract/market-sites.js';
import { cleanText } from './text.js';

/** Digits after the decimal point, per ISO 4217; two when not listed. */
const MINOR_UNITS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, HUF: 2, CLP: 0, ISK: 0, VND: 0, TWD: 2 };

function minorUnitsOf(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

/**
 * Currency markers as the marketplace prints them, longest first. A bare "$" means the site's
 * own dollar on the dollar sites and is unknown elsewhere: a wrong currency is worse than none.
 */
const MARKERS: Array<[marker: RegExp, currency: string | ((site: MarketSite) => string | null)]> = [
  [/US\s?\$/i, 'USD'],
  [/(?:CA|C)\s?\$/i, 'CAD'],
  [/(?:AU|A)\s?\$/i, 'AUD'],
  [/NZ\s?\$/i, 'NZD'],
  [/HK\s?\$/i, 'HKD'],
  [/SG\s?\$|S\$/i, 'SGD'],
  [/MX\s?\$/i, 'MXN'],
  [/R\$/i, 'BRL'],
  [/S\/\.?/i, 'PEN'],
  [/CN\s?¥|RMB/i, 'CNY'],
  // An ISO code stands alone or right against the number ("EUR 13,00", "KRW129,680.08").
  [/(?<![A-Za-z])(USD|CAD|AUD|GBP|EUR|JPY|CHF|NZD|HKD|SGD|MXN|BRL|PEN|CNY|INR|PLN|SEK|NOK|DKK|CZK|HUF|KRW|TWD|MYR|PHP|THB|ILS|ZAR|TRY)(?![A-Za-z])/i, ''],
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/円|¥|￥/, 'JPY'],
  [/₹/, 'INR'],
  [/₩/, 'KRW'],
  [/zł/i, 'PLN'],
  [/CHF|Fr\./, 'CHF'],
  [/\$/, (site) => (['USD', 'CAD', 'AUD'].includes(SITE_CURRENCY[site]) ? SITE_CURRENCY[site] : null)],
];

function currencyIn(text: string, site: MarketSite): string | null {
  for (const [marker, currency] of MARKERS) {
    const match = marker.exec(text);
    if (!match) continue;
    if (currency === '') return match[1]!.toUpperCase();
    return typeof currency === 'function' ? currency(site) : currency;
  }
  return null;
}

/** Digits, then at most a point and decimals that are no group of thousands (not three): a decimal point, or none. */
const PLAIN_AMOUNT = /^\d{1,15}(?:\.(?:\d{1,2}|\d{4,15}))?$/;

const AMOUNT = /\d{1,3}(?:[.,\s\u00a0\u202f'’]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?/g;

/**
 * "1.234,56", "1,234.56", "6,314" (yen), "12,50": the decimal separator is read from the number
 * itself; the value is then rounded to the currency's minor unit, as the contract's Money is
 * ("KRW129,680.08" is 129680: the marketplace shows won with two decimals, ISO 4217 has none).
 */
export function parseAmount(raw: string, minorUnits: number): number | null {
  const factor = 10 ** minorUnits;
  // Most amounts are plain ("12", "12.99"): read as they stand, as the general reading below would read them.
  if (PLAIN_AMOUNT.test(raw)) return Math.round(Number(raw) * factor) / factor;
  const compact = raw.replace(/[\s\u00a0\u202f'’]/g, '');
  const lastDot = compact.lastIndexOf('.');
  const lastComma = compact.lastIndexOf(',');
  let decimal: '.' | ',' | null = null;
  if (lastDot >= 0 && lastComma >= 0) {
    decimal = lastDot > lastComma ? '.' : ',';
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const occurrences = compact.split(separator).length - 1;
    const digitsAfter = compact.length - compact.lastIndexOf(separator) - 1;
    // One separator followed by other than three digits is a decimal point ("12,5", "12.50"), whatever
    // the currency: the marketplace prints KRW with cents although ISO 4217 gives it none. Three
    // digits, or several separators, are thousands ("1.300", "6,314", "1,000,000").
    if (occurrences === 1 && digitsAfter !== 3) decimal = separator;
  }
  let normalized = compact;
  if (decimal) {
    const thousands = decimal === '.' ? ',' : '.';
    normalized = normalized.split(thousands).join('').replace(decimal, '.');
  } else {
    normalized = normalized.replace(/[.,]/g, '');
  }
  const value = Number(normalized);
  if (!Number.isFinite(value)) return null;
  return Math.round(value * factor) / factor;
}

export interface ParsedPrice {
  /** The lower end of a range, or the one amount. */
  money: Money;
  isRange: boolean;
}

/**
 * The amount(s) in `text` with the currency its markers (or the site) give; null when either is
 * missing. With `single`, only the first amount counts (a shipping row goes on with a delivery date).
 */
export function parsePrice(text: string, site: MarketSite, { single = false }: { single?: boolean } = {}): ParsedPrice | null {
  const cleaned = cleanText(text);
  const currency = currencyIn(cleaned, site);
  if (!currency) return null;
  const minor = minorUnitsOf(currency);
  const amounts = (cleaned.match(AMOUNT) ?? [])
    .slice(0, single ? 1 : undefined)
    .map((raw) => parseAmount(raw, minor))
    .filter((value): value is number => value !== null);
  if (amounts.length === 0) return null;
  return { money: { value: Math.min(...amounts), currency }, isRange: amounts.length > 1 };
}

/** Whether a price text (cleaned, as a listing's `priceText` is) shows two amounts or more (a range: "$4.49 to $8.49"), as `parsePrice` reads it. */
export function showsRange(priceText: string): boolean {
  return (priceText.match(AMOUNT)?.length ?? 0) > 1;
}

/** "1.2K" → 1200, "14.7K" → 14700, "2M" → 2000000, "1,234" → 1234. */
export function parseCompactCount(text: string): number | null {
  const match = /(\d[\d.,\s]*)\s*([KkMm])?/.exec(cleanText(text));
  if (!match) return null;
  const suffix = match[2]?.toUpperCase();
  if (!suffix) {
    const value = Number(match[1]!.replace(/[.,\s]/g, ''));
    return Number.isSafeInteger(value) ? value : null;
  }
  const base = Number(match[1]!.trim().replace(',', '.'));
  if (!Number.isFinite(base)) return null;
  return Math.round(base * (suffix === 'K' ? 1_000 : 1_000_000));
}
