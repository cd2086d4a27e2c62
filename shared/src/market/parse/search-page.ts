import type { Document, Element } from 'domhandler';
import type { ListingItem } from '../../contract/listing.js';
import type { MarketSite } from '../../contract/market-sites.js';
import { classList, findAll, findFirst, hasClass, isInside, rawText, textOf, walk } from './dom.js';
import { extractCardRow, extractItemRow } from './extract-rows.js';
import { PageLandmarks } from './landmarks.js';
import { normalizeRow } from './normalize-row.js';
import { PageText, type PageSource } from './page-text.js';
import { ROW_PARTS, scanResults, type ScannedEntry } from './results-scan.js';
import { KeptAttributes, parseElementAt, parseSkimmed, type Selection } from './skimmed-tree.js';
import { cleanText, foldText } from './text.js';
import { LOOSE_DIVIDER_TEXTS } from './vocabulary.js';

export interface ParsedSearchPage {
  /** Every row that made a valid item, in page order, loose matches flagged. */
  items: ListingItem[];
  /** Rows that could not be made into a valid item. */
  rowsDropped: number;
  /** The marketplace's own count, when the page shows one. */
  totalResults: number | null;
  hasNextPage: boolean;
}

/** What one walk over a results page finds, in document order. */
interface PageParts {
  /** Result rows and "fewer words" dividers, in order; rows inside other answers are left out. */
  sequence: Array<{ kind: 'row'; element: Element; layout: 'card' | 'item' } | { kind: 'divider'; element: Element }>;
  heading: Element | undefined;
  hasNextPage: boolean;
  isResultsPage: boolean;
}

function isNextPageLink(element: Element): boolean {
  return element.name === 'a' && hasClass(element, 'pagination__next') && Boolean(element.attribs.href) && element.attribs['aria-disabled'] !== 'true';
}

function isLooseDivider(text: string): boolean {
  const folded = foldText(text);
  return LOOSE_DIVIDER_TEXTS.some((phrase) => folded.includes(phrase));
}

/**
 * The results live in one container (`.srp-river-results`, else the results list itself): rows and
 * dividers count only there. Rows below the "results matching fewer words" divider are loose
 * matches (wherever the divider stands: before the list, all are). Rows inside other answers
 * (carousels of suggestions), the hidden "Shop on eBay" placeholders (`.s-clipped`) and any row
 * outside the results list (`ul.srp-results`: related items, the hidden `.clipped` rows of older
 * pages) are not results. A page without the container is read whole.
 */
function pageParts(root: Document | Element): PageParts {
  const parts: PageParts = { sequence: [], heading: undefined, hasNextPage: false, isResultsPage: false };
  let container: Element | undefined;
  let list: Element | undefined;
  walk(root, (element) => {
    const value = element.attribs.class;
    // Only elements with one of the classes below are looked at closely.
    if (!value || !(value.includes('srp-') || value.includes('s-card') || value.includes('s-item') || value.includes('s-clipped') || value.includes('pagination__next'))) return true;
    const classes = classList(element);
    if (classes.includes('srp-river-answer--REWRITE_START')) {
      if (isLooseDivider(rawText(element))) parts.sequence.push({ kind: 'divider', element });
      return false;
    }
    if (element.name === 'li' && (classes.includes('s-card') || classes.includes('s-item'))) {
      parts.sequence.push({ kind: 'row', element, layout: classes.includes('s-card') ? 'card' : 'item' });
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
    if (classes.includes('srp-results')) {
      parts.isResultsPage = true;
      if (element.name === 'ul') list ??= element;
    }
    if (isNextPageLink(element)) parts.hasNextPage = true;
    return true;
  });
  // Dividers count anywhere in the results' container, rows only in the results list.
  const scope = container ?? list;
  if (scope) {
    const rowScope = list ?? scope;
    parts.sequence = parts.sequence.filter((entry) => (entry.kind === 'divider' ? entry.element === scope || isInside(entry.element, scope) : isInside(entry.element, rowScope)));
  }
  return parts;
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

function readRows(parts: PageParts, site: MarketSite): { items: ListingItem[]; rowsDropped: number } {
  const items: ListingItem[] = [];
  let rowsDropped = 0;
  let looseMatch = false;
  for (const entry of parts.sequence) {
    if (entry.kind === 'divider') {
      looseMatch = true;
      continue;
    }
    const raw = entry.layout === 'card' ? extractCardRow(entry.element) : extractItemRow(entry.element);
    const normalized = normalizeRow(raw, { site, looseMatch });
    if (normalized.ok) items.push(normalized.item);
    else if (normalized.reason !== 'no item id') rowsDropped += 1;
  }
  return { items, rowsDropped };
}

/** Reads a search-results page of either layout from its whole tree. */
export function parseSearchDocument(document: Document, site: MarketSite): ParsedSearchPage & { isResultsPage: boolean } {
  const parts = pageParts(document);
  return { ...readRows(parts, site), totalResults: totalResultsOf(parts.heading), hasNextPage: parts.hasNextPage, isResultsPage: parts.isResultsPage };
}

/** The tree reader's sequence from a row-by-row scan: rows, and the answers that are "fewer words" dividers. */
function partsOf(scanned: ScannedEntry[]): PageParts {
  const sequence: PageParts['sequence'] = [];
  let hasNextPage = false;
  for (const entry of scanned) {
    if (entry.kind === 'row') sequence.push(entry);
    else if (hasClass(entry.element, 'srp-river-answer--REWRITE_START')) {
      if (isLooseDivider(rawText(entry.element))) sequence.push({ kind: 'divider', element: entry.element });
    } else if (findFirst(entry.element, isNextPageLink)) hasNextPage = true;
  }
  return { sequence, heading: undefined, hasNextPage, isResultsPage: true };
}

/** The attributes the search parser reads; the skimmed trees drop every other. */
const SEARCH_ATTRIBUTES = new KeptAttributes(new Set(['class', 'href', 'data-listingid', 'src', 'data-src', 'data-defer-load', 'aria-disabled']));

/** The element starting at `start`, skimmed, with its content. */
function elementAt(page: PageText, start: number): Element | undefined {
  return parseElementAt(page, SEARCH_ATTRIBUTES, start).element;
}

/** What every class `pageParts` looks for holds (rows, answers, the heading, the next-page link): a page with none has nothing to read. */
const READ_MARKERS = ['s-card', 's-item', 'srp-', 's-clipped', 'pagination__next'];

/** Elements `pageParts` reads whole: answers (dividers among them), the hidden placeholders, the heading, the next-page link. */
const PAGE_PARTS = new Set(['srp-river-answer', 's-clipped', 'srp-controls__count-heading', 'pagination__next']);

/**
 * What of the results container is built: the container, the list and the rows as a skeleton, and
 * whole every element `pageParts` and the row readers ask about (by class, and the item links);
 * the rest of a row (media wrappers, ratings, footers, icons) is read for the structure only.
 */
const RESULTS_SELECTION: Selection = {
  candidates: /srp-|s-card|s-item|s-clipped|su-card-container__attributes__|pagination__next|itm/,
  classify(element) {
    const classes = classList(element);
    if (classes.includes('srp-river-results') || classes.includes('srp-results') || (element.name === 'li' && (classes.includes('s-card') || classes.includes('s-item')))) return 'skeleton';
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
  const container = landmarks.findTagByClass('srp-river-results') ?? landmarks.findTagsByClass('srp-results').find((tag) => tag.name === 'ul');
  if (!container) {
    // A page that names none of the classes the reader looks for (a bot check, an error page) has nothing to read.
    if (!READ_MARKERS.some((name) => html.includes(name))) return { items: [], rowsDropped: 0, totalResults: null, hasNextPage: false, isResultsPage: false };
    return parseSearchDocument(parseSkimmed(page, SEARCH_ATTRIBUTES), site);
  }
  const scanned = scanResults(page, landmarks, SEARCH_ATTRIBUTES, container);
  const parts = scanned ? partsOf(scanned) : pageParts(parseSkimmed(page, SEARCH_ATTRIBUTES, { start: container.start, firstElementOnly: true, selection: RESULTS_SELECTION }));
  const headingTag = landmarks.findTagByClass('srp-controls__count-heading');
  const heading = headingTag ? elementAt(page, headingTag.start) : undefined;
  // The next-page link anywhere on the page; it is usually in the pagination answer already read.
  const hasNextPage =
    parts.hasNextPage ||
    landmarks.findTagsByClass('pagination__next').some((tag) => {
      const link = elementAt(page, tag.start);
      return link !== undefined && isNextPageLink(link);
    });
  return { ...readRows(parts, site), totalResults: totalResultsOf(heading), hasNextPage, isResultsPage: true };
}
