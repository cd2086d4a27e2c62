import type { JobItem } from './job.js';
import type { ListingItem } from './listing.js';
import type { Sale } from './tracked-search.js';

type Cell = string | number | boolean | null;
type Column<T> = readonly [name: string, cell: (row: T) => Cell];

/**
 * The columns of a listing CSV after its first, in the contract's order, each with how its cell is
 * read from an item: the one definition the CSV writers and the API reference all use (contract,
 * "Jobs"; a tracked search's sales CSV has the job CSV's columns with `firstSeenAt` for `page`).
 */
const ITEM_COLUMNS: ReadonlyArray<Column<ListingItem>> = [
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

const JOB_COLUMNS: ReadonlyArray<Column<JobItem>> = [['page', (item) => item.page], ...ITEM_COLUMNS];
const SALE_COLUMNS: ReadonlyArray<Column<Sale>> = [['firstSeenAt', (sale) => sale.firstSeenAt], ...ITEM_COLUMNS];

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

const namesOf = <T>(columns: ReadonlyArray<Column<T>>): readonly string[] => columns.map(([name]) => name);
const rowOf = <T>(columns: ReadonlyArray<Column<T>>, row: T): string => `${columns.map(([, cell]) => csvField(cell(row))).join(',')}\r\n`;

/** A job's CSV (`GET /v1/scrape/max/{jobId}/download.csv`). */
export const CSV_COLUMNS = namesOf(JOB_COLUMNS);
export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;
export function csvRow(item: JobItem): string {
  return rowOf(JOB_COLUMNS, item);
}

/** A tracked search's sales CSV (`GET /v1/tracked-searches/{trackedSearchId}/sales.csv`). */
export const SALES_CSV_COLUMNS = namesOf(SALE_COLUMNS);
export const SALES_CSV_HEADER = `${SALES_CSV_COLUMNS.join(',')}\r\n`;
export function saleCsvRow(sale: Sale): string {
  return rowOf(SALE_COLUMNS, sale);
}
