import type { CheerioAPI } from 'cheerio';
import type { ListingItem } from '../../contract/listing.js';
import type { MarketSite } from '../../contract/market-sites.js';
import { extractCardRow, extractItemRow } from './extract-rows.js';
import { loadHtml } from './load-html.js';
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

const ROW_SELECTOR = 'li.s-card, li.s-item';
const DIVIDER_CLASS = 'srp-river-answer--REWRITE_START';

/** A results page has a results list or the results count heading. */
export function isSearchResultsPage($: CheerioAPI): boolean {
  return $('ul.srp-results, .srp-river-results, .srp-controls__count-heading').length > 0;
}

function isLooseDivider(text: string): boolean {
  const folded = foldText(text);
  return LOOSE_DIVIDER_TEXTS.some((phrase) => folded.includes(phrase));
}

/** "242 results", "1,000+ results", "1.300+ Ergebnisse", "Pink Floyd CDの結果55件". */
export function totalResultsOf($: CheerioAPI): number | null {
  const heading = $('.srp-controls__count-heading').first();
  if (!heading.length) return null;
  const bold = heading
    .find('.BOLD')
    .map((_, span) => cleanText($(span).text()))
    .get()
    .find((text) => /^\d[\d.,\s]*$/.test(text));
  const number = bold ?? /\d[\d.,]*/.exec(cleanText(heading.text()))?.[0];
  if (!number) return null;
  const value = Number(number.replace(/[.,\s]/g, ''));
  return Number.isSafeInteger(value) ? value : null;
}

function hasNextPageOf($: CheerioAPI): boolean {
  return $('a.pagination__next[href]').filter((_, link) => $(link).attr('aria-disabled') !== 'true').length > 0;
}

/**
 * Reads a search-results page of either layout. Rows below the "results matching fewer words"
 * divider are loose matches (wherever the divider stands: before the list, all are). Rows inside
 * other answers (carousels of suggestions) are not results, and the "Shop on eBay" placeholders
 * carry no valid item id, so neither becomes an item nor counts as dropped.
 */
export function parseSearchDocument($: CheerioAPI, site: MarketSite): ParsedSearchPage {
  const items: ListingItem[] = [];
  let rowsDropped = 0;
  let looseMatch = false;
  $(`${ROW_SELECTOR}, .${DIVIDER_CLASS}`).each((_, element) => {
    const node = $(element);
    if (node.hasClass(DIVIDER_CLASS)) {
      if (isLooseDivider(node.text())) looseMatch = true;
      return;
    }
    if (node.parents('.srp-river-answer, .s-clipped').length > 0) return;
    const raw = node.hasClass('s-card') ? extractCardRow($, node) : extractItemRow($, node);
    const normalized = normalizeRow(raw, { site, looseMatch });
    if (normalized.ok) items.push(normalized.item);
    else if (normalized.reason !== 'no item id') rowsDropped += 1;
  });
  return { items, rowsDropped, totalResults: totalResultsOf($), hasNextPage: hasNextPageOf($) };
}

export function parseSearchPage(html: string, site: MarketSite): ParsedSearchPage {
  return parseSearchDocument(loadHtml(html), site);
}
