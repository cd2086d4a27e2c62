import type { Document, Element } from 'domhandler';
import type { ListingItem } from '../../contract/listing.js';
import type { MarketSite } from '../../contract/market-sites.js';
import { classList, findAll, findFirst, hasClass, parseHtml, rawText, textOf, walk } from './dom.js';
import { extractCardRow, extractItemRow } from './extract-rows.js';
import { normalizeRow } from './normalize-row.js';
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
  sequence: Array<{ kind: 'row'; element: Element; layout: 'card' | 'item' } | { kind: 'divider' }>;
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
 * Rows below the "results matching fewer words" divider are loose matches (wherever the divider
 * stands: before the list, all are). Rows inside other answers (carousels of suggestions) and the
 * hidden "Shop on eBay" placeholders (`.s-clipped`) are not results.
 */
function pageParts(document: Document): PageParts {
  const parts: PageParts = { sequence: [], heading: undefined, hasNextPage: false, isResultsPage: false };
  walk(document, (element) => {
    if (!element.attribs.class) return true;
    const classes = classList(element);
    if (classes.includes('srp-river-answer--REWRITE_START')) {
      if (isLooseDivider(rawText(element))) parts.sequence.push({ kind: 'divider' });
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
    if (classes.includes('srp-results') || classes.includes('srp-river-results')) parts.isResultsPage = true;
    if (isNextPageLink(element)) parts.hasNextPage = true;
    return true;
  });
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

/** Reads a search-results page of either layout. */
export function parseSearchDocument(document: Document, site: MarketSite): ParsedSearchPage & { isResultsPage: boolean } {
  const parts = pageParts(document);
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
  return { items, rowsDropped, totalResults: totalResultsOf(parts.heading), hasNextPage: parts.hasNextPage, isResultsPage: parts.isResultsPage };
}

export function parseSearchPage(html: string, site: MarketSite): ParsedSearchPage & { isResultsPage: boolean } {
  return parseSearchDocument(parseHtml(html), site);
}
