import type { JobItem } from '@comps/shared/contract/job';

/** The contract's columns, in its order. */
export const CSV_COLUMNS = [
  'page',
  'itemId',
  'title',
  'url',
  'soldDate',
  'soldDateVerified',
  'price',
  'currency',
  'priceIsDisplayedOnly',
  'bestOfferAccepted',
  'shipping',
  'buyingFormat',
  'bidCount',
  'condition',
  'sellerUsername',
  'location',
  'looseMatch',
] as const;

/** What a spreadsheet would run as a formula when a cell starts with it. */
const FORMULA_START = /^[=+\-@]/;

/**
 * One RFC 4180 field: quoted when it holds a comma, a quote or a line break (quotes doubled), and
 * text that a spreadsheet would take for a formula prefixed with an apostrophe.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function valuesOf(item: JobItem): Array<string | number | boolean | null> {
  return [
    item.page,
    item.itemId,
    item.title,
    item.url,
    item.soldDate,
    item.soldDateVerified,
    item.price?.value ?? null,
    item.price?.currency ?? item.shipping?.currency ?? null,
    item.priceIsDisplayedOnly,
    item.bestOfferAccepted,
    item.shipping?.value ?? null,
    item.buyingFormat,
    item.bidCount,
    item.condition,
    item.seller?.username ?? null,
    item.location,
    item.looseMatch,
  ];
}

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

export function csvRow(item: JobItem): string {
  return `${valuesOf(item).map(csvField).join(',')}\r\n`;
}
