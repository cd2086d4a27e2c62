import type { Document, Element } from 'domhandler';
import type { ListingRow } from '../../contract/listing.js';
import type { MarketSite } from '../../contract/market-sites.js';
import { classList, findAll, findFirst, hasAncestor, hasClass, isInside, rawText, textOf, walk } from './dom.js';
import { extractCardRow, extractItemRow, extractSuCardRow } from './extract-rows.js';
import { PageLandmarks, type TagLocation } from './landmarks.js';
import { normalizeRow, type NormalizedRow } from './normalize-row.js';
import { PageText, type PageSource } from './page-text.js';
import type { RawRow } from './raw-row.js';
import { ROW_PARTS, scanResults } from './results-scan.js';
import { KeptAttributes, parseElementAt, parseSkimmed, type Selection } from './skimmed-tree.js';
import { extractStructuralRow, itemLinksIn, structuralRowsIn } from './structural-rows.js';
import { cleanText, foldText } from './text.js';
import { LOOSE_DIVIDER_TEXTS } from './vocabulary.js';

export interface ParsedSearchPage {
  /** Every row that made a valid item, in page order, loose matches flagged. */
  items: ListingRow[];
  /** Rows that could not be made into a valid item. */
  rowsDropped: number;
  /** The marketplace's own count, when the page shows one. */
  totalResults: number | null;
  hasNextPage: boolean;
  /** The items read by their rows' structure alone, their layout unknown (`dataQuality.rowsReadStructurally`). */
  readStructurally: ReadonlySet<ListingRow>;
  /**
   * Set when the page says it has results and no row could be read, or more than half of the rows
   * that link to a listing could not: the marketplace changed its layout. `rowClasses` names the
   * first row not read (null when none was found).
   */
  unrecognizedLayout: { rowClasses: string | null } | null;
}

/** The row layouts the marketplace serves, and rows found by their structure alone. */
type RowLayout = 'card' | 'item' | 'su' | 'structural';

/** What one walk over a results page finds, in document order. */
interface PageParts {
  /** Result rows and "fewer words" dividers, in order; rows inside other answers are left out. */
  sequence: Array<{ kind: 'row'; element: Element; layout: RowLayout } | { kind: 'divider'; element: Element }>;
  heading: Element | undefined;
  hasNextPage: boolean;
  isResultsPage: boolean;
  /** Where rows count (the results list, else its container), and the page's main column. */
  rowScope?: Element | undefined;
  main?: Element | undefined;
}

function isNextPageLink(element: Element): boolean {
  return element.name === 'a' && hasClass(element, 'pagination__next') && Boolean(element.attribs.href) && element.attribs['aria-disabled'] !== 'true';
}

function isLooseDivider(text: string): boolean {
  const folded = foldText(text);
  return LOOSE_DIVIDER_TEXTS.some((phrase) => folded.includes(phrase));
}

/** The layout of a result row, or null for an element that is not one. */
function rowLayoutOf(element: Element, classes: string[]): RowLayout | null {
  if (element.name === 'li') {
    if (classes.includes('s-card')) return 'card';
    if (classes.includes('s-item')) return 'item';
  }
  return classes.includes('su-item-card') ? 'su' : null;
}

/** The results list: `ul.srp-results`, or `ul.su-grid` in the su-item-card layout. */
function isResultsList(element: Element, classes: string[]): boolean {
  return element.name === 'ul' && (classes.includes('srp-results') || classes.includes('su-grid'));
}

/**
 * The results live in one container (`.srp-river-results`, else the results list itself): rows and
 * dividers count only there. Rows below the "results matching fewer words" divider are loose
 * matches (wherever the divider stands: before the list, all are). Rows inside other answers
 * (carousels of suggestions), the hidden "Shop on eBay" placeholders (`.s-clipped`) and any row
 * outside the results list (`ul.srp-results`: related items, the hidden `.clipped` rows of older
 * pages) are not results. A page without the container is read whole.
 * With `structural`, links to listings in the results list that no known row holds make rows of
 * their own, found by structure (`structuralRowsIn`); never outside the list.
 */
function pageParts(root: Document | Element, { structural = false } = {}): PageParts {
  const parts: PageParts = { sequence: [], heading: undefined, hasNextPage: false, isResultsPage: false };
  let container: Element | undefined;
  let list: Element | undefined;
  walk(root, (element) => {
    const value = element.attribs.class;
    // Only elements with one of the classes below are looked at closely.
    if (!value || !(value.includes('srp-') || value.includes('s-card') || value.includes('s-item') || value.includes('su-') || value.includes('s-clipped') || value.includes('pagination__next'))) return true;
    const classes = classList(element);
    if (classes.includes('srp-river-answer--REWRITE_START')) {
      if (isLooseDivider(rawText(element))) parts.sequence.push({ kind: 'divider', element });
      return false;
    }
    const layout = rowLayoutOf(element, classes);
    if (layout) {
      parts.sequence.push({ kind: 'row', element, layout });
      return false;
    }
    if (classes.includes('srp-river-answer') || classes.includes('s-clipped')) {
      // Answers hold no results, but one of them holds the pagination.
      if (findFirst(element, isNextPageLink)) parts.hasNextPage = true;
      return false;
    }
    if (classes.includes('srp-controls__count-heading')) {
      parts.heading ??= element;
      parts.isResultsPage = true;
    }
    if (classes.includes('srp-river-results')) {
      container ??= element;
      parts.isResultsPage = true;
    }
    if (classes.includes('srp-results') || isResultsList(element, classes)) {
      parts.isResultsPage = true;
      if (isResultsList(element, classes)) list ??= element;
    }
    if (classes.includes('srp-main-content')) parts.main ??= element;
    if (isNextPageLink(element)) parts.hasNextPage = true;
    return true;
  });
  // Dividers count anywhere in the results' container, rows only in the results list.
  const scope = container ?? list;
  if (scope) {
    const rowScope = list ?? scope;
    parts.rowScope = rowScope;
    parts.sequence = parts.sequence.filter((entry) => (entry.kind === 'divider' ? entry.element === scope || isInside(entry.element, scope) : isInside(entry.element, rowScope)));
    if (structural) parts.sequence = withStructuralRows(scope, rowScope, parts.sequence);
  }
  return parts;
}

/** The links to listings in the list that no known row of `sequence` holds: rows of a layout no reader knows. */
function strayLinksIn(rowScope: Element, sequence: PageParts['sequence']): Element[] {
  const known = new Set(sequence.filter((entry) => entry.kind === 'row').map((entry) => entry.element));
  return itemLinksIn(rowScope).filter((link) => !known.has(link) && !hasAncestor(link, (ancestor) => known.has(ancestor)));
}

/** `sequence` with a row, found by structure, for each stray link in `rowScope`; all in document order. */
function withStructuralRows(scope: Element, rowScope: Element, sequence: PageParts['sequence']): PageParts['sequence'] {
  const stray = strayLinksIn(rowScope, sequence);
  if (stray.length === 0) return sequence;
  const rows = new Set(structuralRowsIn(rowScope, stray));
  const entries = new Map(sequence.map((entry) => [entry.element, entry]));
  const ordered: PageParts['sequence'] = [];
  walk(scope, (element) => {
    const entry = entries.get(element);
    if (entry) ordered.push(entry);
    else if (rows.has(element)) ordered.push({ kind: 'row', element, layout: 'structural' });
    else return true;
    return false;
  });
  return ordered;
}

/** "242 results", "1,000+ results", "1.300+ Ergebnisse", "Pink Floyd CDの結果55件". */
function totalResultsOf(heading: Element | undefined): number | null {
  if (!heading) return null;
  const bold = findAll(heading, (element) => hasClass(element, 'BOLD'))
    .map((span) => textOf(span))
    .find((text) => /^\d[\d.,\s]*$/.test(text));
  const number = bold ?? /\d[\d.,]*/.exec(cleanText(rawText(heading)))?.[0];
  if (!number) return null;
  const value = Number(number.replace(/[.,\s]/g, ''));
  return Number.isSafeInteger(value) ? value : null;
}

const ROW_READERS: Readonly<Record<RowLayout, (row: Element, site: MarketSite) => RawRow>> = {
  card: extractCardRow,
  item: extractItemRow,
  su: extractSuCardRow,
  structural: extractStructuralRow,
};

interface RowsRead {
  items: ListingRow[];
  rowsDropped: number;
  readStructurally: Set<ListingRow>;
  /** Rows that link to a listing and could not be read, in order. */
  unread: Element[];
  /** Rows read without a price shown at all (a price whose class moved): a whole tree reads them again. */
  priceless: number;
}

/**
 * Whether a known row's reading missed what its layout always shows: no listing, or no price at
 * all (a row showing "See price" has its text). Such a row's field classes moved.
 */
function missedByReader(normalized: NormalizedRow, row: Element): boolean {
  if (normalized.ok) return normalized.item.priceText === null;
  return normalized.reason !== 'no item id' || itemLinksIn(row).length > 0;
}

/**
 * Rows read one at a time, in page order, each by its layout's reader; a divider makes the rows
 * after it loose matches. With `structural` (a whole tree), a known row its reader misses is read
 * again by its structure, which is kept when it reads better.
 */
class RowsReader {
  readonly read: RowsRead = { items: [], rowsDropped: 0, readStructurally: new Set(), unread: [], priceless: 0 };
  private looseMatch = false;

  constructor(
    private readonly site: MarketSite,
    private readonly structural: boolean,
  ) {}

  add(entry: PageParts['sequence'][number]): void {
    const { read, site, looseMatch, structural } = this;
    if (entry.kind === 'divider') {
      this.looseMatch = true;
      return;
    }
    let normalized = normalizeRow(ROW_READERS[entry.layout](entry.element, site), { site, looseMatch });
    let byStructure = entry.layout === 'structural';
    const missed = !byStructure && missedByReader(normalized, entry.element);
    if (missed && structural) {
      const again = normalizeRow(extractStructuralRow(entry.element, site), { site, looseMatch });
      if (again.ok && (!normalized.ok || again.item.priceText !== null)) {
        normalized = again;
        byStructure = true;
      }
    }
    if (normalized.ok) {
      read.items.push(normalized.item);
      if (byStructure) read.readStructurally.add(normalized.item);
      if (missed && !structural) read.priceless += 1;
    } else if (normalized.reason !== 'no item id' || missed) {
      read.rowsDropped += 1;
      read.unread.push(entry.element);
    }
  }
}

/** Every row of the sequence, read (`RowsReader`). */
function readRows(parts: PageParts, site: MarketSite, { structural = false } = {}): RowsRead {
  const reader = new RowsReader(site, structural);
  for (const entry of parts.sequence) reader.add(entry);
  return reader.read;
}

/**
 * Whether the page's layout went unrecognized: it says it has results (a count above 0, or links
 * to listings in the results list, else, on a page without one, in the main column) and no row
 * was read, or more than half of the rows that link to a listing were not.
 */
function unrecognizedLayoutOf(read: RowsRead, parts: PageParts, totalResults: number | null): ParsedSearchPage['unrecognizedLayout'] {
  const evidenceScope = parts.rowScope ?? parts.main;
  if (read.items.length > 0) {
    return read.unread.length * 2 > read.items.length + read.unread.length ? { rowClasses: read.unread[0]!.attribs.class ?? null } : null;
  }
  if (read.unread.length > 0) return { rowClasses: read.unread[0]!.attribs.class ?? null };
  const linked = evidenceScope ? itemLinksIn(evidenceScope).length > 0 : false;
  if ((totalResults ?? 0) === 0 && !linked) return null;
  const firstRow = evidenceScope ? structuralRowsIn(evidenceScope)[0] : undefined;
  return { rowClasses: firstRow?.attribs.class ?? null };
}

type RowsReading = Pick<ParsedSearchPage, 'items' | 'rowsDropped' | 'readStructurally' | 'unrecognizedLayout'>;

/** The rows of a whole tree's parts (`structural`), judged. */
function readWholeParts(parts: PageParts, site: MarketSite, totalResults: number | null): RowsReading {
  const read = readRows(parts, site, { structural: true });
  return { items: read.items, rowsDropped: read.rowsDropped, readStructurally: read.readStructurally, unrecognizedLayout: unrecognizedLayoutOf(read, parts, totalResults) };
}

/** Reads a search-results page of any layout from its whole tree, rows of an unknown one by their structure. */
export function parseSearchDocument(document: Document, site: MarketSite): ParsedSearchPage & { isResultsPage: boolean } {
  const parts = pageParts(document, { structural: true });
  const totalResults = totalResultsOf(parts.heading);
  return { ...readWholeParts(parts, site, totalResults), totalResults, hasNextPage: parts.hasNextPage, isResultsPage: parts.isResultsPage };
}

/**
 * The rows of the results container, read as the scan finds them (`scanResults`: each row's tree is
 * dropped once read), the dividers among them heeded; when the scan finds rows that do not add up,
 * what it read is dropped and the container is read as a tree of what matters instead.
 */
function readResults(page: PageText, landmarks: PageLandmarks, container: TagLocation, site: MarketSite): { read: RowsRead; hasNextPage: boolean; strayLinks: number } {
  const reader = new RowsReader(site, false);
  let hasNextPage = false;
  const scanned = scanResults(page, landmarks, SEARCH_ATTRIBUTES, container, (entry) => {
    if (entry.kind === 'row') reader.add(entry);
    else if (hasClass(entry.element, 'srp-river-answer--REWRITE_START')) {
      if (isLooseDivider(rawText(entry.element))) reader.add({ kind: 'divider', element: entry.element });
    } else if (findFirst(entry.element, isNextPageLink)) hasNextPage = true;
  });
  if (scanned) return { read: reader.read, hasNextPage, strayLinks: scanned.strayLinks };
  const parts = pageParts(parseSkimmed(page, SEARCH_ATTRIBUTES, { start: container.start, firstElementOnly: true, selection: RESULTS_SELECTION }));
  // Links to listings that no known row holds: rows of a layout no reader knows stand among them.
  const strayLinks = parts.rowScope ? strayLinksIn(parts.rowScope, parts.sequence).length : 0;
  return { read: readRows(parts, site), hasNextPage: parts.hasNextPage, strayLinks };
}

/** The attributes the search parser reads; the skimmed trees drop every other. */
const SEARCH_ATTRIBUTES = new KeptAttributes(new Set(['class', 'href', 'data-listingid', 'src', 'data-src', 'data-defer-load', 'aria-disabled', 'alt']));

/** The element starting at `start`, skimmed, with its content. */
function elementAt(page: PageText, start: number): Element | undefined {
  return parseElementAt(page, SEARCH_ATTRIBUTES, start).element;
}

/** What every class `pageParts` looks for holds (rows, answers, the heading, the next-page link): a page with none has nothing to read. */
const READ_MARKERS = ['s-card', 's-item', 'su-item-card', 'srp-', 's-clipped', 'pagination__next'];

/** Elements `pageParts` reads whole: answers (dividers among them), the hidden placeholders, the heading, the next-page link. */
const PAGE_PARTS = new Set(['srp-river-answer', 's-clipped', 'srp-controls__count-heading', 'pagination__next']);

/**
 * What of the results container is built: the container, the list and the rows as a skeleton, and
 * whole every element `pageParts` and the row readers ask about (by class, and the item links);
 * the rest of a row (media wrappers, ratings, footers, icons) is read for the structure only.
 */
const RESULTS_SELECTION: Selection = {
  candidates: /srp-|s-card|s-item|su-item-card|su-grid|s-clipped|su-card-container__attributes__|pagination__next|itm/,
  classify(element) {
    const classes = classList(element);
    const layout = rowLayoutOf(element, classes);
    // The su-item-card layout's rows are read whole (the scan below knows the other two only).
    if (layout === 'su') return 'subtree';
    if (classes.includes('srp-river-results') || classes.includes('srp-results') || isResultsList(element, classes) || layout) return 'skeleton';
    if (classes.some((name) => ROW_PARTS.has(name) || PAGE_PARTS.has(name)) || (element.name === 'a' && element.attribs.href?.includes('/itm/'))) return 'subtree';
    return 'none';
  },
};

/**
 * Reads a search-results page (the api's and the jobs' way): the answer `parseSearchDocument` gives
 * on the whole tree, at a fraction of the cost. The results container, its rows and their parts,
 * the count heading and the next-page link are found with string searches, and only the parts the
 * row readers look at are parsed (`scanResults`). A container whose rows do not add up is read as
 * a tree of what matters (`RESULTS_SELECTION`); a page without the container is read whole.
 * The page may come as its bytes (the services' way: see `PageText`) or as text.
 */
export function parseSearchPage(source: PageSource, site: MarketSite): ParsedSearchPage & { isResultsPage: boolean } {
  const page = PageText.of(source);
  const { html } = page;
  const landmarks = new PageLandmarks(page);
  const container =
    landmarks.findTagByClass('srp-river-results') ?? [...landmarks.findTagsByClass('srp-results'), ...landmarks.findTagsByClass('su-grid')].find((tag) => tag.name === 'ul');
  if (!container) {
    // A page that names none of the classes the reader looks for (a bot check, an error page) has nothing to read.
    if (!READ_MARKERS.some((name) => html.includes(name))) {
      return { items: [], rowsDropped: 0, readStructurally: new Set(), totalResults: null, hasNextPage: false, isResultsPage: false, unrecognizedLayout: null };
    }
    return parseSearchDocument(parseSkimmed(page, SEARCH_ATTRIBUTES), site);
  }
  const { read, hasNextPage: answersHaveNextPage, strayLinks } = readResults(page, landmarks, container, site);
  const headingTag = landmarks.findTagByClass('srp-controls__count-heading');
  const heading = headingTag ? elementAt(page, headingTag.start) : undefined;
  // The next-page link anywhere on the page; it is usually in the pagination answer already read.
  const hasNextPage =
    answersHaveNextPage ||
    landmarks.findTagsByClass('pagination__next').some((tag) => {
      const link = elementAt(page, tag.start);
      return link !== undefined && isNextPageLink(link);
    });
  const totalResults = totalResultsOf(heading);
  // Rows a reader missed, stray links, or no row at all (an empty page too): the container is read
  // again whole, rows of an unknown layout by their structure, before the page is judged. A page
  // of known rows read whole, nearly every one, is not parsed twice.
  const reading =
    read.unread.length > 0 || read.priceless > 0 || strayLinks > 0 || read.items.length === 0
      ? readWholeParts(pageParts(parseSkimmed(page, SEARCH_ATTRIBUTES, { start: container.start, firstElementOnly: true }), { structural: true }), site, totalResults)
      : { items: read.items, rowsDropped: read.rowsDropped, readStructurally: read.readStructurally, unrecognizedLayout: null };
  return { ...reading, totalResults, hasNextPage, isResultsPage: true };
}
