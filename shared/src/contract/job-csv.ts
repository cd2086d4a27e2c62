import type { JobItem } from './job.js';

type Cell = string | number | boolean | null;

/**
 * The job CSV's columns, in the contract's order, each with how its cell is read from an item: the
 * one definition the CSV writer and the API reference both use (contract, "Jobs").
 */
const COLUMNS: ReadonlyArray<readonly [name: string, cell: (item: JobItem) => Cell]> = [
  ['page', (item) => item.page],
  ['itemId', (item) => item.itemId],
  ['title', (item) => item.title],
  ['url', (item) => item.url],
  ['soldDate', (item) => item.soldDate],
  ['soldDateVerified', (item) => item.soldDateVerified],
  ['price', (item) => item.price?.value ?? null],
  ['currency', (item) => item.price?.currency ?? item.shipping?.currency ?? null],
  ['priceIsDisplayedOnly', (item) => item.priceIsDisplayedOnly],
  ['bestOfferAccepted', (item) => item.bestOfferAccepted],
  ['shipping', (item) => item.shipping?.value ?? null],
  ['buyingFormat', (item) => item.buyingFormat],
  ['bidCount', (item) => item.bidCount],
  ['condition', (item) => item.condition],
  ['sellerUsername', (item) => item.seller?.username ?? null],
  ['location', (item) => item.location],
  ['looseMatch', (item) => item.looseMatch],
  ['kind', (item) => item.comps.kind],
  ['conditionGroup', (item) => item.comps.condition],
  ['units', (item) => item.comps.units],
  ['unitPrice', (item) => item.comps.unitPrice?.value ?? null],
  ['landedUnitPrice', (item) => item.comps.landedUnitPrice?.value ?? null],
  ['counted', (item) => item.comps.counted],
  ['excludedBecause', (item) => item.comps.excludedBecause],
];

export const CSV_COLUMNS: readonly string[] = COLUMNS.map(([name]) => name);

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

export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

export function csvRow(item: JobItem): string {
  return `${COLUMNS.map(([, cell]) => csvField(cell(item))).join(',')}\r\n`;
}
